import type { AgentDetails } from '../../shared/domain/agents/agent-service.js';
import { AGENT_TEMPLATES } from '../../shared/domain/agents/agent-templates.js';
import { resolveIdempotencyKey } from '../../shared/domain/idempotency/idempotency.js';
import { formatBalance } from '../../shared/domain/money.js';
import { presentPolicy } from '../../shared/domain/policies/policy-service.js';
import type { Wallet } from '../../shared/domain/types.js';
import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { pageRequestOf, pageResponse } from '../../shared/http/pagination.js';
import { presentApiKey } from '../../shared/http/presenters.js';
import { created, idempotentResult, ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { adjustBudgetBody, createAgentBody, fromTemplateBody, listAgentsQuery } from './schemas.js';

const agents = () => container().services.agents;

function presentAgentSummary(wallet: Wallet) {
  return {
    id: wallet.id,
    object: 'agent',
    name: wallet.agentName ?? wallet.name,
    status: wallet.status,
    deleted: wallet.deletedAt !== undefined,
    deletedAt: wallet.deletedAt ?? null,
    balance: formatBalance(wallet.balance),
    currency: wallet.currency,
    environment: wallet.environment,
    apiKeyId: wallet.activeKeyId ?? null,
    createdAt: wallet.createdAt,
  };
}

function presentAgent(details: AgentDetails) {
  return {
    ...presentAgentSummary(details.wallet),
    apiKey: details.apiKey ? presentApiKey(details.apiKey) : null,
    policies: details.policies.map(presentPolicy),
  };
}

type Created = Awaited<ReturnType<ReturnType<typeof agents>['create']>>;

function presentCreated(result: Created, withPolicyId: boolean) {
  return {
    ...presentAgentSummary(result.wallet),
    apiKey: result.rawKey,
    apiKeyId: result.apiKey.id,
    permissions: result.apiKey.permissions,
    policyIds: result.policies.map((p) => p.id),
    ...(withPolicyId ? { policyId: result.policies[0]?.id ?? null } : {}),
  };
}

export const handler = createHttpHandler(
  'agents',
  {
    createAgent: operation({ body: createAgentBody, run: async ({ auth, body }) => created(presentCreated(await agents().create(auth, body), false)) }),
    createAgentFromTemplate: operation({ body: fromTemplateBody, run: async ({ auth, body }) => created(presentCreated(await agents().createFromTemplate(auth, body), true)) }),
    listTemplates: operation({ run: async () => ok({ data: AGENT_TEMPLATES }) }),
    listAgents: operation({
      query: listAgentsQuery,
      run: async ({ auth, query, routeKey }) => {
        const cursors = await container().cursors();
        const includeDeleted = query.includeDeleted === 'true';
        const binding = `${routeKey}|${auth.principal.keyId}|${includeDeleted}`;
        const page = await agents().list(auth, includeDeleted, pageRequestOf(cursors, query, binding));
        return ok(pageResponse(cursors, page, binding, presentAgentSummary));
      },
    }),
    getAgent: operation({ run: async ({ auth, params }) => ok(presentAgent(await agents().get(auth, params.id!))) }),
    adjustBudget: operation({
      body: adjustBudgetBody,
      run: async ({ auth, params, body, headers }) => {
        const idempotencyKey = resolveIdempotencyKey(body.idempotencyKey, headers['idempotency-key']);
        return idempotentResult(await agents().adjustBudget(auth, params.id!, body.amount, idempotencyKey));
      },
    }),
    pauseAgent: operation({ run: async ({ auth, params }) => ok(await agents().pause(auth, params.id!)) }),
    resumeAgent: operation({ run: async ({ auth, params }) => ok(await agents().resume(auth, params.id!)) }),
    rotateAgentKey: operation({ run: async ({ auth, params }) => ok(await agents().rotateKey(auth, params.id!)) }),
    deleteAgent: operation({ run: async ({ auth, params }) => ok(await agents().remove(auth, params.id!)) }),
  },
  container,
);
