import { describe, expect, it } from 'vitest';
import { DASHBOARD_PATHS } from '../../shared/dashboard/paths.js';
import { WORK_SCRIPT } from '../../shared/dashboard/scripts/work.js';
import { approvalOf, htmlOf, OTHER_USER, serve, workWorld } from '../fixtures/work-pages.js';

const ONE = 'apr_one00000000000000001';
const TWO = 'apr_two00000000000000001';
const MINE = 'apr_mine0000000000000001';
const DONE = 'apr_done0000000000000001';

const pendingRows = (html: string) => [...html.matchAll(/<tr data-approval-id="([^"]+)"/g)].map((m) => m[1]);

describe('approvals inbox: pending tab', () => {
  it('lists the pending approvals with the fields of the inbox, escaped', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.approvals }));
    expect(pendingRows(html)).toEqual([ONE, TWO, MINE]);
    expect(html).toContain('150.00 USD');
    expect(html).toContain('Research &lt;Agent&gt;');
    expect(html).toContain('merchant:tools.example');
    expect(html).toContain('Above the approval threshold');
    expect(html).toContain('Every payment needs approval');
    expect(html).toContain('2026-11-30 10:00 UTC');
    expect(html).toContain('520.50 USD'); // the total waiting
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain(`data-approvals-poll="${DASHBOARD_PATHS.approvalsPoll}"`);
  });

  it('offers bulk approve to a role that decides, never for the payment the user requested', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.approvals, role: 'approver' }));
    expect(html).toContain(`action="${DASHBOARD_PATHS.bulkApprove}"`);
    expect(html).toContain(`name="select:${ONE}"`);
    expect(html).toContain(`name="select:${TWO}"`);
    expect(html).not.toContain(`name="select:${MINE}"`);
    expect(html).toContain('You requested it');
    expect(html).toContain('<dialog data-bulk-dialog');
    expect(html).toContain('>Approve selected</button>');
  });

  it('shows a viewer the list without any decision control', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.approvals, role: 'viewer' }));
    expect(pendingRows(html)).toEqual([ONE, TWO, MINE]);
    expect(html).not.toContain('<form method="post" action="/dashboard/approvals');
    expect(html).not.toContain('type="checkbox"');
    expect(html).toContain('can see approvals but not decide them');
  });

  it('shows the decided tab with who, when and the note', async () => {
    const html = htmlOf(
      await serve(workWorld(), { path: DASHBOARD_PATHS.approvals, query: { tab: 'decided' }, role: 'viewer' }),
    );
    expect(pendingRows(html)).toEqual([DONE]);
    expect(html).toContain(OTHER_USER);
    expect(html).toContain('fine &lt;b&gt;by me&lt;/b&gt;');
    expect(html).toContain('data-status="APPROVED"');
  });
});

