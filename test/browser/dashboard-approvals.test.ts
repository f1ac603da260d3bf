import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../fixtures/chromium.js';
import { attributesOf, checkPage, signedInContext } from '../fixtures/dashboard-browser.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { dashboardWorld } from '../fixtures/dashboard-world.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { watchConsole } from '../fixtures/page-checks.js';

/** The inbox polls every 12 s: a new row shows within one interval and the time to fetch it. */
const POLL_WAIT_MS = 20_000;

describe('dashboard in a browser: the approvals inbox', () => {
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

  /** A new organization and one of its people signed in with `role`, in a fresh context. */
  async function signedIn(role: 'owner' | 'approver' = 'approver', options: { javaScriptEnabled?: boolean } = {}) {
    const org = await service.createOrganization('Acme Analytics');
    const session = await signInAs(service, { organizationId: org.organizationId, role });
    const context = await signedInContext(browser, service.baseUrl, session, options);
    const page = await context.newPage();
    return { org, session, context, page, seen: watchConsole(page) };
  }

  const row = (page: Page, approvalId: string) => page.locator(`tr[data-approval-id="${approvalId}"]`);

  it("shows an agent's payment over the threshold in the open inbox within a poll interval, without a reload, and approves it there", async () => {
    const { org, session, context, page, seen } = await signedIn();
    const agent = await world.governedAgent(org, { name: 'Research agent', threshold: '25.00' });
    await page.goto(`${service.baseUrl}/dashboard/approvals`);
    await expect(page.locator('[data-empty]').isVisible()).resolves.toBe(true);
    await checkPage(page, seen);
    await page.evaluate('window.sameDocument = "yes"');

    const held = await world.heldPayment(agent, '40.00', 'Dataset licence');
    await row(page, held.approvalId).waitFor({ timeout: POLL_WAIT_MS });
    await expect(page.evaluate('window.sameDocument')).resolves.toBe('yes');
    await expect(row(page, held.approvalId).getAttribute('data-new')).resolves.toBe('true');
    await expect(page.locator('#approvals-live').textContent()).resolves.toContain('1 new approval is waiting.');
    await expect(page.locator('[data-pending-total]').textContent()).resolves.toContain('40.00');
    await checkPage(page, seen);

    await row(page, held.approvalId)
      .getByRole('link', { name: /^Review/ })
      .click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Approval');
    await checkPage(page, seen);
    await page.getByLabel('Note (optional)').fill('Licence renewal, agreed');
    await page.getByRole('button', { name: /^Approve / }).click();
    await page.waitForURL(/\/dashboard\/approvals\?done=approved$/);
    await expect(page.locator('[data-notice="approved"]').count()).resolves.toBe(1);

    const approval = await world.approval(org, held.approvalId);
    expect(approval).toMatchObject({ status: 'APPROVED', decidedBy: session.userId });
    expect(session.userId).toMatch(/^usr_/);
    expect((await world.payment(org, held.transactionId)).status).toBe('POSTED');
    const audit = (await world.auditEntries(org, 'approval.approved')).filter(
      (entry) => entry.resourceId === held.approvalId,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'USER', actorId: session.userId });

    await page.goto(`${service.baseUrl}/dashboard/approvals?tab=decided`);
    await expect(row(page, held.approvalId).textContent()).resolves.toContain('You');
    await checkPage(page, seen);
    await context.close();
  }, 120_000);

  it('says a second tab approving the same approval that it was already decided, and moves nothing twice', async () => {
    const { org, context, page, seen } = await signedIn();
    const agent = await world.governedAgent(org);
    const held = await world.heldPayment(agent, '30.00', 'Cloud credits');
    const other = await context.newPage();
    for (const tab of [page, other]) await tab.goto(`${service.baseUrl}/dashboard/approvals/${held.approvalId}`);

    await page.getByRole('button', { name: /^Approve / }).click();
    await page.waitForURL(/done=approved/);
    await other.getByRole('button', { name: /^Approve / }).click();
    await other.waitForURL(/done=already-decided/);
    await expect(other.locator('[data-notice="already-decided"]').textContent()).resolves.toContain('already decided');
    await checkPage(other, seen);
    expect((await world.approval(org, held.approvalId)).status).toBe('APPROVED');
    expect(await world.balance(org, agent.id)).toBe('70.00000000');
    await context.close();
  });

  it('approves three in bulk with one short of funds: two APPROVED, one FAILED with its code on its row', async () => {
    const { org, context, page, seen } = await signedIn();
    const agent = await world.governedAgent(org, { budget: '100.00' });
    const held = [];
    for (const description of ['Survey panel', 'Transcription', 'Map tiles'])
      held.push(await world.heldPayment(agent, '40.00', description));
    await page.goto(`${service.baseUrl}/dashboard/approvals`);
    for (const { approvalId } of held) await row(page, approvalId).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    const dialog = page.locator('dialog[data-bulk-dialog]');
    await expect(dialog.locator('[data-bulk-summary]').textContent()).resolves.toBe(
      'Approve 3 payments, 120.00 USD in total?',
    );
    await checkPage(page, seen);
    await dialog.locator('[data-bulk-confirm]').click();
    const results = page.locator('#bulk-results tbody tr');
    await results.first().waitFor();
    const outcomes = await attributesOf(results, 'data-result');
    expect(outcomes.sort()).toEqual(['APPROVED', 'APPROVED', 'FAILED']);
    await expect(page.locator('#bulk-results tr[data-result="FAILED"]').textContent()).resolves.toContain(
      'INSUFFICIENT_FUNDS',
    );
    await checkPage(page, seen);
    const statuses = await Promise.all(
      held.map(async ({ approvalId }) => (await world.approval(org, approvalId)).status),
    );
    expect(statuses.sort()).toEqual(['APPROVED', 'APPROVED', 'FAILED']);
    expect(await world.balance(org, agent.id)).toBe('20.00000000');
    await context.close();
  });

  it('approves with JavaScript disabled: from the detail page, and in bulk through the confirm page', async () => {
    const { org, context, page } = await signedIn('approver', { javaScriptEnabled: false });
    const agent = await world.governedAgent(org, { budget: '200.00' });
    const single = await world.heldPayment(agent, '30.00', 'Translation');
    await page.goto(`${service.baseUrl}/dashboard/approvals/${single.approvalId}`);
    await page.getByRole('button', { name: /^Approve / }).click();
    await page.waitForURL(/done=approved/);
    expect((await world.approval(org, single.approvalId)).status).toBe('APPROVED');

    const bulk = [await world.heldPayment(agent, '26.00', 'Fonts'), await world.heldPayment(agent, '27.50', 'Icons')];
    await page.goto(`${service.baseUrl}/dashboard/approvals`);
    for (const { approvalId } of bulk) await row(page, approvalId).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await page.getByRole('button', { name: 'Approve 2 payments (53.50 USD)' }).click();
    await expect(page.locator('#bulk-results tr[data-result="APPROVED"]').count()).resolves.toBe(2);
    for (const { approvalId } of bulk) expect((await world.approval(org, approvalId)).status).toBe('APPROVED');
    await context.close();
  });

  it('changes nothing on a POST without the CSRF token, nor on a form posted from another origin', async () => {
    const { org, session, context, page } = await signedIn();
    const agent = await world.governedAgent(org);
    const held = await world.heldPayment(agent, '30.00', 'Forged');
    const target = `${service.baseUrl}/dashboard/approvals/${held.approvalId}`;

    // The browser's own cookie, no token.
    const untokened = await context.request.post(target, { form: { decision: 'approve' }, maxRedirects: 0 });
    expect(untokened.status()).toBe(403);
    // The token too (the worst case), sent by a page of another origin.
    const forged = await context.request.post(target, {
      form: { decision: 'approve', _csrf: session.csrfToken },
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    // A real cross-site form in the browser: another origin's page posts to the dashboard.
    const evil = await forgeryPage(target, session.csrfToken);
    try {
      await page.goto(evil.url);
      await page.getByRole('button', { name: 'Claim your prize' }).click();
      await page.waitForLoadState('load');
    } finally {
      await evil.close();
    }
    expect((await world.approval(org, held.approvalId)).status).toBe('PENDING');
    await context.close();
  });
});

/** A page on another origin (127.0.0.1, another port) with a form that posts to the dashboard. */
async function forgeryPage(target: string, csrfToken: string) {
  const html = `<!doctype html><html lang="en"><title>Prize</title><form method="post" action="${target}">
<input type="hidden" name="decision" value="approve"><input type="hidden" name="_csrf" value="${csrfToken}">
<button type="submit">Claim your prize</button></form></html>`;
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
