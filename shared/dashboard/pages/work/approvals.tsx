import type { ApprovalView } from '../../../domain/approvals/approval-view.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import {
  DecidedHead,
  DecidedRow,
  INBOX_PAGE_SIZE,
  MAX_BULK_APPROVALS,
  PendingHead,
  PendingRow,
  inboxTag,
  rowContextOf,
  type Page,
  type RowContext,
} from './approval-rows.js';
import { Alert, attempt, money, Notice, queryText, sumOf, Table } from './parts.js';

/** The approvals inbox: pending (to decide, with bulk approve) and decided tabs. */

export const INBOX_NOTICES: Readonly<Record<string, string>> = {
  approved: 'Approved: the payment posted.',
  rejected: 'Rejected: nothing moved.',
};

type Tab = 'pending' | 'decided';

/** The pending approvals (newest first), one page. */
export const pendingPage = (request: DashboardRequest, cursor?: string) =>
  attempt<Page<ApprovalView>>(request, 'listApprovals', {
    query: { status: 'PENDING', limit: String(INBOX_PAGE_SIZE), ...(cursor ? { cursor } : {}) },
  });

export async function approvalsInbox(request: DashboardRequest): Promise<DashboardAnswer> {
  const tab: Tab = request.query.tab === 'decided' ? 'decided' : 'pending';
  const cursor = queryText(request, 'cursor', 4096);
  const [page, context] = await Promise.all([
    tab === 'pending'
      ? pendingPage(request, cursor)
      : attempt<Page<ApprovalView>>(request, 'listApprovals', {
          query: { limit: String(INBOX_PAGE_SIZE), ...(cursor ? { cursor } : {}) },
        }),
    rowContextOf(request),
  ]);
  const done = INBOX_NOTICES[request.query.done ?? ''];
  const approvals = page.ok ? page.value.data.filter((a) => (tab === 'pending') === (a.status === 'PENDING')) : [];
  return dashboardPage(
    page.ok ? 200 : page.error.status,
    <DashboardLayout session={request.session} title="Approvals" current={DASHBOARD_PATHS.approvals}>
      <ul class="tabs">
        <li>
          <a href={DASHBOARD_PATHS.approvals} aria-current={tab === 'pending' ? 'page' : undefined}>
            Pending
          </a>
        </li>
        <li>
          <a href={DASHBOARD_PATHS.decidedApprovals} aria-current={tab === 'decided' ? 'page' : undefined}>
            Decided
          </a>
        </li>
      </ul>
      <Notice text={done} kind={request.query.done} />
      {page.ok ? null : <Alert error={page.error} />}
      {tab === 'pending' ? (
        <PendingTab request={request} approvals={approvals} context={context} />
      ) : (
        <DecidedTab approvals={approvals} context={context} userId={request.session.userId} />
      )}
      {page.ok && page.value.hasMore && page.value.cursor ? (
        <p>
          <a
            href={`${DASHBOARD_PATHS.approvals}?${new URLSearchParams({ tab, cursor: page.value.cursor }).toString()}`}
          >
            Older approvals
          </a>
        </p>
      ) : null}
    </DashboardLayout>,
  );
}

function PendingTab(props: { request: DashboardRequest; approvals: ApprovalView[]; context: RowContext }) {
  const { approvals, context, request } = props;
  const table = (
    <Table caption={`Waiting for a decision: ${approvals.length}`} id="pending-approvals">
      <PendingHead canDecide={context.canDecide} />
      <tbody data-approval-rows="pending">
        {approvals.map((approval) => (
          <PendingRow approval={approval} context={context} />
        ))}
      </tbody>
    </Table>
  );
  return (
    <section
      aria-labelledby="pending-heading"
      data-approvals-poll={DASHBOARD_PATHS.approvalsPoll}
      data-etag={inboxTag(approvals)}
    >
      <h2 id="pending-heading">Pending approvals</h2>
      <p class="hint">
        Total waiting: <span data-pending-total>{money(sumOf(approvals.map((a) => a.payment.amount)))}</span>. The list
        refreshes by itself while this tab is open.
        {context.canDecide
          ? ' You can not decide a payment you requested yourself: another person must (separation of duties).'
          : ' Your role can see approvals but not decide them.'}
      </p>
      <div id="approvals-live" class="visually-hidden" role="status" aria-live="polite" data-approvals-live></div>
      {approvals.length === 0 ? <p data-empty>Nothing is waiting for a decision.</p> : null}
      {context.canDecide ? (
        <form method="post" action={DASHBOARD_PATHS.bulkApprove} data-bulk-approve data-max={MAX_BULK_APPROVALS}>
          <CsrfField session={request.session} />
          {table}
          <div class="field">
            <label for="bulk-note">Note for every approval (optional)</label>
            <input id="bulk-note" name="note" maxlength={1024} />
          </div>
          <div class="actions">
            <button type="submit">Approve selected</button>
          </div>
          <p class="hint">At most {MAX_BULK_APPROVALS} at once; you confirm the count and the total next.</p>
          <dialog data-bulk-dialog aria-labelledby="bulk-dialog-heading">
            <h2 id="bulk-dialog-heading">Approve these payments?</h2>
            <p data-bulk-summary></p>
            <div class="actions">
              <button type="button" data-bulk-confirm>
                Approve them
              </button>
              <button type="button" class="secondary" data-bulk-cancel>
                Cancel
              </button>
            </div>
          </dialog>
        </form>
      ) : (
        table
      )}
    </section>
  );
}

function DecidedTab(props: { approvals: ApprovalView[]; context: RowContext; userId: string }) {
  return (
    <section aria-labelledby="decided-heading">
      <h2 id="decided-heading">Decided approvals</h2>
      {props.approvals.length === 0 ? <p data-empty>No decided approvals on this page.</p> : null}
      <Table caption="Decided approvals, newest first" id="decided-approvals">
        <DecidedHead />
        <tbody>
          {props.approvals.map((approval) => (
            <DecidedRow approval={approval} context={props.context} userId={props.userId} />
          ))}
        </tbody>
      </Table>
    </section>
  );
}

/**
 * The inbox's poll (the script asks every 12 s while the tab is visible): 304 when the pending list
 * has the ETag the script holds; else the rows as HTML fragments (rendered as the page renders them)
 * with the new ETag, the count and the total.
 */
export async function approvalsPoll(request: DashboardRequest): Promise<DashboardAnswer> {
  const page = await pendingPage(request);
  if (!page.ok)
    return {
      status: page.error.status,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ error: { code: page.error.code } }),
    };
  const approvals = page.value.data;
  const etag = inboxTag(approvals);
  const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
  if (request.header('if-none-match') === etag) return { status: 304, body: '', contentType: 'text/plain', headers };
  const context = await rowContextOf(request);
  const body = {
    count: approvals.length,
    total: money(sumOf(approvals.map((a) => a.payment.amount))),
    rows: approvals.map((approval) => ({
      id: approval.id,
      html: String(<PendingRow approval={approval} context={context} />),
    })),
  };
  return { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body), headers };
}
