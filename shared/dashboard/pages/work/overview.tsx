import Big from 'big.js';
import type { AgentSummaryView } from '../../../domain/agents/agent-view.js';
import type { ApprovalView } from '../../../domain/approvals/approval-view.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { DashboardLayout, dashboardPage, may, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import type { Page } from './approval-rows.js';
import { attempt, money, sumOf, Table, when } from './parts.js';
import type { WalletRow } from './wallets.js';

/**
 * The overview: pending approvals (count and total), the main balance, activation progress (roles
 * holding `admin`), agents near their limits, recent events. Each part shows what its call answered;
 * a part the role may not read is left out.
 */

interface PolicyRow {
  walletId: string;
  dailyLimit: string | null;
}

interface EventRow {
  id: string;
  type: string;
  createdAt: string;
}

interface Activation {
  kybVerified: boolean;
  tosAccepted: boolean;
  billingMethodAdded: boolean;
  productionActivated: boolean;
}

/**
 * Near its limits: paused, empty, or with less budget left than its smallest daily limit (it can
 * not spend a full day at its limit). Balance and limits are what the API gives; no spend counter
 * is read here.
 */
export function nearLimit(agent: AgentSummaryView, dailyLimits: readonly string[]): string | undefined {
  if (agent.status === 'FROZEN') return 'Paused';
  const balance = new Big(agent.balance);
  if (balance.lte(0)) return 'No budget left';
  const smallest = dailyLimits.reduce<Big | undefined>(
    (low, l) => (low === undefined || low.gt(l) ? new Big(l) : low),
    undefined,
  );
  if (smallest && balance.lt(smallest)) return `Budget left below its daily limit (${money(smallest.toFixed(2))})`;
  return undefined;
}

export async function overviewPage(request: DashboardRequest): Promise<DashboardAnswer> {
  const { session } = request;
  // The operator's people have no organization: their first page is the compliance report.
  if (session.organizationId === null) return seeOther(DASHBOARD_PATHS.operatorCompliance);
  const [pending, wallets, agents, policies, events, activation] = await Promise.all([
    attempt<Page<ApprovalView>>(request, 'listApprovals', { query: { status: 'PENDING', limit: '100' } }),
    attempt<Page<WalletRow>>(request, 'listWallets', { query: { limit: '100' } }),
    attempt<Page<AgentSummaryView>>(request, 'listAgents', { query: { limit: '100' } }),
    attempt<Page<PolicyRow>>(request, 'listPolicies', { query: { limit: '100' } }),
    attempt<Page<EventRow>>(request, 'listEvents', { query: { limit: '10' } }),
    may(session, 'admin') ? attempt<Activation>(request, 'getStatus') : Promise.resolve(undefined),
  ]);
  const main = wallets.ok ? wallets.value.data.find((w) => w.isMain) : undefined;
  const limitsOf = new Map<string, string[]>();
  for (const p of policies.ok ? policies.value.data : [])
    if (p.dailyLimit) limitsOf.set(p.walletId, [...(limitsOf.get(p.walletId) ?? []), p.dailyLimit]);
  const near = (agents.ok ? agents.value.data : []).flatMap((agent) => {
    const why = nearLimit(agent, limitsOf.get(agent.id) ?? []);
    return why ? [{ agent, why }] : [];
  });
  const steps = activation?.ok
    ? [
        ['Business verified (KYB)', activation.value.kybVerified],
        ['Terms accepted', activation.value.tosAccepted],
        ['Billing method added', activation.value.billingMethodAdded],
        ['Live activated', activation.value.productionActivated],
      ]
    : [];
  return dashboardPage(
    200,
    <DashboardLayout session={session} title="Overview" current={DASHBOARD_PATHS.overview}>
      <div class="stats">
        {pending.ok ? (
          <section class="card" aria-labelledby="pending-heading" data-overview="approvals">
            <h2 id="pending-heading">Pending approvals</h2>
            <p class="stat" data-pending-count={pending.value.data.length}>
              {pending.value.data.length}
              {pending.value.hasMore ? '+' : ''}
            </p>
            <p>{money(sumOf(pending.value.data.map((a) => a.payment.amount)))} waiting</p>
            <a href={DASHBOARD_PATHS.approvals}>Open the approvals</a>
          </section>
        ) : null}
        {main ? (
          <section class="card" aria-labelledby="main-heading" data-overview="main-balance">
            <h2 id="main-heading">Main balance</h2>
            <p class="stat">{money(main.balance, main.currency)}</p>
            <p>
              Held {money(main.heldBalance, main.currency)}, pending {money(main.pendingBalance, main.currency)}
            </p>
            <a href={DASHBOARD_PATHS.wallet(main.id)}>Statement</a>
          </section>
        ) : null}
        {activation?.ok ? (
          <section class="card" aria-labelledby="activation-heading" data-overview="activation">
            <h2 id="activation-heading">Activation</h2>
            <p class="stat">
              {steps.filter(([, done]) => done).length} of {steps.length}
            </p>
            <ul>
              {steps.map(([label, done]) => (
                <li>
                  {label}: {done ? 'done' : 'to do'}
                </li>
              ))}
            </ul>
            <a href={DASHBOARD_PATHS.activation}>Activation</a>
          </section>
        ) : null}
      </div>
      <section aria-labelledby="near-heading" data-overview="near-limits">
        <h2 id="near-heading">Agents near their limits</h2>
        {near.length === 0 ? (
          <p>No agent is paused, empty or below its daily limit.</p>
        ) : (
          <ul>
            {near.map(({ agent, why }) => (
              <li data-agent-id={agent.id}>
                <a href={DASHBOARD_PATHS.agent(agent.id)}>{agent.name}</a>: {why};{' '}
                {money(agent.balance, agent.currency)} left
              </li>
            ))}
          </ul>
        )}
      </section>
      {events.ok ? (
        <Table caption="Recent events">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Id</th>
            </tr>
          </thead>
          <tbody>
            {events.value.data.map((e) => (
              <tr>
                <td>{when(e.createdAt)}</td>
                <td>{e.type}</td>
                <td class="mono">{e.id}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
    </DashboardLayout>,
  );
}
