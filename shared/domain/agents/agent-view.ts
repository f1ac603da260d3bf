import * as z from 'zod/mini';
import { apiKeyView, permissions, presentApiKey, type ApiKeyView } from '../api-keys/api-key-view.js';
import { formatBalance } from '../money.js';
import { policyView, presentPolicy, type PolicyView } from '../policies/policy-view.js';
import type { Wallet } from '../types.js';
import {
  balance,
  type Conforms,
  currency,
  describe,
  enumOf,
  environment,
  exampleOf,
  flag,
  id,
  lazy,
  listOf,
  money,
  nullableId,
  nullableTimestamp,
  number,
  objectTag,
  pageOf,
  text,
  timestamp,
  usd,
  view,
} from '../views.js';
import { walletStatus } from '../wallets/wallet-view.js';
import type { AgentDetails, AgentService } from './agent-service.js';
import { TEMPLATE_IDS, type AgentTemplate } from './agent-templates.js';

/** The payload views of this area's own events (a module of their own: shared/domain/agents/agent-events.ts reads their types without reaching the service this module presents). */
export * from './agent-event-views.js';

const agentId = () => id('wallet', "Agent id: the id of the agent's AGENT wallet.");
const rawKey = () =>
  text(
    "The agent's secret API key, shown this once only (only its hash is stored): hand it to the agent now. It acts only on the agent's wallet.",
  );
const policyIds = () =>
  describe(z.array(id('policy', 'Policy id.')), 'Ids of the spend policies created with the agent, in request order.');

const summaryFields = () => ({
  id: agentId(),
  object: objectTag('agent'),
  name: text('Agent name.'),
  status: walletStatus(
    'ACTIVE, or FROZEN while paused: payments from or to the agent fail with WALLET_FROZEN (its key can still read). A deleted agent stays FROZEN.',
  ),
  deleted: flag('Whether the agent was deleted (balance swept to the main wallet, key revoked; the record stays).'),
  deletedAt: nullableTimestamp('When the agent was deleted, or null.'),
  balance: balance("Available balance of the agent's wallet: its remaining budget."),
  currency: currency(),
  environment: environment(),
  apiKeyId: nullableId('apiKey', "The agent's current API key, or null if it has none."),
  createdAt: timestamp('When the agent was created.'),
});
const AGENT_KEY_EXAMPLE: ApiKeyView['permissions'] = [
  'wallets:read',
  'wallets:write',
  'payments:read',
  'payments:write',
];
const summaryExample: z.output<z.ZodMiniObject<ReturnType<typeof summaryFields>>> = {
  id: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
  object: 'agent',
  name: 'Research Agent',
  status: 'ACTIVE',
  deleted: false,
  deletedAt: null,
  balance: '250.00000000',
  currency: 'USD',
  environment: 'SANDBOX',
  apiKeyId: 'key_ByIx5EyI7we4SWisSpYPYJ85',
  createdAt: '2026-03-14T09:35:00.000Z',
};

export const agentSummaryView = /* @__PURE__ */ lazy(() =>
  view(
    summaryFields(),
    'An AI agent: an AGENT wallet holding its budget, with one wallet-scoped API key and its spend policies.',
    summaryExample,
  ),
);
export type AgentSummaryView = z.infer<typeof agentSummaryView>;

