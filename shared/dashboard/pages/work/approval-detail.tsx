import Big from 'big.js';
import type { AgentView } from '../../../domain/agents/agent-view.js';
import type { ApprovalView } from '../../../domain/approvals/approval-view.js';
import type { ApiError } from '../../../domain/errors.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { agentNameOf, deciderOf, payeeOf, ruleOf, rowContextOf, type AuditEntry, type Page } from './approval-rows.js';
import { Alert, attempt, Facts, money, Notice, Status, Table, todayUtc, when } from './parts.js';

/** One approval: the payment, the agent's balance and today's spend against its limits, recent payments, the audit trail; approve or reject. */

interface PaymentRow {
  id: string;
  from: string;
  to: string;
  amount: string;
  status: string;
  description: string | null;
  merchant: string | null;
  createdAt: string;
}

interface Balance {
  balance: string;
  heldBalance: string;
  pendingBalance: string;
  currency: string;
}

const DETAIL_NOTICES: Readonly<Record<string, string>> = {
  'already-decided': 'This approval was already decided (in another tab or by another person): nothing was changed.',
  failed: 'Approved, but the payment could not post: the approval ended FAILED.',
};

export async function approvalDetail(
  request: DashboardRequest,
  id: string,
  refusal?: ApiError | string,
  status = 200,
): Promise<DashboardAnswer> {
  const found = await attempt<ApprovalView>(request, 'getApproval', { params: { id } });
  if (!found.ok)
    return dashboardPage(
      found.error.status,
      <DashboardLayout session={request.session} title="Approval" current={DASHBOARD_PATHS.approvals}>
        <Alert error={found.error} />
        <p>
          <a href={DASHBOARD_PATHS.approvals}>Back to the approvals</a>
        </p>
      </DashboardLayout>,
    );
  const approval = found.value;
  const walletId = approval.walletId;
  const [context, agent, balance, payments, trail] = await Promise.all([
    rowContextOf(request),
    attempt<AgentView>(request, 'getAgent', { params: { id: walletId } }),
    attempt<Balance>(request, 'getBalance', { params: { id: walletId } }),
    attempt<Page<PaymentRow>>(request, 'listPayments', { query: { walletId, limit: '100' } }),
    auditTrail(request, approval),
  ]);
  const today = todayUtc();
  const spentToday = payments.ok
    ? payments.value.data
        .filter((p) => p.from === walletId && p.status === 'POSTED' && p.createdAt.startsWith(today))
        .reduce((sum, p) => sum.plus(p.amount), new Big(0))
        .toFixed(2)
    : undefined;
  const dailyLimits = agent.ok ? agent.value.policies.flatMap((p) => (p.dailyLimit ? [p.dailyLimit] : [])) : [];
  const requester = trail.find(
    (entry) => entry.resourceId === approval.transactionId && entry.action.startsWith('payment.'),
  );
  const mine = context.mine.has(approval.id) || requester?.actorId === request.session.userId;
  const notice = DETAIL_NOTICES[request.query.done ?? ''];
  return dashboardPage(
    status,
    <DashboardLayout session={request.session} title="Approval" current={DASHBOARD_PATHS.approvals}>
      <p>
        <a href={DASHBOARD_PATHS.approvals}>Back to the approvals</a>
      </p>
      <Notice text={notice} kind={request.query.done} />
      <Alert error={refusal} />
      <section class="card" aria-labelledby="payment-heading" data-approval-id={approval.id}>
        <h2 id="payment-heading">
          {money(approval.payment.amount)} to {payeeOf(approval)}
        </h2>
        <Facts
          facts={[
            ['Status', <Status status={approval.status} />],
            ...(approval.failureCode
              ? [['Failure', <span data-failure-code>{approval.failureCode}</span>] as const]
              : []),
            ['Agent', agentNameOf(context, walletId)],
            ['Paying wallet', <span class="mono">{walletId}</span>],
            ['Payee', <span class="mono">{payeeOf(approval)}</span>],
            ['Description', approval.payment.description ?? '—'],
            ['Rule', ruleOf(approval.reason)],
            ['Requested', when(approval.createdAt)],
            ['Requested by', requester ? `${requester.actorId}${mine ? ' (you)' : ''}` : '—'],
            ['Expires', when(approval.expiresAt)],
            ...(approval.status === 'PENDING'
              ? []
              : ([
                  ['Decided by', deciderOf(approval, request.session.userId)],
                  ['Decided', when(approval.decidedAt)],
                  ['Note', approval.note ?? '—'],
                  ['Rejection reason', approval.rejectionReason ?? '—'],
                ] as const)),
          ]}
        />
      </section>
      <section class="card" aria-labelledby="agent-heading">
        <h2 id="agent-heading">The paying wallet</h2>
        <Facts
          facts={[
            ['Available', balance.ok ? money(balance.value.balance, balance.value.currency) : '—'],
            ['Held', balance.ok ? money(balance.value.heldBalance, balance.value.currency) : '—'],
            ['Spent today (UTC)', spentToday === undefined ? '—' : money(spentToday)],
            ['Daily limit', dailyLimits.length > 0 ? dailyLimits.map((l) => money(l)).join(', ') : 'None'],
          ]}
        />
      </section>
      {approval.status === 'PENDING' ? <Decide request={request} approval={approval} mine={mine} /> : null}
      <Table caption="Recent payments of this wallet">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Amount</th>
            <th scope="col">To</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {(payments.ok ? payments.value.data.slice(0, 10) : []).map((p) => (
            <tr>
              <td>{when(p.createdAt)}</td>
              <td class="num">{money(p.amount)}</td>
              <td class="mono">{p.merchant ? `merchant:${p.merchant}` : p.to}</td>
              <td>
                <Status status={p.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Table caption="Audit trail">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Action</th>
            <th scope="col">Actor</th>
          </tr>
        </thead>
        <tbody>
          {trail.map((entry) => (
            <tr>
              <td>{when(entry.createdAt)}</td>
              <td>{entry.action}</td>
              <td class="mono">
                {entry.actorType} {entry.actorId}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </DashboardLayout>,
  );
}

/** The audit entries about the approval and its payment, oldest first. */
async function auditTrail(request: DashboardRequest, approval: ApprovalView): Promise<AuditEntry[]> {
  const lists = await Promise.all(
    [approval.transactionId, approval.id].map((resource) =>
      attempt<Page<AuditEntry>>(request, 'listAuditLogs', { query: { resource, limit: '50' } }),
    ),
  );
  const entries = new Map(lists.flatMap((list) => (list.ok ? list.value.data.map((e) => [e.id, e] as const) : [])));
  return [...entries.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

function Decide(props: { request: DashboardRequest; approval: ApprovalView; mine: boolean }) {
  const { request, approval } = props;
  const action = DASHBOARD_PATHS.approval(approval.id);
  if (!request.session.permissions.includes('approvals:decide'))
    return <p class="hint">Your role can see this approval but not decide it.</p>;
  if (props.mine)
    return (
      <p class="notice" data-separation-of-duties>
        You requested this payment, so you can not decide it: another person must (separation of duties).
      </p>
    );
  return (
    <section class="card" aria-labelledby="decide-heading">
      <h2 id="decide-heading">Decide</h2>
      <form method="post" action={action} data-busy-label="Approving…" data-decision="approve">
        <CsrfField session={request.session} />
        <input type="hidden" name="decision" value="approve" />
        <div class="field">
          <label for="approve-note">Note (optional)</label>
          <input id="approve-note" name="note" maxlength={1024} />
        </div>
        <button type="submit">Approve {money(approval.payment.amount)}</button>
      </form>
      <form method="post" action={action} data-busy-label="Rejecting…" data-decision="reject">
        <CsrfField session={request.session} />
        <input type="hidden" name="decision" value="reject" />
        <div class="field">
          <label for="reject-reason">Reason (optional)</label>
          <input id="reject-reason" name="reason" maxlength={1024} />
        </div>
        <button type="submit" class="secondary">
          Reject
        </button>
      </form>
    </section>
  );
}

/**
 * Approve (with a note) or reject (with a reason), then 303: to the inbox with a notice; to the
 * approval when it ended FAILED or was decided meanwhile (INVALID_STATE: a notice, not an error).
 * Any other refusal (a forged POST of a role that can not decide: 403) is the page with its alert.
 */
export async function decideApproval(request: DashboardRequest, id: string): Promise<DashboardAnswer> {
  const form = request.form();
  const decision = form.get('decision');
  if (decision !== 'approve' && decision !== 'reject')
    return approvalDetail(request, id, 'Choose approve or reject (field: decision).', 400);
  const text = (form.get(decision === 'approve' ? 'note' : 'reason') ?? '').trim();
  const field = decision === 'approve' ? 'note' : 'reason';
  const result = await attempt<ApprovalView>(request, decision === 'approve' ? 'approveApproval' : 'rejectApproval', {
    params: { id },
    body: text ? { [field]: text } : {},
  });
  if (result.ok) {
    if (result.value.status === 'FAILED') return seeOther(`${DASHBOARD_PATHS.approval(id)}?done=failed`);
    return seeOther(`${DASHBOARD_PATHS.approvals}?done=${decision === 'approve' ? 'approved' : 'rejected'}`);
  }
  if (result.error.code === 'INVALID_STATE') return seeOther(`${DASHBOARD_PATHS.approval(id)}?done=already-decided`);
  return approvalDetail(request, id, result.error, result.error.status);
}
