import { createHash } from 'node:crypto';
import type { AgentSummaryView } from '../../../domain/agents/agent-view.js';
import type { ApprovalView } from '../../../domain/approvals/approval-view.js';
import { AUDIT } from '../../../domain/audit/actions.js';
import type { DashboardRequest } from '../../context.js';
import { may } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { attempt, money, Status, when } from './parts.js';

/** The approvals inbox's rows: what the page, the poll and the bulk confirm share. */

export interface Page<T> {
  data: T[];
  cursor?: string | null;
  hasMore: boolean;
}

export interface AuditEntry {
  id: string;
  actorType: string;
  actorId: string;
  action: string;
  resource: string;
  resourceId: string;
  metadata?: Record<string, unknown>;
  createdAt: string;
}

/** At most this many approvals in one bulk approval (the bound). */
export const MAX_BULK_APPROVALS = 25;
/** Rows of one inbox page (and of one poll). */
export const INBOX_PAGE_SIZE = 50;
/** The inbox's checkboxes: `select:<approval id>` (the form map holds one value per name). */
export const SELECT_PREFIX = 'select:';

/** Who is who on an approval: the agents' names by wallet, and the approvals this user asked for. */
export interface RowContext {
  agents: ReadonlyMap<string, string>;
  /** Approvals of payments this user requested (separation of duties: they can not decide them). */
  mine: ReadonlySet<string>;
  canDecide: boolean;
}

/** One call each: the agents (names by wallet id) and this user's own payment requests (audit, by actor). */
export async function rowContextOf(request: DashboardRequest): Promise<RowContext> {
  const [agents, mine] = await Promise.all([
    attempt<Page<AgentSummaryView>>(request, 'listAgents', { query: { limit: '100', includeDeleted: 'true' } }),
    attempt<Page<AuditEntry>>(request, 'listAuditLogs', {
      query: { actorId: request.session.userId, action: AUDIT.payment.create, limit: '100' },
    }),
  ]);
  return {
    agents: new Map(agents.ok ? agents.value.data.map((agent) => [agent.id, agent.name]) : []),
    mine: new Set(
      mine.ok
        ? mine.value.data.flatMap((entry) =>
            typeof entry.metadata?.approvalId === 'string' ? [entry.metadata.approvalId] : [],
          )
        : [],
    ),
    canDecide: may(request.session, 'approvals:decide'),
  };
}

export const agentNameOf = (context: RowContext, walletId: string) => context.agents.get(walletId) ?? walletId;

export const payeeOf = (approval: ApprovalView): string =>
  approval.payment.merchant ? `merchant:${approval.payment.merchant}` : approval.payment.to;

const RULE_TEXT: Readonly<Record<string, string>> = {
  requireHumanApproval: 'Every payment needs approval',
  approvalThreshold: 'Above the approval threshold',
};
export const ruleOf = (reason: string) => RULE_TEXT[reason] ?? reason;

/** The pending list's ETag: the ids and statuses it holds (a new, decided or expired row changes it). */
export function inboxTag(approvals: readonly ApprovalView[]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(approvals.map((a) => [a.id, a.status])))
    .digest('base64url')
    .slice(0, 27);
  return `"${digest}"`;
}

/** One pending row: the checkbox (when this user may decide it), the fields of the inbox, a link to decide. */
export function PendingRow(props: { approval: ApprovalView; context: RowContext }) {
  const { approval, context } = props;
  const agent = agentNameOf(context, approval.walletId);
  const mine = context.mine.has(approval.id);
  const selectable = context.canDecide && !mine;
  return (
    <tr data-approval-id={approval.id} data-amount={approval.payment.amount} data-mine={mine ? 'true' : undefined}>
      {context.canDecide ? (
        <td>
          {selectable ? (
            <input
              type="checkbox"
              name={`${SELECT_PREFIX}${approval.id}`}
              value="1"
              id={`select-${approval.id}`}
              aria-label={`Select ${money(approval.payment.amount)} to ${payeeOf(approval)} by ${agent}`}
            />
          ) : (
            <span class="muted">You requested it</span>
          )}
        </td>
      ) : null}
      <td class="num">{money(approval.payment.amount)}</td>
      <td>{agent}</td>
      <td class="mono">{payeeOf(approval)}</td>
      <td>{approval.payment.description ?? '—'}</td>
      <td>{ruleOf(approval.reason)}</td>
      <td>{when(approval.createdAt)}</td>
      <td>{when(approval.expiresAt)}</td>
      <td>
        <a href={DASHBOARD_PATHS.approval(approval.id)}>
          {selectable ? 'Review' : 'View'}
          <span class="visually-hidden"> approval of {money(approval.payment.amount)}</span>
        </a>
      </td>
    </tr>
  );
}

export function PendingHead(props: { canDecide: boolean }) {
  return (
    <thead>
      <tr>
        {props.canDecide ? <th scope="col">Select</th> : null}
        <th scope="col">Amount</th>
        <th scope="col">Agent</th>
        <th scope="col">Payee</th>
        <th scope="col">Description</th>
        <th scope="col">Rule</th>
        <th scope="col">Requested</th>
        <th scope="col">Expires</th>
        <th scope="col">Decide</th>
      </tr>
    </thead>
  );
}

/** Who decided: this user, another person or key, the expiry job. */
export function deciderOf(approval: ApprovalView, userId: string): string {
  if (approval.decidedBy === null) return '—';
  if (approval.decidedBy === userId) return 'You';
  if (approval.decidedBy === 'approval-expiry') return 'Expired (no decision)';
  return approval.decidedBy;
}

export function DecidedRow(props: { approval: ApprovalView; context: RowContext; userId: string }) {
  const { approval, context } = props;
  return (
    <tr data-approval-id={approval.id}>
      <td>
        <Status status={approval.status} />
        {approval.failureCode ? <span class="failure"> {approval.failureCode}</span> : null}
      </td>
      <td class="num">{money(approval.payment.amount)}</td>
      <td>{agentNameOf(context, approval.walletId)}</td>
      <td class="mono">{payeeOf(approval)}</td>
      <td>{deciderOf(approval, props.userId)}</td>
      <td>{when(approval.decidedAt)}</td>
      <td>{approval.note ?? approval.rejectionReason ?? '—'}</td>
      <td>
        <a href={DASHBOARD_PATHS.approval(approval.id)}>
          View<span class="visually-hidden"> approval of {money(approval.payment.amount)}</span>
        </a>
      </td>
    </tr>
  );
}

export function DecidedHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Status</th>
        <th scope="col">Amount</th>
        <th scope="col">Agent</th>
        <th scope="col">Payee</th>
        <th scope="col">Decided by</th>
        <th scope="col">Decided</th>
        <th scope="col">Note or reason</th>
        <th scope="col">Details</th>
      </tr>
    </thead>
  );
}
