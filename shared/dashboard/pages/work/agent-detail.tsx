import { randomUUID } from 'node:crypto';
import type { AgentView } from '../../../domain/agents/agent-view.js';
import type { ApiError } from '../../../domain/errors.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage, may } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import type { Page } from './approval-rows.js';
import { Alert, attempt, Facts, money, Notice, Status, Table, when } from './parts.js';

/** One agent: its facts, budget, pause/resume, key rotation, policies, cards, payments, deletion. */

interface CardRow {
  id: string;
  status: string;
  brand: string;
  last4: string;
  type: string;
  spendingLimits: { amount: string; interval: string }[];
}

interface PaymentRow {
  id: string;
  from: string;
  to: string;
  amount: string;
  status: string;
  merchant: string | null;
  description: string | null;
  failureCode: string | null;
  createdAt: string;
}

export const AGENT_NOTICES: Readonly<Record<string, string>> = {
  paused: 'Agent paused: its key can no longer pay (WALLET_FROZEN) until you resume it.',
  resumed: 'Agent resumed: it can pay again within its policies.',
  adjusted: 'Budget adjusted.',
  'policy-added': 'Policy added.',
  'policy-deleted': 'Policy deleted.',
};

/** The agent's actions, the `action` field of the agent page's forms. */
export const AGENT_ACTIONS = ['adjust', 'pause', 'resume', 'rotate', 'delete', 'policy-add', 'policy-delete'] as const;

