import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ENV } from '../../shared/config/env-names.js';
import { launchChromium } from '../fixtures/chromium.js';
import { checkPage, signedInContext, stepUp } from '../fixtures/dashboard-browser.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { dashboardWorld, ok } from '../fixtures/dashboard-world.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { watchConsole } from '../fixtures/page-checks.js';

describe('dashboard in a browser: activation, API keys, webhooks, audit log', () => {
  const { service } = setupE2e({
    host: 'localhost',
    env: {
      ...DASHBOARD_ENV,
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

  async function signedIn(options: { javaScriptEnabled?: boolean } = {}) {
    const org = await service.createOrganization('Acme Analytics');
    const session = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    const context = await signedInContext(browser, service.baseUrl, session, options);
    const page = await context.newPage();
    return { org, session, context, page, seen: watchConsole(page) };
  }

  const notice = (page: Page, name: string) => page.locator(`[data-notice="${name}"]`);

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
