import type { AgentSummaryView, AgentTemplatesView, CreatedAgentView } from '../../../domain/agents/agent-view.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage, may, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import type { Page } from './approval-rows.js';
import { Alert, attempt, Facts, money, Notice, Status, Table, when } from './parts.js';

/** Agents: the list, and creating one from a template (after a step-up; its raw key shown once, in the POST's own answer). */

const LIST_NOTICES: Readonly<Record<string, string>> = {
  deleted: 'Agent deleted: its balance went back to the main wallet and its key was revoked.',
};

export async function agentsList(request: DashboardRequest): Promise<DashboardAnswer> {
  const withDeleted = request.query.deleted === 'show';
  const agents = await attempt<Page<AgentSummaryView>>(request, 'listAgents', {
    query: { limit: '100', ...(withDeleted ? { includeDeleted: 'true' } : {}) },
  });
  return dashboardPage(
    agents.ok ? 200 : agents.error.status,
    <DashboardLayout session={request.session} title="Agents" current={DASHBOARD_PATHS.agents}>
      <Notice text={LIST_NOTICES[request.query.done ?? '']} kind={request.query.done} />
      {agents.ok ? null : <Alert error={agents.error} />}
      {may(request.session, 'wallets:write') ? (
        <p>
          <a class="button" href={DASHBOARD_PATHS.newAgent}>
            New agent
          </a>
        </p>
      ) : null}
      <Table caption="Your agents, newest first">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Balance (budget left)</th>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {(agents.ok ? agents.value.data : []).map((agent) => (
            <tr data-agent-id={agent.id}>
              <td>
                <a href={DASHBOARD_PATHS.agent(agent.id)}>{agent.name}</a>
              </td>
              <td>{agent.deleted ? <Status status="DELETED" /> : <Status status={agent.status} />}</td>
              <td class="num">{money(agent.balance, agent.currency)}</td>
              <td class="mono">{agent.apiKeyId ?? '—'}</td>
              <td>{when(agent.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      {agents.ok && agents.value.data.length === 0 ? <p data-empty>No agents yet.</p> : null}
      <p>
        {withDeleted ? (
          <a href={DASHBOARD_PATHS.agents}>Hide deleted agents</a>
        ) : (
          <a href={`${DASHBOARD_PATHS.agents}?deleted=show`}>Show deleted agents too</a>
        )}
      </p>
    </DashboardLayout>,
  );
}

/** The template picker (GET), or its refusal again with the fields kept. */
export async function newAgentPage(
  request: DashboardRequest,
  refusal?: Parameters<typeof Alert>[0]['error'],
  status = 200,
  kept: { name?: string; templateId?: string } = {},
): Promise<DashboardAnswer> {
  // A new agent's key is a secret shown once: the second factor again first, as for API keys.
  if (!request.recentlyVerified()) return seeOther(DASHBOARD_PATHS.verify(DASHBOARD_PATHS.newAgent));
  const templates = await attempt<AgentTemplatesView>(request, 'listTemplates');
  const list = templates.ok ? templates.value.data : [];
  const chosen = kept.templateId ?? list[0]?.templateId;
  return dashboardPage(
    templates.ok ? status : templates.error.status,
    <DashboardLayout session={request.session} title="New agent" current={DASHBOARD_PATHS.agents}>
      <Alert error={templates.ok ? refusal : templates.error} />
      <form method="post" action={DASHBOARD_PATHS.newAgent} data-busy-label="Creating…">
        <CsrfField session={request.session} />
        <div class="field">
          <label for="agent-name">Name</label>
          <input id="agent-name" name="name" required maxlength={100} value={kept.name ?? ''} autocomplete="off" />
        </div>
        <fieldset>
          <legend>Template</legend>
          {list.map((template) => (
            <div class="field">
              <input
                type="radio"
                id={`template-${template.templateId}`}
                name="templateId"
                value={template.templateId}
                checked={template.templateId === chosen}
              />{' '}
              <label for={`template-${template.templateId}`}>
                {template.name}:{' '}
                {template.readOnly
                  ? 'read only, no spending'
                  : `at most ${money(template.maxTransactionAmount)} a payment, ${money(template.dailyLimit)} a day${
                      template.requireHumanApproval ? ', every payment approved by a person' : ''
                    }`}
              </label>
            </div>
          ))}
        </fieldset>
        <p class="hint">The agent starts with a zero balance: fund it from its page (adjust budget).</p>
        <button type="submit">Create agent</button>
      </form>
    </DashboardLayout>,
  );
}

/** Creates the agent; the answer is the page with its raw key, shown this once. */
export async function createAgent(request: DashboardRequest): Promise<DashboardAnswer> {
  if (!request.recentlyVerified()) return seeOther(DASHBOARD_PATHS.verify(DASHBOARD_PATHS.newAgent));
  const form = request.form();
  const name = (form.get('name') ?? '').trim();
  const templateId = form.get('templateId') ?? '';
  const created = await attempt<CreatedAgentView>(request, 'createAgentFromTemplate', { body: { name, templateId } });
  if (!created.ok) return newAgentPage(request, created.error, created.error.status, { name, templateId });
  const agent = created.value;
  return dashboardPage(
    200,
    <DashboardLayout session={request.session} title="Agent created" current={DASHBOARD_PATHS.agents}>
      <KeyOnce heading={`${agent.name}'s API key`} apiKey={agent.apiKey} />
      <Facts
        facts={[
          ['Agent', agent.name],
          ['Key id', <span class="mono">{agent.apiKeyId}</span>],
          ['Key expires', agent.apiKeyExpiresAt ? when(agent.apiKeyExpiresAt) : 'Never'],
          ['Permissions', agent.permissions.join(', ')],
        ]}
      />
      <p>
        <a href={DASHBOARD_PATHS.agent(agent.id)}>Go to the agent</a>
      </p>
    </DashboardLayout>,
  );
}

/** A secret shown once: copy it now, it is never shown again. */
export function KeyOnce(props: { heading: string; apiKey: string }) {
  return (
    <section class="card" aria-labelledby="key-heading">
      <h2 id="key-heading">{props.heading}</h2>
      <p class="notice" role="status">
        Copy this key now and hand it to the agent: it is shown this once only (only its hash is kept).
      </p>
      <div class="field">
        <label for="created-secret">API key (shown once)</label>
        <input id="created-secret" class="secret mono" readonly value={props.apiKey} data-secret autocomplete="off" />
      </div>
    </section>
  );
}
