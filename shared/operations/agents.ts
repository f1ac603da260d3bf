import * as z from 'zod/mini';
import { MAX_POLICIES_PER_AGENT, type AgentService } from '../domain/agents/agent-service.js';
import { AGENT_TEMPLATES, TEMPLATE_IDS } from '../domain/agents/agent-templates.js';
import {
  presentAgent,
  presentAgentSummary,
  presentAgentTemplates,
  presentCreatedAgent,
} from '../domain/agents/agent-view.js';
import { AUDIT } from '../domain/audit/actions.js';
import { HINTS, defineGroup, operation } from './define.js';
import { amount, describe, idempotencyKey, name, permissionList, queryFlag, text, MAX_NAME_LENGTH } from './fields.js';
import { listOperation } from './list.js';
import { policyRulesBody } from './policy-fields.js';

export interface AgentsServices {
  agents: AgentService;
}

const op = operation<AgentsServices>();
const list = listOperation<AgentsServices>();
const agentParam = { id: "The agent's wallet id (`wal_...`)." };
const agentName = () => name(`Name of the agent (1-${MAX_NAME_LENGTH} characters).`);

export const AGENTS = defineGroup<AgentsServices>()('agents', {}, [
  op({
    name: 'createAgent',
    summary: 'Create an agent',
    description:
      'Creates an agent: its own wallet, a wallet-scoped API key (shown once, in `apiKey`; it expires with the calling key, if that one expires: `apiKeyExpiresAt`) and optional spend policies. Fund it with adjust-budget.',
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.wallet.create,
    events: ['agent.created'],
    http: { method: 'POST', path: '/v1/agents', status: 201 },
    mcp: { tool: 'create_agent', hints: HINTS.create },
    body: () =>
      z.strictObject({
        name: agentName(),
        permissions: z.optional(
          permissionList(
            text(64, 'A permission, e.g. payments:write.'),
            16,
            "Permissions of the agent's key, each at most once (default wallets:read, wallets:write, payments:read, payments:write); never admin, and only permissions the calling key holds (else 403 PERMISSION_DENIED with `details.missing`).",
          ),
        ),
        policies: z.optional(
          describe(
            z
              .array(policyRulesBody())
              .check(z.maxLength(MAX_POLICIES_PER_AGENT, `at most ${MAX_POLICIES_PER_AGENT} policies`)),
            `Spend policies of the agent's wallet (at most ${MAX_POLICIES_PER_AGENT}).`,
          ),
        ),
      }),
    output: 'createdAgentView',
    errors: ['WALLET_LIMIT_EXCEEDED', 'INVALID_AMOUNT', 'ACTIVATION_REQUIRED'],
    run: ({ services, auth, audit, body }) => services.agents.create(auth, audit, body),
    present: (result) => presentCreatedAgent(result, false),
  }),
  op({
    name: 'createAgentFromTemplate',
    summary: 'Create an agent from a template',
    description: 'Creates an agent with the permissions and spend policy of a template (see GET /v1/agents/templates).',
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.wallet.create,
    events: ['agent.created'],
    http: { method: 'POST', path: '/v1/agents/from-template', status: 201 },
    mcp: { tool: 'create_agent_from_template', hints: HINTS.create },
    body: () =>
      z.strictObject({
        name: agentName(),
        templateId: describe(
          z.enum(TEMPLATE_IDS, { error: `must be one of ${TEMPLATE_IDS.join(', ')}` }),
          `The template: one of ${TEMPLATE_IDS.join(', ')}.`,
        ),
      }),
    output: 'createdAgentView',
    errors: ['WALLET_LIMIT_EXCEEDED', 'ACTIVATION_REQUIRED'],
    run: ({ services, auth, audit, body }) => services.agents.createFromTemplate(auth, audit, body),
    present: (result) => presentCreatedAgent(result, true),
  }),
  op({
    name: 'listTemplates',
    summary: 'List agent templates',
    description: 'The templates an agent can be created from, with their permissions and policy.',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/agents/templates', status: 200 },
    mcp: { tool: 'list_agent_templates', hints: HINTS.read },
    output: 'agentTemplatesView',
    errors: [],
    run: async () => presentAgentTemplates(AGENT_TEMPLATES),
  }),
  list({
    name: 'listAgents',
    summary: 'List agents',
    description:
      "The organization's agents, newest first; deleted ones only when asked. An agent key sees only itself.",
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/agents', status: 200 },
    mcp: { tool: 'list_agents', hints: HINTS.read },
    filters: () => ({
      includeDeleted: z.optional(queryFlag('Whether deleted agents are listed too (default false).')),
    }),
    output: 'agentPageView',
    errors: [],
    list: ({ services, auth, query }, page) => services.agents.list(auth, query.includeDeleted === 'true', page),
    present: presentAgentSummary,
  }),
  op({
    name: 'getAgent',
    summary: 'Get an agent',
    description: 'One agent with its key (never the raw value) and its active policies.',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/agents/{id}', status: 200 },
    params: agentParam,
    mcp: { tool: 'get_agent', hints: HINTS.read },
    output: 'agentView',
    errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, params }) => services.agents.get(auth, params.id!),
    present: presentAgent,
  }),
  op({
    name: 'adjustBudget',
    summary: "Adjust an agent's budget",
    description:
      "Moves money between the organization's main wallet and the agent: a positive amount funds the agent, a negative one takes money back.",
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.wallet.adjustBudget,
    idempotency: 'key',
    http: { method: 'POST', path: '/v1/agents/{id}/adjust-budget', status: 200 },
    params: agentParam,
    mcp: { tool: 'adjust_budget', hints: HINTS.money },
    body: () =>
      z.strictObject({
        amount: amount('Amount to move, in USD: positive funds the agent, negative returns money to the main wallet.'),
        idempotencyKey: idempotencyKey(),
      }),
    output: 'budgetAdjustedView',
    errors: [
      'WALLET_NOT_FOUND',
      'WALLET_FROZEN',
      'INSUFFICIENT_FUNDS',
      'INVALID_AMOUNT',
      'INVALID_STATE',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
      'CONCURRENT_UPDATE',
    ],
    run: ({ services, auth, audit, params, body, idempotencyKey }) =>
      services.agents.adjustBudget(auth, audit, params.id!, body.amount, idempotencyKey),
  }),
  op({
    name: 'pauseAgent',
    summary: 'Pause an agent',
    description: "Freezes the agent's wallet: it can not pay until resumed. Repeating it changes nothing.",
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.wallet.freeze,
    events: ['agent.paused'],
    http: { method: 'POST', path: '/v1/agents/{id}/pause', status: 200 },
    params: agentParam,
    mcp: { tool: 'pause_agent', hints: HINTS.update },
    output: 'agentStatusView',
    errors: ['WALLET_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.agents.pause(auth, audit, params.id!),
  }),
  op({
    name: 'resumeAgent',
    summary: 'Resume an agent',
    description: "Unfreezes a paused agent's wallet.",
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.wallet.unfreeze,
    events: ['agent.resumed'],
    http: { method: 'POST', path: '/v1/agents/{id}/resume', status: 200 },
    params: agentParam,
    mcp: { tool: 'resume_agent', hints: HINTS.update },
    output: 'agentStatusView',
    errors: ['WALLET_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.agents.resume(auth, audit, params.id!),
  }),
  op({
    name: 'rotateAgentKey',
    summary: "Rotate an agent's key",
    description:
      "Revokes the agent's key and issues a new one (shown once, in `apiKey`) with the same permissions and expiry: the caller must hold each of them (else 403 PERMISSION_DENIED with `details.missing`) and not expire before it (a caller that expires can not rotate a key that never expires or expires later: 403 PERMISSION_DENIED with `details.field: expiresAt` and `details.maxExpiresAt`). A key an admin revoked is never replaced (409 INVALID_STATE).",
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.apiKey.rotate,
    http: { method: 'POST', path: '/v1/agents/{id}/rotate-key', status: 200 },
    params: agentParam,
    // Each call issues another key: not idempotent.
    mcp: { tool: 'rotate_agent_key', hints: { ...HINTS.destructive, idempotentHint: false } },
    output: 'agentKeyRotatedView',
    errors: ['WALLET_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.agents.rotateKey(auth, audit, params.id!),
  }),
  op({
    name: 'deleteAgent',
    summary: 'Delete an agent',
    description: "Revokes the agent's key, sweeps its balance back to the main wallet and closes its wallet for good.",
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.wallet.close,
    events: ['agent.deleted'],
    http: { method: 'DELETE', path: '/v1/agents/{id}', status: 200 },
    params: agentParam,
    mcp: { tool: 'delete_agent', hints: HINTS.destructive },
    output: 'agentDeletedView',
    errors: ['WALLET_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH', 'CONCURRENT_UPDATE'],
    run: ({ services, auth, audit, params }) => services.agents.remove(auth, audit, params.id!),
  }),
]);
