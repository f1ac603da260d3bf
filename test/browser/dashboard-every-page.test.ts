import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ENV } from '../../shared/config/env-names.js';
import { launchChromium } from '../fixtures/chromium.js';
import { checkPage, signedInContext } from '../fixtures/dashboard-browser.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { dashboardWorld, ok } from '../fixtures/dashboard-world.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { watchConsole } from '../fixtures/page-checks.js';

/**
 * Every page of the dashboard, as an owner and as the operator's person, with data on it: no axe
 * violation (WCAG 2.2 AA), no CSP violation or script error, no sideways scroll at 390 px
 * (issue 24: "on every page"). The journeys check the pages they act on; this walks the rest too.
 */
describe('dashboard in a browser: every page passes axe, CSP and 390 px', () => {
  const { service } = setupE2e({
    host: 'localhost',
    env: { ...DASHBOARD_ENV, [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex') },
  });
  const world = dashboardWorld(service);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function visitAll(cookie: { cookie: string }, paths: string[], h1s: Record<string, RegExp> = {}) {
    const context = await signedInContext(browser, service.baseUrl, cookie);
    const page = await context.newPage();
    const seen = watchConsole(page);
    for (const path of paths) {
      const response = await page.goto(`${service.baseUrl}${path}`);
      expect(response?.status(), path).toBe(200);
      await expect(page.locator('h1').count(), path).resolves.toBe(1);
      if (h1s[path]) expect(await page.locator('h1').textContent(), path).toMatch(h1s[path]!);
      await checkPage(page, seen);
    }
    await context.close();
  }

  it("an owner's pages: overview, approvals (both tabs, a detail), agents (list, new, detail), wallets (list, detail), activation, API keys (list, new), webhooks (list, new, detail), team, audit log, security", async () => {
    const org = await service.createOrganization('Every Page Inc');
    const owner = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    const agent = await world.governedAgent(org, { name: 'Research agent' });
    const held = await world.heldPayment(agent, '30.00', 'Dataset licence');
    await world.heldPayment(agent, '26.00', 'Survey panel');
    ok(
      await service.call('POST', `/v1/approvals/${held.approvalId}/reject`, {
        key: org.key,
        body: { reason: 'Not now' },
      }),
    );
    const webhook = ok(
      await service.call('POST', '/v1/webhooks', {
        key: org.key,
        body: { url: 'http://127.0.0.1:9/hooks', events: ['payment.posted'] },
      }),
      201,
    ).id as string;
    ok(
      await service.call('POST', '/v1/users', {
        key: org.key,
        body: { email: 'viewer@every.example', role: 'viewer' },
      }),
      201,
    );
    await visitAll(owner, [
      '/dashboard',
      '/dashboard/approvals',
      '/dashboard/approvals?tab=decided',
      `/dashboard/approvals/${held.approvalId}`,
      '/dashboard/agents',
      '/dashboard/agents/new',
      `/dashboard/agents/${agent.id}`,
      '/dashboard/wallets',
      `/dashboard/wallets/${org.mainWalletId}`,
      `/dashboard/wallets/${agent.id}`,
      '/dashboard/activation',
      '/dashboard/api-keys',
      '/dashboard/api-keys/new',
      '/dashboard/webhooks',
      '/dashboard/webhooks/new',
      `/dashboard/webhooks/${webhook}`,
      '/dashboard/team',
      '/dashboard/audit',
      '/dashboard/security',
    ]);
  });

  it("the operator's pages: compliance, KYB decisions, disputes, security", async () => {
    const operator = await signInAs(service, { organizationId: null, role: 'operator' });
    await visitAll(operator, [
      '/dashboard/operator/compliance',
      '/dashboard/operator/kyb',
      '/dashboard/operator/disputes',
      '/dashboard/security',
    ]);
  });
});
