import { describe, expect, it } from 'vitest';
import { DASHBOARD_PATHS } from '../../shared/dashboard/paths.js';
import type { UserRole } from '../../shared/domain/users/types.js';
import { expectApiError, expectStatus, type AgentOrganization } from '../fixtures/agents-client.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { setupE2e } from '../fixtures/e2e-setup.js';

/**
 * The work pages through the real edge, as a browser without JavaScript would use them: the
 * session cookie, the CSRF field, 303s. The state after each action is read through the API.
 */
describe('dashboard work pages (e2e)', () => {
  const { service, agents: api } = setupE2e({ env: DASHBOARD_ENV });

  type Signed = Awaited<ReturnType<typeof signInAs>>;

  /** A browser of one signed-in user: GET and form POSTs on the service's origin, redirects not followed. */
  function browserOf(user: Signed) {
    let cookie = user.cookie;
    const keep = (response: Response) => {
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0]!;
      return response;
    };
    return {
      user,
      get: async (path: string, headers: Record<string, string> = {}) =>
        keep(await fetch(service.baseUrl + path, { headers: { cookie, ...headers }, redirect: 'manual' })),
      post: async (path: string, fields: Record<string, string>) =>
        keep(
          await fetch(service.baseUrl + path, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              cookie,
              'content-type': 'application/x-www-form-urlencoded',
              origin: service.baseUrl,
              'sec-fetch-site': 'same-origin',
            },
            body: new URLSearchParams({ _csrf: user.csrfToken, ...fields }).toString(),
          }),
        ),
    };
  }
  type Browser = ReturnType<typeof browserOf>;

  async function signedIn(org: AgentOrganization, role: UserRole, verified = true): Promise<Browser> {
    return browserOf(await signInAs(service, { organizationId: org.organizationId, role, verified }));
  }

  /** A procurement agent (every payment waits for approval) with `funds`, and `amounts` queued to a vendor. */
  async function queued(org: AgentOrganization, funds: number, amounts: string[]) {
    const agent = await api.createFromTemplate(org, 'procurement', `Buyer ${Math.random().toString(36).slice(2, 8)}`);
    await api.fundAgent(org, agent.id, funds);
    const vendor = await api.createWallet(org, 'Vendor');
    const approvals: string[] = [];
    for (const amount of amounts) {
      const answer = await api.pay(agent.apiKey, agent.id, vendor, amount, { description: `Order of ${amount}` });
      approvals.push(expectApiError(answer, 202, 'APPROVAL_REQUIRED').details!.approvalId as string);
    }
    return { agent, vendor, approvals };
  }

  const approvalOf = async (org: AgentOrganization, id: string) =>
    expectStatus(await api.call('GET', `/v1/approvals/${id}`, { key: org.key }), 200);

  it('approves with a note (303 to the inbox, the payment posted, decided by the user)', async () => {
    const org = await service.createOrganization();
    const { agent, vendor, approvals } = await queued(org, 100, ['40.00']);
    const approver = await signedIn(org, 'approver');

    const inbox = await approver.get(DASHBOARD_PATHS.approvals);
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain(`data-approval-id="${approvals[0]}"`);

    const answer = await approver.post(DASHBOARD_PATHS.approval(approvals[0]!), { decision: 'approve', note: 'ok' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${DASHBOARD_PATHS.approvals}?done=approved`);
    expect(await approvalOf(org, approvals[0]!)).toMatchObject({
      status: 'APPROVED',
      note: 'ok',
      decidedBy: approver.user.userId,
    });
    expect(await api.balanceOf(org, agent.id)).toBe('60.00000000');
    expect(await api.balanceOf(org, vendor)).toBe('40.00000000');
  });

  it('rejects with a reason; deciding it again is the "already decided" notice', async () => {
    const org = await service.createOrganization();
    const { agent, approvals } = await queued(org, 100, ['30.00']);
    const approver = await signedIn(org, 'approver');
    const path = DASHBOARD_PATHS.approval(approvals[0]!);

    const answer = await approver.post(path, { decision: 'reject', reason: 'not this vendor' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${DASHBOARD_PATHS.approvals}?done=rejected`);
    expect(await approvalOf(org, approvals[0]!)).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'not this vendor',
    });

    const again = await approver.post(path, { decision: 'approve' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`${path}?done=already-decided`);
    const notice = await approver.get(again.headers.get('location')!);
    expect(notice.status).toBe(200);
    const html = await notice.text();
    expect(html).toContain('already decided');
    expect(html).not.toContain('role="alert"');
    expect(await api.balanceOf(org, agent.id)).toBe('100.00000000');
  });

  it('bulk approves with a confirm step; the one the wallet can no longer pay ends FAILED INSUFFICIENT_FUNDS', async () => {
    const org = await service.createOrganization();
    const { agent, approvals } = await queued(org, 100, ['40.00', '40.00', '40.00']);
    const approver = await signedIn(org, 'approver');
    const selected = Object.fromEntries(approvals.map((id) => [`select:${id}`, '1']));

    const confirm = await approver.post(DASHBOARD_PATHS.bulkApprove, selected);
    expect(confirm.status).toBe(200);
    const confirmHtml = await confirm.text();
    expect(confirmHtml).toContain('data-bulk-count="3"');
    expect(confirmHtml).toContain('data-bulk-total="120.00"');
    expect((await approvalOf(org, approvals[0]!)).status).toBe('PENDING');

    const result = await approver.post(DASHBOARD_PATHS.bulkApprove, { ...selected, confirm: 'yes' });
    expect(result.status).toBe(200);
    const html = await result.text();
    expect(html).toContain(`data-approval-id="${approvals[0]}" data-result="APPROVED"`);
    expect(html).toContain(`data-approval-id="${approvals[1]}" data-result="APPROVED"`);
    expect(html).toContain(`data-approval-id="${approvals[2]}" data-result="FAILED"`);
    expect(html).toContain('INSUFFICIENT_FUNDS');
    expect(await approvalOf(org, approvals[2]!)).toMatchObject({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
    expect(await api.balanceOf(org, agent.id)).toBe('20.00000000');
    await api.expectLedgerBalanced();
  });

  it('polls with an ETag: 304 while nothing changed, 200 with the new row after', async () => {
    const org = await service.createOrganization();
    const { agent, vendor } = await queued(org, 100, ['10.00']);
    const approver = await signedIn(org, 'approver');
    const first = await approver.get(DASHBOARD_PATHS.approvalsPoll);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await approver.get(DASHBOARD_PATHS.approvalsPoll, { 'if-none-match': etag })).status).toBe(304);
    await api.pay(agent.apiKey, agent.id, vendor, '11.00');
    const changed = await approver.get(DASHBOARD_PATHS.approvalsPoll, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { count: number }).count).toBe(2);
  });

  it('pausing the agent makes its payments answer WALLET_FROZEN; resuming lets it pay', async () => {
    const org = await service.createOrganization();
    const agent = await api.createFromTemplate(org, 'research', 'Researcher');
    await api.fundAgent(org, agent.id, 50);
    const vendor = await api.createWallet(org, 'Vendor');
    const admin = await signedIn(org, 'admin');

    const pause = await admin.post(DASHBOARD_PATHS.agent(agent.id), { action: 'pause' });
    expect(pause.status).toBe(303);
    expect(pause.headers.get('location')).toBe(`${DASHBOARD_PATHS.agent(agent.id)}?done=paused`);
    expectApiError(await api.pay(agent.apiKey, agent.id, vendor, '5.00'), 403, 'WALLET_FROZEN');

    expect((await admin.post(DASHBOARD_PATHS.agent(agent.id), { action: 'resume' })).status).toBe(303);
    expectStatus(await api.pay(agent.apiKey, agent.id, vendor, '5.00'), 200);
  });

  it('rotates the key only after the second factor again: the new key once, the old one 401 API_KEY_REVOKED', async () => {
    const org = await service.createOrganization();
    const agent = await api.createFromTemplate(org, 'research', 'Rotator');
    const path = DASHBOARD_PATHS.agent(agent.id);

    const unverified = await signedIn(org, 'admin', false);
    const first = await unverified.post(path, { action: 'rotate' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(DASHBOARD_PATHS.verify(path));
    expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: agent.apiKey }), 200);

    const admin = await signedIn(org, 'admin');
    const rotated = await admin.post(path, { action: 'rotate' });
    expect(rotated.status).toBe(200);
    const html = await rotated.text();
    const newKey = /<input id="created-secret"[^>]*value="([^"]+)"/.exec(html)?.[1];
    expect(newKey).toMatch(/^svc_test_/);
    expectApiError(await api.call('GET', `/v1/agents/${agent.id}`, { key: agent.apiKey }), 401, 'API_KEY_REVOKED');
    expectStatus(await api.call('GET', `/v1/agents/${agent.id}`, { key: newKey! }), 200);
    const detail = await (await admin.get(path)).text();
    expect(detail).not.toContain(newKey!);
  });

  it("a viewer's forged approve POST answers 403 and changes nothing", async () => {
    const org = await service.createOrganization();
    const { agent, approvals } = await queued(org, 100, ['25.00']);
    const viewer = await signedIn(org, 'viewer');

    const inbox = await (await viewer.get(DASHBOARD_PATHS.approvals)).text();
    expect(inbox).not.toContain('name="decision"');
    expect(inbox).not.toContain(`name="select:`);

    const forged = await viewer.post(DASHBOARD_PATHS.approval(approvals[0]!), { decision: 'approve' });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('PERMISSION_DENIED');
    const bulk = await viewer.post(DASHBOARD_PATHS.bulkApprove, { [`select:${approvals[0]}`]: '1', confirm: 'yes' });
    expect(await bulk.text()).toContain('data-result="PERMISSION_DENIED"');
    expect((await approvalOf(org, approvals[0]!)).status).toBe('PENDING');
    expect(await api.balanceOf(org, agent.id)).toBe('100.00000000');
  });

  it('renders every work page through the real operations for each role, without an alert', async () => {
    const org = await service.createOrganization();
    const { agent, approvals } = await queued(org, 100, ['12.00']);
    await api.pay(agent.apiKey, agent.id, org.mainWalletId, '1.00');
    const paths = [
      DASHBOARD_PATHS.overview,
      DASHBOARD_PATHS.approvals,
      DASHBOARD_PATHS.decidedApprovals,
      DASHBOARD_PATHS.approval(approvals[0]!),
      DASHBOARD_PATHS.agents,
      `${DASHBOARD_PATHS.agents}?deleted=show`,
      DASHBOARD_PATHS.agent(agent.id),
      DASHBOARD_PATHS.wallets,
      DASHBOARD_PATHS.wallet(org.mainWalletId),
      `${DASHBOARD_PATHS.wallet(agent.id)}?from=2020-01-01&to=2099-12-31`,
    ];
    for (const role of ['owner', 'approver', 'viewer'] as const) {
      const browser = await signedIn(org, role);
      for (const path of paths) {
        const response = await browser.get(path);
        const html = await response.text();
        expect([response.status, /role="alert"[^>]*>[^<]*/.exec(html)?.[0]], `${role} ${path}`).toEqual([
          200,
          undefined,
        ]);
      }
      const csv = await browser.get(DASHBOARD_PATHS.walletStatementCsv(agent.id));
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      expect((await csv.text()).split('\r\n').filter(Boolean).length).toBeGreaterThanOrEqual(2);
    }
  });
});