export function presentAgentSummary(wallet: Wallet): AgentSummaryView {
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

export const agentPageView = /* @__PURE__ */ lazy(() =>
  pageOf(
    agentSummaryView,
    'A page of agents, newest first (deleted ones only with `includeDeleted=true`; an agent key sees only itself).',
  ),
);

export const agentView = /* @__PURE__ */ lazy(() =>
  view(
    {
      ...summaryFields(),
      apiKey: describe(
        z.nullable(apiKeyView),
        "Metadata of the agent's current API key (including `lastUsedAt`), never the key itself; null if it has none.",
      ),
      policies: describe(z.array(policyView), "The active spend policies of the agent's wallet."),
    },
    'An agent with its current API key and its active spend policies.',
    {
      ...summaryExample,
      apiKey: {
        ...(exampleOf(apiKeyView) as ApiKeyView),
        id: 'key_ByIx5EyI7we4SWisSpYPYJ85',
        name: 'Research Agent agent key',
        permissions: AGENT_KEY_EXAMPLE,
        walletId: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      },
      policies: [exampleOf(policyView) as PolicyView],
    },
  ),
);
export type AgentView = z.infer<typeof agentView>;

export function presentAgent(details: AgentDetails): AgentView {
  return {
    ...presentAgentSummary(details.wallet),
    apiKey: details.apiKey ? presentApiKey(details.apiKey) : null,
    policies: details.policies.map(presentPolicy),
  };
}

const createdFields = () => ({
  ...summaryFields(),
  apiKeyId: id('apiKey', 'The API key just issued to the agent.'),
  apiKey: rawKey(),
  apiKeyExpiresAt: nullableTimestamp(
    "When the agent's key stops working: the expiry of the key that created the agent, if it has one (a key can not mint a key that outlives it); null if it never expires.",
  ),
  permissions: permissions('Permissions of the agent key.'),
  policyIds: policyIds(),
  policyId: z.optional(
    nullableId(
      'policy',
      'Only for an agent created from a template: the spend policy the template created. Absent otherwise.',
    ),
  ),
});

export const createdAgentView = /* @__PURE__ */ lazy(() =>
  view(
    createdFields(),
    'A newly created agent, with its secret API key (returned only in this answer). Fund it with adjust-budget.',
    {
      ...summaryExample,
      balance: '0.00000000',
      apiKey: 'svc_test_SAn5O5IUxe49NlFI0piLZ31bSdqVtFaeCfqK7d',
      apiKeyId: 'key_ByIx5EyI7we4SWisSpYPYJ85',
      apiKeyExpiresAt: null,
      permissions: AGENT_KEY_EXAMPLE,
      policyIds: ['pol_yuz6d9LmU9onFzpanwoj9ory'],
      policyId: 'pol_yuz6d9LmU9onFzpanwoj9ory',
    },
  ),
);
export type CreatedAgentView = z.infer<typeof createdAgentView>;

/** The creation answer: the raw key is shown exactly once; `policyId` only for template creations. */
export function presentCreatedAgent(
  result: Awaited<ReturnType<AgentService['create']>>,
  withPolicyId: boolean,
): CreatedAgentView {
  return {
    ...presentAgentSummary(result.wallet),
    apiKey: result.rawKey,
    apiKeyId: result.apiKey.id,
    apiKeyExpiresAt: result.apiKey.expiresAt ?? null,
    permissions: result.apiKey.permissions,
    policyIds: result.policies.map((p) => p.id),
    ...(withPolicyId ? { policyId: result.policies[0]?.id ?? null } : {}),
  };
}

export const agentTemplateView = /* @__PURE__ */ lazy(() =>
  view(
    {
      templateId: enumOf(TEMPLATE_IDS, 'Template id, to pass as `templateId` when creating an agent from it.'),
      name: text('Template name, also the name of the policy it creates.'),
      maxTransactionAmount: money('Largest single payment the created policy allows ("0.00": a read-only agent).'),
      dailyLimit: money('Daily spend limit of the created policy.'),
      requireHumanApproval: flag('Whether every payment of the agent waits for human approval.'),
      readOnly: flag('Whether the agent can only read (zero limits, `wallets:read` and `payments:read` only).'),
      permissions: permissions('Permissions of the agent key the template issues.'),
    },
    'An agent template: a ready-made set of key permissions and one spend policy.',
    {
      templateId: 'research',
      name: 'Research Agent',
      maxTransactionAmount: '50.00',
      dailyLimit: '500.00',
      requireHumanApproval: false,
      readOnly: false,
      permissions: AGENT_KEY_EXAMPLE,
    },
  ),
);
export type AgentTemplateView = z.infer<typeof agentTemplateView>;

export const agentTemplatesView = /* @__PURE__ */ lazy(() =>
  listOf(agentTemplateView, 'The agent templates.', 'Every template.'),
);
export type AgentTemplatesView = z.infer<typeof agentTemplatesView>;

export function presentAgentTemplates(templates: readonly AgentTemplate[]): AgentTemplatesView {
  return { data: [...templates] };
}

export const agentStatusView = /* @__PURE__ */ lazy(() =>
  view(
    { id: agentId(), status: walletStatus('The status now: FROZEN after pause, ACTIVE after resume.') },
    'The answer of pausing or resuming an agent (repeating either changes nothing and answers the same).',
    { id: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h', status: 'FROZEN' },
  ),
);
export type AgentStatusView = z.infer<typeof agentStatusView>;

export const agentKeyRotatedView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: agentId(),
      apiKey: rawKey(),
      apiKeyId: id('apiKey', 'The new API key.'),
      revokedKeyId: id('apiKey', 'The previous key, revoked in the same transaction.'),
    },
    "The answer of rotating an agent's key: the old key stops working and the new one (shown only here) replaces it at once.",
    {
      id: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      apiKey: 'svc_test_7GmR2xWqL9cVn4BtY8sKp3JdFz6HaE1uNq0T5j',
      apiKeyId: 'key_8Ej03yTwZN6jwUC3a19fdOHK',
      revokedKeyId: 'key_ByIx5EyI7we4SWisSpYPYJ85',
    },
  ),
);
export type AgentKeyRotatedView = z.infer<typeof agentKeyRotatedView>;

export const agentDeletedView = /* @__PURE__ */ lazy(() =>
  view(
    { id: agentId(), deleted: flag('Always true.'), sweptAmount: balance('Balance returned to the main wallet.') },
    'The answer of deleting an agent: frozen for good, balance swept to the main wallet, key revoked; the record stays readable.',
    { id: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h', deleted: true, sweptAmount: '25.50000000' },
  ),
);
export type AgentDeletedView = z.infer<typeof agentDeletedView>;

export const budgetAdjustedView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: agentId(),
      adjustment: number(
        'The signed amount moved, as a JSON number: positive from the main wallet to the agent, negative back.',
      ),
      newBalance: balance("The agent's available balance right after the adjustment."),
      currency: usd(),
      transactionId: id('transaction', 'The BUDGET_ADJUSTMENT transaction.'),
    },
    "The answer of adjusting an agent's budget (one double-entry transaction between the main wallet and the agent).",
    {
      id: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      adjustment: 12.34,
      newBalance: '262.34000000',
      currency: 'USD',
      transactionId: 'txn_2wHYq8yGFiJin01BVhz8nQja',
    },
  ),
);
export type BudgetAdjustedView = z.infer<typeof budgetAdjustedView>;

/** Type-only: what the agent service answers as is must fit its view (a drift fails to compile). */
export type AgentAnswersConform = [
  Conforms<Awaited<ReturnType<AgentService['pause']>>, AgentStatusView>,
  Conforms<Awaited<ReturnType<AgentService['resume']>>, AgentStatusView>,
  Conforms<Awaited<ReturnType<AgentService['rotateKey']>>, AgentKeyRotatedView>,
  Conforms<Awaited<ReturnType<AgentService['remove']>>, AgentDeletedView>,
  Conforms<AgentTemplate, AgentTemplateView>,
];
