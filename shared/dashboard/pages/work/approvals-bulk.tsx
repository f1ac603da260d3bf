import type { ApprovalView } from '../../../domain/approvals/approval-view.js';
import type { ApiError } from '../../../domain/errors.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import {
  agentNameOf,
  MAX_BULK_APPROVALS,
  payeeOf,
  rowContextOf,
  SELECT_PREFIX,
  type RowContext,
} from './approval-rows.js';
import { Alert, attempt, money, Status, sumOf, Table } from './parts.js';

/**
 * Bulk approve: the inbox's checked rows (at most 25) -> a confirm step with the count and the total
 * (this server page without JavaScript; the inbox's <dialog> with it, which posts `confirm=yes`
 * directly) -> each approved in turn, a result per row (APPROVED, or FAILED with its failureCode,
 * or the refusal: decided meanwhile, requested by you).
 */

const APPROVAL_ID = /^apr_[A-Za-z0-9]{1,64}$/;

export type BulkOutcome =
  | { id: string; result: 'APPROVED' | 'FAILED'; approval: ApprovalView }
  | { id: string; result: 'REFUSED'; error: ApiError };

export async function bulkApprove(request: DashboardRequest): Promise<DashboardAnswer> {
  const form = request.form();
  const ids = [...form.keys()].flatMap((key) =>
    key.startsWith(SELECT_PREFIX) && form.get(key) !== '' ? [key.slice(SELECT_PREFIX.length)] : [],
  );
  const note = (form.get('note') ?? '').trim();
  if (ids.length === 0) return problem(request, 'Select at least one approval to approve (field: select).');
  if (ids.length > MAX_BULK_APPROVALS)
    return problem(request, `Select at most ${MAX_BULK_APPROVALS} approvals at once; you selected ${ids.length}.`);
  if (!ids.every((id) => APPROVAL_ID.test(id))) return problem(request, 'An approval id is not valid (field: select).');
  if (note.length > 1024) return problem(request, 'The note is longer than 1,024 characters (field: note).');
  const context = await rowContextOf(request);
  if (form.get('confirm') !== 'yes') return confirmPage(request, ids, note, context);
  const outcomes: BulkOutcome[] = [];
  // One after the other: approvals of one wallet contend for its balance, and each result is its own.
  for (const id of ids) {
    const answer = await attempt<ApprovalView>(request, 'approveApproval', {
      params: { id },
      body: note ? { note } : {},
    });
    outcomes.push(
      answer.ok
        ? { id, result: answer.value.status === 'APPROVED' ? 'APPROVED' : 'FAILED', approval: answer.value }
        : { id, result: 'REFUSED', error: answer.error },
    );
  }
  return resultsPage(request, outcomes, context);
}

function problem(request: DashboardRequest, text: string): DashboardAnswer {
  return dashboardPage(
    400,
    <DashboardLayout session={request.session} title="Approve selected" current={DASHBOARD_PATHS.approvals}>
      <Alert error={text} />
      <p>
        <a href={DASHBOARD_PATHS.approvals}>Back to the approvals</a>
      </p>
    </DashboardLayout>,
  );
}

