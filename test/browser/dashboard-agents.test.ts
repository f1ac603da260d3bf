import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../fixtures/chromium.js';
import { checkPage, signedInContext, stepUp } from '../fixtures/dashboard-browser.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { dashboardWorld } from '../fixtures/dashboard-world.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { watchConsole } from '../fixtures/page-checks.js';

describe('dashboard in a browser: overview, agents and wallets', () => {
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

  /** An owner of a new organization, signed in (the second factor just proven, as after a real sign-in). */
  async function signedIn(options: { javaScriptEnabled?: boolean } = {}) {
    const org = await service.createOrganization('Acme Analytics');
    const session = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    const context = await signedInContext(browser, service.baseUrl, session, {
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    const page = await context.newPage();
    return { org, session, context, page, seen: watchConsole(page) };
  }

  const paymentOf = (agent: { id: string; apiKey: string; vendor: string }, key = agent.apiKey) =>
    service.call('POST', '/v1/payments', {
      key,
      body: { from: agent.id, to: agent.vendor, amount: '5.00', description: 'Small purchase' },
    });
  const codeOf = (response: { status: number; body: any }) => ({
    status: response.status,
    code: response.body?.error?.code,
  });
  const agentPage = (page: Page, id: string) => page.goto(`${service.baseUrl}/dashboard/agents/${id}`);

  it('shows the overview, the agents and the wallets; pausing an agent makes its next payment 403 WALLET_FROZEN, resuming lets it pay', async () => {
    const { org, context, page, seen } = await signedIn();
    const agent = await world.governedAgent(org, { name: 'Research agent' });
    await world.heldPayment(agent, '30.00', 'Dataset licence');
    await page.goto(`${service.baseUrl}/dashboard`);
    await expect(page.locator('[data-overview="approvals"]').textContent()).resolves.toContain('30.00');
    await checkPage(page, seen);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Agents' }).click();
    await expect(page.locator(`tr[data-agent-id="${agent.id}"]`).count()).resolves.toBe(1);
    await checkPage(page, seen);
    await page
      .locator(`tr[data-agent-id="${agent.id}"]`)
      .getByRole('link', { name: /Research agent/ })
      .click();
    await checkPage(page, seen);

    await page.getByRole('button', { name: 'Pause agent' }).click();
    await page.locator('[data-notice="paused"]').waitFor();
    expect(codeOf(await paymentOf(agent))).toEqual({ status: 403, code: 'WALLET_FROZEN' });
    await checkPage(page, seen);
    await page.getByRole('button', { name: 'Resume agent' }).click();
    await page.locator('[data-notice="resumed"]').waitFor();
    expect((await paymentOf(agent)).status).toBe(200);

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Wallets' }).click();
    await checkPage(page, seen);
    await page.locator(`tr[data-wallet-id="${agent.id}"] a`).first().click();
    await expect(page.locator('tr[data-transaction-id]').count()).resolves.toBeGreaterThan(0);
    await context.close();
  });

  it('rotates a key: the new key is shown once and works, the old one answers 401 API_KEY_REVOKED', async () => {
    const { org, session, context, page, seen } = await signedIn();
    const agent = await world.governedAgent(org);
    await agentPage(page, agent.id);
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await stepUp(page, session.totpSecret);
    const raw = await page.locator('#created-secret').inputValue();
    await checkPage(page, seen);
    expect(raw).not.toBe(agent.apiKey);
    expect(codeOf(await paymentOf(agent))).toEqual({ status: 401, code: 'API_KEY_REVOKED' });
    expect((await paymentOf(agent, raw)).status).toBe(200);
    // Shown once: the agent's page never shows it again.
    await agentPage(page, agent.id);
    await expect(page.content()).resolves.not.toContain(raw);
    await context.close();
  });

  it('creates an agent from a template and pauses one with JavaScript disabled', async () => {
    const { org, context, page } = await signedIn({ javaScriptEnabled: false });
    await page.goto(`${service.baseUrl}/dashboard/agents`);
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByLabel('Name').fill('Travel booker');
    await page.getByLabel(/^Research Agent/).check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    const raw = await page.locator('#created-secret').inputValue();
    const agents = (await service.call('GET', '/v1/agents?limit=100', { key: org.key })).body.data as {
      id: string;
      name: string;
    }[];
    const created = agents.find((agent) => agent.name === 'Travel booker')!;
    expect(created).toBeDefined();
    expect((await service.call('GET', `/v1/wallets/${created.id}/balance`, { key: raw })).status).toBe(200);

    await agentPage(page, created.id);
    await page.getByRole('button', { name: 'Pause agent' }).click();
    await page.locator('[data-notice="paused"]').waitFor();
    expect((await service.call('GET', `/v1/agents/${created.id}`, { key: org.key })).body.status).toBe('FROZEN');
    await context.close();
  });
});
