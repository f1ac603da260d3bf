import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ENV } from '../../shared/config/env-names.js';
import { launchChromium } from '../fixtures/chromium.js';
import { checkPage, signedInContext, stepUp } from '../fixtures/dashboard-browser.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { dashboardWorld, ok } from '../fixtures/dashboard-world.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';
import { watchConsole } from '../fixtures/page-checks.js';

describe('dashboard in a browser: activation, API keys, webhooks, audit log', () => {
  const { service } = setupE2e({
    host: 'localhost',
    env: {
      ...DASHBOARD_ENV,
      // KYB decided at once (the local run's option); retries at their real pace, so a resend is what delivers.
      KYB_AUTO_APPROVE: '1',
      TIME_SCALE: '1',
      [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
    },
  });
  const world = dashboardWorld(service);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    console.log(`browser: Chromium ${browser.version()}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function signedIn(options: { javaScriptEnabled?: boolean; verified?: boolean } = {}) {
    const org = await service.createOrganization('Acme Analytics');
    const session = await signInAs(service, {
      organizationId: org.organizationId,
      role: 'owner',
      verified: options.verified ?? true,
    });
    const context = await signedInContext(browser, service.baseUrl, session, {
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    const page = await context.newPage();
    return { org, session, context, page, seen: watchConsole(page) };
  }

  const notice = (page: Page, name: string) => page.locator(`[data-notice="${name}"]`);

  it('goes live through the activation page: business details, terms, billing card, Go live, the second factor again, Go live', async () => {
    const { org, session, context, page, seen } = await signedIn({ verified: false });
    await page.goto(`${service.baseUrl}/dashboard/activation`);
    await expect(page.locator('li[data-missing]').count()).resolves.toBe(3);
    await checkPage(page, seen);
    await page.getByLabel('Legal name').fill('Acme Analytics LLC');
    await page.getByLabel('Tax ID (e.g. EIN)').fill('12-3456789');
    await page.getByLabel('Street address').fill('1 Main St');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('Postal code').fill('62701');
    await page.getByLabel('Country (2 letters, e.g. US)').fill('US');
    await page.getByRole('button', { name: 'Submit business details' }).click();
    await notice(page, 'kyb').waitFor();
    await page.getByLabel('I accept the Allowance terms of service (version 2026-01)').check();
    await page.getByRole('button', { name: 'Accept the terms' }).click();
    await notice(page, 'terms').waitFor();
    await page.getByLabel(/^Card number/).fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Add billing method' }).click();
    await notice(page, 'billing').waitFor();
    await expect(page.locator('li[data-missing]').count()).resolves.toBe(0);
    await checkPage(page, seen);

    await page.getByRole('button', { name: 'Go live', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/verify');
    await checkPage(page, seen);
    expect(ok(await service.call('GET', '/v1/activation/status', { key: org.key })).productionActivated).toBe(false);
    expect(await stepUp(page, session.totpSecret)).toBe(true);
    await page.getByRole('button', { name: 'Go live', exact: true }).click();
    await notice(page, 'live').waitFor();
    await checkPage(page, seen);
    expect(ok(await service.call('GET', '/v1/activation/status', { key: org.key }))).toMatchObject({
      productionActivated: true,
      kybVerified: true,
      tosAccepted: true,
      billingMethodAdded: true,
    });
    await context.close();
  });

  it('shows a failed delivery when the receiver answers 500, and Resend delivers it once the receiver answers 200', async () => {
    let failing = true;
    const receiver = await startReceiver(() => (failing ? 500 : 200));
    try {
      const { session, context, page, seen } = await signedIn();
      await page.goto(`${service.baseUrl}/dashboard/webhooks`);
      await page.getByRole('link', { name: 'Register a webhook' }).click();
      await stepUp(page, session.totpSecret);
      await page.getByLabel(/^Endpoint URL/).fill(receiver.url('/hooks'));
      await page.getByLabel('All events').check();
      await page.getByRole('button', { name: 'Register webhook' }).click();
      expect(await page.locator('#created-secret').inputValue()).toMatch(/^whsec_/);
      await checkPage(page, seen);
      await page.getByRole('link', { name: 'Done: open the webhook' }).click();
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await notice(page, 'test').waitFor();
      const failed = page.locator('tr[data-delivery-id][data-outcome="RETRYING"]');
      await eventually(async () => {
        await page.reload();
        expect(await failed.count()).toBeGreaterThan(0);
      }, 15_000);
      await expect(failed.first().locator('td', { hasText: /^500$/ }).count()).resolves.toBe(1);
      await checkPage(page, seen);

      failing = false;
      await failed
        .first()
        .getByRole('button', { name: /^Resend/ })
        .click();
      await notice(page, 'resent').waitFor();
      await eventually(async () => {
        await page.reload();
        expect(await page.locator('tr[data-delivery-id][data-outcome="SUCCEEDED"]').count()).toBeGreaterThan(0);
      }, 15_000);
      expect(receiver.at('/hooks').length).toBeGreaterThanOrEqual(2);
      await context.close();
    } finally {
      await receiver.close();
    }
  });

  it('creates an API key (raw key once, after the second factor) and revokes it: the key then answers 401 API_KEY_REVOKED', async () => {
    const { session, context, page, seen } = await signedIn();
    await page.goto(`${service.baseUrl}/dashboard/api-keys`);
    await checkPage(page, seen);
    await page.getByRole('link', { name: 'Create an API key' }).click();
    await stepUp(page, session.totpSecret);
    await page.getByLabel('Name').fill('Reporting job');
    await page.locator('input[name="permission.wallets:read"]').check();
    await checkPage(page, seen);
    await page.getByRole('button', { name: 'Create key' }).click();
    const raw = await page.locator('#created-secret').inputValue();
    await checkPage(page, seen);
    expect(ok(await service.call('GET', '/v1/wallets', { key: raw })).data).toBeDefined();

    await page.goto(`${service.baseUrl}/dashboard/api-keys`);
    const keyRow = page.locator('tr[data-key-id]', { hasText: 'Reporting job' });
    await keyRow.getByRole('link', { name: /^Revoke/ }).click();
    await checkPage(page, seen);
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await notice(page, 'revoked').waitFor();
    const refused = await service.call('GET', '/v1/wallets', { key: raw });
    expect({ status: refused.status, code: refused.body?.error?.code }).toEqual({
      status: 401,
      code: 'API_KEY_REVOKED',
    });
    await context.close();
  });

  it('filters the audit log by action (the filters in the URL) and downloads the same entries as CSV', async () => {
    const { org, context, page, seen } = await signedIn();
    const agent = await world.governedAgent(org);
    await world.heldPayment(agent, '30.00', 'Audited');
    await service.projected();
    await page.goto(`${service.baseUrl}/dashboard/audit`);
    await checkPage(page, seen);
    await page.getByLabel('Action').selectOption('policy.create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/action=policy\.create/);
    const rows = page.locator('tr[data-audit-id]');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('policy.create');
    await checkPage(page, seen);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV of these filters' }).click(),
    ]);
    const csv = (await streamText(await download.createReadStream())).trim().split(/\r?\n/);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('policy.create');
    await context.close();
  });
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
