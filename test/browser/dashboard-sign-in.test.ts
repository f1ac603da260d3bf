import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { freshContext, launchChromium } from '../fixtures/chromium.js';
import {
  checkPage,
  CODE_LABEL,
  DASHBOARD_ACTION_TIMEOUT_MS,
  totpCode,
  virtualAuthenticator,
} from '../fixtures/dashboard-browser.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { dashboardWorld } from '../fixtures/dashboard-world.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { watchConsole } from '../fixtures/page-checks.js';

describe('dashboard in a browser: signing in', () => {
  const { service } = setupE2e({ host: 'localhost', env: DASHBOARD_ENV });
  const world = dashboardWorld(service);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    console.log(`browser: Chromium ${browser.version()}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A person of a new organization with a password and an authenticator (their test session is not used). */
  async function person(role: 'owner' | 'approver' = 'approver') {
    const org = await service.createOrganization('Acme Analytics');
    const user = await signInAs(service, { organizationId: org.organizationId, role });
    return { org, user };
  }

  /** Presses Tab until the focused element matches `selector` (keyboard only: no click anywhere). */
  async function tabTo(page: Page, selector: string, presses = 60) {
    for (let i = 0; i < presses; i += 1) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
    }
    throw new Error(`no focusable element matches ${selector} within ${presses} presses of Tab`);
  }

  /** An invitation link as `npm start` and the team page make it (POST /v1/users with the organization's sandbox key), opened on localhost. */
  async function invitation(org: { key: string }, email: string, role: 'owner' | 'approver') {
    const invited = await service.call('POST', '/v1/users', { key: org.key, body: { email, role } });
    expect(invited.status, invited.text).toBe(201);
    const link = new URL(invited.body.inviteUrl as string);
    return { userId: invited.body.id as string, url: `${service.baseUrl}${link.pathname}` };
  }

  const NEW_PASSWORD = 'copper kettle on a quiet shelf';

  it('takes a new owner from the invitation link to the approvals inbox in under a minute: password, authenticator app, recovery codes', async () => {
    const org = await service.createOrganization('Northwind Research');
    const { userId, url } = await invitation(org, 'new.owner@northwind.test', 'owner');
    const context = await freshContext(browser);
    context.setDefaultTimeout(DASHBOARD_ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    const seen = watchConsole(page);
    let checking = 0;
    const timedCheck = async () => {
      const at = Date.now();
      await checkPage(page, seen);
      checking += Date.now() - at;
    };

    const started = Date.now();
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Accept your invitation');
    await timedCheck();
    await page.locator('#password').fill(NEW_PASSWORD);
    await page.locator('#confirm').fill(NEW_PASSWORD);
    const secret = ((await page.locator('span[data-totp-secret]').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await page.locator('#code').fill(await totpCode(secret));
    await page.getByRole('button', { name: 'Set up with this app' }).click();
    await page.waitForSelector('ul[data-recovery-codes]');
    await expect(page.locator('ul[data-recovery-codes] li').count()).resolves.toBe(10);
    await timedCheck();
    await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
    await page.waitForURL((at) => at.pathname === '/dashboard/approvals');
    await expect(page.locator('h1').textContent()).resolves.toBe('Approvals');
    const took = Date.now() - started - checking;
    console.log(`invitation to approvals inbox: ${took} ms (without the page checks)`);
    expect(took).toBeLessThan(60_000);

    const user = await service.call('GET', `/v1/users/${userId}`, { key: org.key });
    expect(user.body).toMatchObject({ id: userId, status: 'ACTIVE' });
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Invitation not valid');
    await context.close();
  });

  it('enrols a passkey on an invitation, then signs in with the passkey alone in a fresh browser holding it', async () => {
    const org = await service.createOrganization('Passkey Partners');
    const { userId, url } = await invitation(org, 'keyholder@passkey.test', 'approver');
    const context = await freshContext(browser);
    context.setDefaultTimeout(DASHBOARD_ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    const seen = watchConsole(page);
    const authenticator = await virtualAuthenticator(context, page);
    await page.goto(url);
    await page.locator('#password').fill(NEW_PASSWORD);
    await page.locator('#confirm').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set up with a passkey' }).click();
    await page.waitForSelector('ul[data-recovery-codes]');
    await checkPage(page, seen);
    const credentials = await authenticator.credentials();
    expect(credentials).toHaveLength(1);
    await context.close();

    const fresh = await freshContext(browser);
    fresh.setDefaultTimeout(DASHBOARD_ACTION_TIMEOUT_MS);
    const next = await fresh.newPage();
    const watched = watchConsole(next);
    await virtualAuthenticator(fresh, next, credentials);
    await next.goto(`${service.baseUrl}/dashboard/sign-in`);
    await next.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await next.waitForURL((at) => at.pathname === '/dashboard');
    await expect(next.locator('h1').count()).resolves.toBe(1);
    await checkPage(next, watched);
    await service.projected();
    const logins = (await world.auditEntries(org, 'user.login')).filter((entry) => entry.actorId === userId);
    expect(logins.length).toBeGreaterThan(0);
    await fresh.close();
  });

  it('sends a signed-out visit to sign-in, refuses a wrong code with one generic message, and signs in with email, password and a code back to the page asked for', async () => {
    const { org, user } = await person();
    const context = await freshContext(browser);
    context.setDefaultTimeout(DASHBOARD_ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(`${service.baseUrl}/dashboard/approvals`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in');
    await checkPage(page, seen);

    const form = page.locator('form', { has: page.getByLabel(CODE_LABEL) });
    await form.getByLabel('Email').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    const right = await totpCode(user.totpSecret);
    await form.getByLabel(CODE_LABEL).fill(right === '000000' ? '111111' : '000000');
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/./);
    await checkPage(page, seen);

    await form.getByLabel('Email').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    await form.getByLabel(CODE_LABEL).fill(right);
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/dashboard\/approvals$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Approvals');
    await checkPage(page, seen);

    await service.projected();
    const logins = (await world.auditEntries(org, 'user.login')).filter((entry) => entry.actorId === user.userId);
    expect(logins.length).toBeGreaterThan(0);
    expect(logins[0]).toMatchObject({ actorType: 'USER' });
    const failures = await world.auditEntries(org, 'user.login.fail');
    expect(failures.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in/);
    await page.goto(`${service.baseUrl}/dashboard/approvals`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await context.close();
  });

  it('signs in with a recovery code, which then does not work a second time', async () => {
    const { user } = await person();
    const context = await freshContext(browser);
    context.setDefaultTimeout(DASHBOARD_ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    const seen = watchConsole(page);
    const signInWithRecovery = async () => {
      await page.goto(`${service.baseUrl}/dashboard/sign-in/recovery`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByLabel(/^Recovery code/).fill(user.recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForLoadState('load');
    };
    await page.goto(`${service.baseUrl}/dashboard/sign-in/recovery`);
    await checkPage(page, seen);
    await signInWithRecovery();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await checkPage(page, seen);
    await context.clearCookies();
    await signInWithRecovery();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in/recovery');
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    await context.close();
  });

  it('signs in and approves a payment with the keyboard alone', async () => {
    const { org, user } = await person();
    const agent = await world.governedAgent(org);
    const held = await world.heldPayment(agent, '30.00', 'Keyboard only');
    const context = await freshContext(browser);
    context.setDefaultTimeout(DASHBOARD_ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(`${service.baseUrl}/dashboard/sign-in`);
    await tabTo(page, '#email');
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Tab');
    await page.keyboard.type(await totpCode(user.totpSecret));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/dashboard');

    await tabTo(page, `nav a[href="/dashboard/approvals"]`);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/approvals$/);
    await tabTo(page, `a[href="/dashboard/approvals/${held.approvalId}"]`);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/dashboard/approvals/${held.approvalId}$`));
    await tabTo(page, '#approve-note');
    await page.keyboard.type('Checked by keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=approved/);
    expect(await world.approval(org, held.approvalId)).toMatchObject({
      status: 'APPROVED',
      decidedBy: user.userId,
      note: 'Checked by keyboard',
    });
    await context.close();
  });

  it('signs in with JavaScript disabled', async () => {
    const { user } = await person('owner');
    const context = await freshContext(browser, { javaScriptEnabled: false });
    context.setDefaultTimeout(DASHBOARD_ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(`${service.baseUrl}/dashboard/sign-in`);
    const form = page.locator('form', { has: page.getByLabel(CODE_LABEL) });
    await form.getByLabel('Email').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    await form.getByLabel(CODE_LABEL).fill(await totpCode(user.totpSecret));
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect(page.locator('h1').count()).resolves.toBe(1);
    await context.close();
  });
});
