import type { AgentView } from '../../../domain/agents/agent-view.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { DashboardLayout, dashboardPage, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { agentDetail } from './agent-detail.js';
import { KeyOnce } from './agents.js';
import { attempt, Facts } from './parts.js';

/**
 * The agent page's POSTs, by their `action` field; each 303s back with a notice (PRG), except the
 * key rotation, whose answer is the page with the new raw key (shown once, never in a URL), after
 * a step-up: without a second factor proven in the last 5 minutes it 303s to the verify page first.
 */
export async function agentAction(request: DashboardRequest, id: string): Promise<DashboardAnswer> {
  const form = request.form();
  const back = (done: string) => seeOther(`${DASHBOARD_PATHS.agent(id)}?done=${done}`);
  const refused = (error: Parameters<typeof agentDetail>[2], status: number) => agentDetail(request, id, error, status);
  const params = { id };
  switch (form.get('action')) {
    case 'adjust': {
      const result = await attempt(request, 'adjustBudget', {
        params,
        body: { amount: (form.get('amount') ?? '').trim(), idempotencyKey: form.get('idempotencyKey') ?? '' },
      });
      return result.ok ? back('adjusted') : refused(result.error, result.error.status);
    }
    case 'pause':
    case 'resume': {
      const paused = form.get('action') === 'pause';
      const result = await attempt(request, paused ? 'pauseAgent' : 'resumeAgent', { params });
      return result.ok ? back(paused ? 'paused' : 'resumed') : refused(result.error, result.error.status);
    }
    case 'rotate':
      return rotate(request, id);
    case 'delete': {
      const agent = await attempt<AgentView>(request, 'getAgent', { params });
      if (!agent.ok) return refused(agent.error, agent.error.status);
      if ((form.get('confirmName') ?? '').trim() !== agent.value.name)
        return refused("The name typed is not the agent's name: nothing was deleted (field: confirmName).", 400);
      const result = await attempt(request, 'deleteAgent', { params });
      return result.ok
        ? seeOther(`${DASHBOARD_PATHS.agents}?done=deleted`)
        : refused(result.error, result.error.status);
    }
    case 'policy-add': {
      const optional = (name: string) => {
        const value = (form.get(name) ?? '').trim();
        return value === '' ? {} : { [name]: value };
      };
      const result = await attempt(request, 'createPolicy', {
        body: {
          walletId: id,
          name: (form.get('name') ?? '').trim(),
          maxTransactionAmount: (form.get('maxTransactionAmount') ?? '').trim(),
          requireHumanApproval: form.get('requireHumanApproval') === 'true',
          ...optional('dailyLimit'),
          ...optional('approvalThreshold'),
        },
      });
      return result.ok ? back('policy-added') : refused(result.error, result.error.status);
    }
    case 'policy-delete': {
      const policyId = form.get('policyId') ?? '';
      const agent = await attempt<AgentView>(request, 'getAgent', { params });
      // Only a policy of this agent from its own page (a policy id of another wallet is not this page's to delete).
      if (agent.ok && !agent.value.policies.some((p) => p.id === policyId))
        return refused('That policy is not one of this agent (field: policyId).', 400);
      const result = await attempt(request, 'deletePolicy', { params: { id: policyId } });
      return result.ok ? back('policy-deleted') : refused(result.error, result.error.status);
    }
    default:
      return refused('Choose an action (field: action).', 400);
  }
}

interface Rotated {
  id: string;
  apiKey: string;
  apiKeyId: string;
  revokedKeyId: string;
}

async function rotate(request: DashboardRequest, id: string): Promise<DashboardAnswer> {
  if (!request.recentlyVerified()) return seeOther(DASHBOARD_PATHS.verify(DASHBOARD_PATHS.agent(id)));
  const rotated = await attempt<Rotated>(request, 'rotateAgentKey', { params: { id } });
  if (!rotated.ok) return agentDetail(request, id, rotated.error, rotated.error.status);
  return dashboardPage(
    200,
    <DashboardLayout session={request.session} title="Key rotated" current={DASHBOARD_PATHS.agents}>
      <KeyOnce heading="The agent's new API key" apiKey={rotated.value.apiKey} />
      <Facts
        facts={[
          ['New key id', <span class="mono">{rotated.value.apiKeyId}</span>],
          ['Revoked key id', <span class="mono">{rotated.value.revokedKeyId}</span>],
        ]}
      />
      <p>
        <a href={DASHBOARD_PATHS.agent(id)}>Back to the agent</a>
      </p>
    </DashboardLayout>,
  );
}