describe('approvals inbox: poll', () => {
  it('answers the rows with an ETag, then 304 while nothing changed, then the new row', async () => {
    const world = workWorld();
    const first = await serve(world, { path: DASHBOARD_PATHS.approvalsPoll });
    expect(first.status).toBe(200);
    const etag = 'headers' in first ? first.headers?.ETag : undefined;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = JSON.parse((first as { body: string }).body) as {
      count: number;
      total: string;
      rows: { id: string; html: string }[];
    };
    expect(body.count).toBe(3);
    expect(body.total).toBe('520.50 USD');
    expect(body.rows[0]!.html).toMatch(/^<tr data-approval-id="apr_one/);

    const same = await serve(world, { path: DASHBOARD_PATHS.approvalsPoll, headers: { 'if-none-match': etag! } });
    expect(same.status).toBe(304);

    world.approvals.unshift(approvalOf('apr_new00000000000000001', '10.00'));
    const changed = await serve(world, { path: DASHBOARD_PATHS.approvalsPoll, headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(JSON.parse((changed as { body: string }).body).rows[0].id).toBe('apr_new00000000000000001');
  });

  it('the script polls every 10-15 s only while visible, with If-None-Match, announcing without moving focus', () => {
    const ms = Number(/setTimeout\(poll, (\d+)\)/.exec(WORK_SCRIPT)?.[1]);
    expect(ms).toBeGreaterThanOrEqual(10_000);
    expect(ms).toBeLessThanOrEqual(15_000);
    expect(WORK_SCRIPT).toContain("document.visibilityState !== 'visible'");
    expect(WORK_SCRIPT).toContain("'If-None-Match': etag");
    expect(WORK_SCRIPT).not.toContain('.focus(');
    expect(() => new Function(WORK_SCRIPT)).not.toThrow();
  });
});

describe('approval detail and decisions', () => {
  it('shows the payment, the wallet, today and the audit trail, with approve and reject forms', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.approval(ONE) }));
    expect(html).toContain('150.00 USD to wal_payee000000000000001');
    expect(html).toContain('80.00 USD'); // the agent's available balance
    expect(html).toContain('1000.00 USD'); // its daily limit
    expect(html).toContain('name="note"');
    expect(html).toContain('name="reason"');
    expect(html).toContain('>Approve 150.00 USD</button>');
  });

  it('approves with a note: 303 to the inbox with a notice, the note passed on', async () => {
    const world = workWorld();
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.approval(ONE),
      form: { decision: 'approve', note: 'ok for March' },
    });
    expect(answer).toEqual({ status: 303, location: `${DASHBOARD_PATHS.approvals}?done=approved` });
    expect(world.calls.find((c) => c.operation === 'approveApproval')?.input.body).toEqual({ note: 'ok for March' });
    const inbox = htmlOf(await serve(world, { path: DASHBOARD_PATHS.approvals, query: { done: 'approved' } }));
    expect(inbox).toContain('Approved: the payment posted.');
    expect(pendingRows(inbox)).toEqual([TWO, MINE]);
  });

  it('rejects with a reason', async () => {
    const world = workWorld();
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.approval(TWO),
      form: { decision: 'reject', reason: 'not this vendor' },
    });
    expect(answer).toEqual({ status: 303, location: `${DASHBOARD_PATHS.approvals}?done=rejected` });
    expect(world.approvals.find((a) => a.id === TWO)).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'not this vendor',
    });
  });

  it('a decision of an approval decided meanwhile is a notice on the approval, not an error', async () => {
    const world = workWorld();
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.approval(DONE),
      form: { decision: 'approve' },
    });
    expect(answer).toEqual({ status: 303, location: `${DASHBOARD_PATHS.approval(DONE)}?done=already-decided` });
    const html = htmlOf(
      await serve(world, { path: DASHBOARD_PATHS.approval(DONE), query: { done: 'already-decided' } }),
    );
    expect(html).toContain('role="status"');
    expect(html).toContain('already decided');
    expect(html).not.toContain('role="alert"');
  });

  it('an approval that could not post goes back to it with its failure code', async () => {
    const world = workWorld();
    world.approveOutcome.set(ONE, { failureCode: 'INSUFFICIENT_FUNDS' });
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.approval(ONE),
      form: { decision: 'approve' },
    });
    expect(answer).toEqual({ status: 303, location: `${DASHBOARD_PATHS.approval(ONE)}?done=failed` });
    const html = htmlOf(await serve(world, { path: DASHBOARD_PATHS.approval(ONE), query: { done: 'failed' } }));
    expect(html).toContain('INSUFFICIENT_FUNDS');
  });

  it('separation of duties: the payment the user requested shows no decision form', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.approval(MINE) }));
    expect(html).toContain('data-separation-of-duties');
    expect(html).not.toContain('name="decision"');
  });

  it("a viewer's forged POST gets the operation's 403 as an alert, and nothing changes", async () => {
    const world = workWorld();
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.approval(ONE),
      form: { decision: 'approve' },
      role: 'viewer',
    });
    expect(answer.status).toBe(403);
    const html = htmlOf(answer);
    expect(html).toContain('role="alert"');
    expect(html).toContain('PERMISSION_DENIED');
    expect(world.approvals.find((a) => a.id === ONE)?.status).toBe('PENDING');
  });
});

describe('bulk approve', () => {
  const select = (...ids: string[]) => Object.fromEntries(ids.map((id) => [`select:${id}`, '1']));

  it('asks to confirm the count and the total first (without JavaScript)', async () => {
    const world = workWorld();
    const html = htmlOf(
      await serve(world, { method: 'POST', path: DASHBOARD_PATHS.bulkApprove, form: select(ONE, TWO) }),
    );
    expect(html).toContain('data-bulk-count="2"');
    expect(html).toContain('data-bulk-total="400.50"');
    expect(html).toContain('Approve 2 payments (400.50 USD)');
    expect(html).toContain('name="confirm" value="yes"');
    expect(world.calls.some((c) => c.operation === 'approveApproval')).toBe(false);
  });

  it('approves each, with a result per row: APPROVED, FAILED with its code, already decided, yours', async () => {
    const world = workWorld();
    world.approveOutcome.set(TWO, { failureCode: 'INSUFFICIENT_FUNDS' });
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.bulkApprove,
      form: { ...select(ONE, TWO, DONE, MINE), confirm: 'yes', note: 'batch' },
    });
    const html = htmlOf(answer);
    expect(answer.status).toBe(200);
    expect(html).toContain(`data-approval-id="${ONE}" data-result="APPROVED"`);
    expect(html).toContain(`data-approval-id="${TWO}" data-result="FAILED"`);
    expect(html).toContain('INSUFFICIENT_FUNDS');
    expect(html).toContain(`data-approval-id="${DONE}" data-result="INVALID_STATE"`);
    expect(html).toContain(`data-approval-id="${MINE}" data-result="PERMISSION_DENIED"`);
    expect(html).toContain('1 of 4 approved (150.00 USD posted)');
    expect(world.approvals.find((a) => a.id === ONE)?.note).toBe('batch');
  });

  it('refuses more than 25 at once, and none', async () => {
    const ids = Array.from({ length: 26 }, (_, i) => `apr_many${String(i).padStart(16, '0')}`);
    const many = await serve(workWorld(), { method: 'POST', path: DASHBOARD_PATHS.bulkApprove, form: select(...ids) });
    expect(many.status).toBe(400);
    expect(htmlOf(many)).toContain('at most 25');
    const none = await serve(workWorld(), { method: 'POST', path: DASHBOARD_PATHS.bulkApprove, form: {} });
    expect(none.status).toBe(400);
  });
});