async function confirmPage(
  request: DashboardRequest,
  ids: string[],
  note: string,
  context: RowContext,
): Promise<DashboardAnswer> {
  const found = await Promise.all(ids.map((id) => attempt<ApprovalView>(request, 'getApproval', { params: { id } })));
  const pending = found.flatMap((f) => (f.ok && f.value.status === 'PENDING' ? [f.value] : []));
  const gone = ids.length - pending.length;
  const total = money(sumOf(pending.map((a) => a.payment.amount)));
  const count = `${pending.length} payment${pending.length === 1 ? '' : 's'}`;
  return dashboardPage(
    200,
    <DashboardLayout session={request.session} title="Approve selected" current={DASHBOARD_PATHS.approvals}>
      <p data-bulk-count={pending.length} data-bulk-total={sumOf(pending.map((a) => a.payment.amount))}>
        Approve {count}, {total} in total? Each posts at once if its wallet has the funds.
      </p>
      {gone > 0 ? (
        <p class="notice" role="status">
          {gone} of the selected approvals {gone === 1 ? 'is' : 'are'} no longer pending (decided meanwhile) and left
          out.
        </p>
      ) : null}
      <Table caption="The approvals to approve">
        <thead>
          <tr>
            <th scope="col">Amount</th>
            <th scope="col">Agent</th>
            <th scope="col">Payee</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {pending.map((a) => (
            <tr data-approval-id={a.id}>
              <td class="num">{money(a.payment.amount)}</td>
              <td>{agentNameOf(context, a.walletId)}</td>
              <td class="mono">{payeeOf(a)}</td>
              <td>{a.payment.description ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      {pending.length > 0 ? (
        <form method="post" action={DASHBOARD_PATHS.bulkApprove} data-busy-label="Approving…">
          <CsrfField session={request.session} />
          {pending.map((a) => (
            <input type="hidden" name={`${SELECT_PREFIX}${a.id}`} value="1" />
          ))}
          <input type="hidden" name="confirm" value="yes" />
          <div class="field">
            <label for="bulk-note">Note for every approval (optional)</label>
            <input id="bulk-note" name="note" maxlength={1024} value={note} />
          </div>
          <div class="actions">
            <button type="submit">
              Approve {count} ({total})
            </button>
            <a class="button secondary" href={DASHBOARD_PATHS.approvals}>
              Cancel
            </a>
          </div>
        </form>
      ) : (
        <p>
          <a href={DASHBOARD_PATHS.approvals}>Back to the approvals</a>
        </p>
      )}
    </DashboardLayout>,
  );
}

const REFUSAL_TEXT: Partial<Record<string, string>> = {
  INVALID_STATE: 'Already decided (or expired): nothing changed',
  PERMISSION_DENIED: 'Not decided: you can not decide it (a payment you requested, or your role)',
  APPROVAL_NOT_FOUND: 'Not found',
};

function resultsPage(request: DashboardRequest, outcomes: BulkOutcome[], context: RowContext): DashboardAnswer {
  const approved = outcomes.filter((o) => o.result === 'APPROVED');
  const approvedTotal = sumOf(approved.map((o) => (o.result === 'APPROVED' ? o.approval.payment.amount : '0')));
  return dashboardPage(
    200,
    <DashboardLayout session={request.session} title="Bulk approval results" current={DASHBOARD_PATHS.approvals}>
      <p class="notice" role="status" data-bulk-approved={approved.length}>
        {approved.length} of {outcomes.length} approved ({money(approvedTotal)} posted).
        {approved.length < outcomes.length ? ' The others are listed with the reason.' : ''}
      </p>
      <Table caption="Result per approval" id="bulk-results">
        <thead>
          <tr>
            <th scope="col">Approval</th>
            <th scope="col">Amount</th>
            <th scope="col">Agent</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {outcomes.map((o) => (
            <tr data-approval-id={o.id} data-result={o.result === 'REFUSED' ? o.error.code : o.result}>
              <td>
                <a class="mono" href={DASHBOARD_PATHS.approval(o.id)}>
                  {o.id}
                </a>
              </td>
              <td class="num">{o.result === 'REFUSED' ? '—' : money(o.approval.payment.amount)}</td>
              <td>{o.result === 'REFUSED' ? '—' : agentNameOf(context, o.approval.walletId)}</td>
              <td>
                {o.result === 'REFUSED' ? (
                  `${REFUSAL_TEXT[o.error.code] ?? o.error.message} [${o.error.code}]`
                ) : (
                  <>
                    <Status status={o.approval.status} />
                    {o.approval.failureCode ? <span data-failure-code> {o.approval.failureCode}</span> : null}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <p>
        <a href={DASHBOARD_PATHS.approvals}>Back to the approvals</a>
      </p>
    </DashboardLayout>,
  );
}