export async function agentDetail(
  request: DashboardRequest,
  id: string,
  refusal?: ApiError | string,
  status = 200,
): Promise<DashboardAnswer> {
  const found = await attempt<AgentView>(request, 'getAgent', { params: { id } });
  if (!found.ok)
    return dashboardPage(
      found.error.status,
      <DashboardLayout session={request.session} title="Agent" current={DASHBOARD_PATHS.agents}>
        <Alert error={found.error} />
        <p>
          <a href={DASHBOARD_PATHS.agents}>Back to the agents</a>
        </p>
      </DashboardLayout>,
    );
  const agent = found.value;
  const [cards, payments] = await Promise.all([
    attempt<Page<CardRow>>(request, 'listCards', { query: { walletId: id, limit: '50' } }),
    attempt<Page<PaymentRow>>(request, 'listPayments', { query: { walletId: id, limit: '20' } }),
  ]);
  const canWrite = may(request.session, 'wallets:write') && !agent.deleted;
  const action = DASHBOARD_PATHS.agent(id);
  return dashboardPage(
    status,
    <DashboardLayout session={request.session} title={`Agent: ${agent.name}`} current={DASHBOARD_PATHS.agents}>
      <p>
        <a href={DASHBOARD_PATHS.agents}>Back to the agents</a>
      </p>
      <Notice text={AGENT_NOTICES[request.query.done ?? '']} kind={request.query.done} />
      <Alert error={refusal} />
      <section class="card" aria-labelledby="agent-heading" data-agent-id={agent.id}>
        <h2 id="agent-heading">Overview</h2>
        <Facts
          facts={[
            ['Status', agent.deleted ? <Status status="DELETED" /> : <Status status={agent.status} />],
            ['Balance (budget left)', money(agent.balance, agent.currency)],
            ['Wallet', <span class="mono">{agent.id}</span>],
            ['Key', <span class="mono">{agent.apiKeyId ?? 'none'}</span>],
            ['Key last used', when(agent.apiKey?.lastUsedAt)],
            ['Created', when(agent.createdAt)],
          ]}
        />
      </section>
      {canWrite ? (
        <section class="card" aria-labelledby="manage-heading">
          <h2 id="manage-heading">Manage</h2>
          <form method="post" action={action} data-busy-label="Adjusting…">
            <CsrfField session={request.session} />
            <input type="hidden" name="action" value="adjust" />
            <input type="hidden" name="idempotencyKey" value={randomUUID()} />
            <div class="field">
              <label for="adjust-amount">
                Amount in USD (positive funds the agent from the main wallet, negative takes back)
              </label>
              <input id="adjust-amount" name="amount" required inputmode="decimal" maxlength={20} />
            </div>
            <button type="submit">Adjust budget</button>
          </form>
          <form method="post" action={action}>
            <CsrfField session={request.session} />
            <input type="hidden" name="action" value={agent.status === 'FROZEN' ? 'resume' : 'pause'} />
            <button type="submit" class="secondary">
              {agent.status === 'FROZEN' ? 'Resume agent' : 'Pause agent'}
            </button>
          </form>
          <form method="post" action={action}>
            <CsrfField session={request.session} />
            <input type="hidden" name="action" value="rotate" />
            <p class="hint">Rotating revokes the current key at once; you confirm your second factor first.</p>
            <button type="submit" class="secondary">
              Rotate key
            </button>
          </form>
        </section>
      ) : null}
      <Policies request={request} agent={agent} canWrite={canWrite} />
      <Table caption="Cards funded by this agent">
        <thead>
          <tr>
            <th scope="col">Card</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Limits</th>
          </tr>
        </thead>
        <tbody>
          {(cards.ok ? cards.value.data : []).map((card) => (
            <tr data-card-id={card.id}>
              <td>
                {card.brand} ending {card.last4}
              </td>
              <td>{card.type}</td>
              <td>
                <Status status={card.status} />
              </td>
              <td>{card.spendingLimits.map((l) => `${money(l.amount)} ${l.interval}`).join('; ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Table caption="Recent payments">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Amount</th>
            <th scope="col">To</th>
            <th scope="col">Status</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {(payments.ok ? payments.value.data : []).map((p) => (
            <tr data-payment-id={p.id}>
              <td>{when(p.createdAt)}</td>
              <td class="num">{money(p.from === agent.id ? `-${p.amount}` : p.amount)}</td>
              <td class="mono">{p.merchant ? `merchant:${p.merchant}` : p.to}</td>
              <td>
                <Status status={p.status} />
                {p.failureCode ? ` ${p.failureCode}` : ''}
              </td>
              <td>{p.description ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      {canWrite ? (
        <section class="card danger" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete this agent</h2>
          <p>Its balance goes back to the main wallet and its key is revoked. This can not be undone.</p>
          <form method="post" action={action}>
            <CsrfField session={request.session} />
            <input type="hidden" name="action" value="delete" />
            <div class="field">
              <label for="confirm-name">Type the agent's name ({agent.name}) to confirm</label>
              <input id="confirm-name" name="confirmName" required autocomplete="off" maxlength={200} />
            </div>
            <button type="submit" class="secondary">
              Delete agent
            </button>
          </form>
        </section>
      ) : null}
    </DashboardLayout>,
  );
}

function Policies(props: { request: DashboardRequest; agent: AgentView; canWrite: boolean }) {
  const { request, agent } = props;
  const action = DASHBOARD_PATHS.agent(agent.id);
  const limit = (value: string | null) => (value === null ? '—' : money(value));
  return (
    <section aria-labelledby="policies-heading">
      <h2 id="policies-heading">Spend policies</h2>
      <Table caption="Every policy applies to each payment">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Per payment</th>
            <th scope="col">Daily</th>
            <th scope="col">Weekly</th>
            <th scope="col">Monthly</th>
            <th scope="col">Approval above</th>
            <th scope="col">Approval always</th>
            {props.canWrite ? <th scope="col">Remove</th> : null}
          </tr>
        </thead>
        <tbody>
          {agent.policies.map((p) => (
            <tr data-policy-id={p.id}>
              <td>{p.name}</td>
              <td class="num">{money(p.maxTransactionAmount)}</td>
              <td class="num">{limit(p.dailyLimit)}</td>
              <td class="num">{limit(p.weeklyLimit)}</td>
              <td class="num">{limit(p.monthlyLimit)}</td>
              <td class="num">{limit(p.approvalThreshold)}</td>
              <td>{p.requireHumanApproval ? 'Yes' : 'No'}</td>
              {props.canWrite ? (
                <td>
                  <form method="post" action={action}>
                    <CsrfField session={request.session} />
                    <input type="hidden" name="action" value="policy-delete" />
                    <input type="hidden" name="policyId" value={p.id} />
                    <button type="submit" class="secondary">
                      Delete policy<span class="visually-hidden"> {p.name}</span>
                    </button>
                  </form>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </Table>
      {props.canWrite ? (
        <form method="post" action={action} class="card" data-busy-label="Adding…">
          <CsrfField session={request.session} />
          <input type="hidden" name="action" value="policy-add" />
          <h3>Add a policy</h3>
          <div class="row">
            <div class="field">
              <label for="policy-name">Policy name</label>
              <input id="policy-name" name="name" required maxlength={100} />
            </div>
            <div class="field">
              <label for="policy-max">Most per payment (USD)</label>
              <input id="policy-max" name="maxTransactionAmount" required inputmode="decimal" maxlength={20} />
            </div>
            <div class="field">
              <label for="policy-daily">Daily limit (USD, optional)</label>
              <input id="policy-daily" name="dailyLimit" inputmode="decimal" maxlength={20} />
            </div>
            <div class="field">
              <label for="policy-threshold">Approval above (USD, optional)</label>
              <input id="policy-threshold" name="approvalThreshold" inputmode="decimal" maxlength={20} />
            </div>
          </div>
          <div class="field">
            <input type="checkbox" id="policy-always" name="requireHumanApproval" value="true" />{' '}
            <label for="policy-always">Every payment needs a person's approval</label>
          </div>
          <button type="submit">Add policy</button>
        </form>
      ) : null}
    </section>
  );
}
