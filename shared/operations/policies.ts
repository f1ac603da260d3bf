import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { createPolicyService } from '../domain/policies/policy-service.js';
import { presentPolicy } from '../domain/policies/policy-view.js';
import { HINTS, defineGroup, operation } from './define.js';
import { walletId } from './fields.js';
import { listOperation } from './list.js';
import { createPolicyBody, updatePolicyBody } from './policy-fields.js';

export interface PoliciesServices {
  policies: ReturnType<typeof createPolicyService>;
}

const op = operation<PoliciesServices>();
const list = listOperation<PoliciesServices>();
const policyParam = { id: 'The policy id (`pol_...`).' };

export const POLICIES = defineGroup<PoliciesServices>()('policies', {}, [
  op({
    name: 'createPolicy',
    summary: 'Create a spend policy',
    description:
      'Adds a spend policy to a wallet: per-payment maximum, period limits, allowed and blocked recipients, allowed hours and human approval. Every active policy of a wallet applies to each payment.',
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.policy.create,
    http: { method: 'POST', path: '/v1/policies', status: 201 },
    mcp: { tool: 'create_policy', hints: HINTS.create },
    body: createPolicyBody,
    output: 'policyView',
    errors: ['WALLET_NOT_FOUND', 'INVALID_AMOUNT', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, body }) => services.policies.create(auth, audit, body),
    present: presentPolicy,
  }),
  list({
    name: 'listPolicies',
    summary: 'List spend policies',
    description: 'Active spend policies of the organization, or of one wallet, newest first.',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/policies', status: 200 },
    mcp: { tool: 'list_policies', hints: HINTS.read },
    filters: () => ({ walletId: z.optional(walletId('Only the policies of this wallet.')) }),
    output: 'policyPageView',
    errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    list: ({ services, auth, query }, page) => services.policies.list(auth, query.walletId, page),
    present: presentPolicy,
  }),
  op({
    name: 'getPolicy',
    summary: 'Get a spend policy',
    description: 'One spend policy with its rules.',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/policies/{id}', status: 200 },
    params: policyParam,
    mcp: { tool: 'get_policy', hints: HINTS.read },
    output: 'policyView',
    errors: ['POLICY_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, params }) => services.policies.get(auth, params.id!),
    present: presentPolicy,
  }),
  op({
    name: 'updatePolicy',
    summary: 'Change a spend policy',
    description:
      'Changes the given rules of a policy; `null` removes an optional rule, absent fields stay as they are.',
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.policy.update,
    http: { method: 'PATCH', path: '/v1/policies/{id}', status: 200 },
    params: policyParam,
    mcp: { tool: 'update_policy', hints: HINTS.update },
    body: updatePolicyBody,
    output: 'policyView',
    errors: ['POLICY_NOT_FOUND', 'INVALID_AMOUNT', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params, body }) => services.policies.update(auth, audit, params.id!, body),
    present: presentPolicy,
  }),
  op({
    name: 'deletePolicy',
    summary: 'Delete a spend policy',
    description: 'Removes a policy from its wallet; it no longer applies to payments.',
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.policy.delete,
    http: { method: 'DELETE', path: '/v1/policies/{id}', status: 200 },
    params: policyParam,
    mcp: { tool: 'delete_policy', hints: HINTS.destructive },
    output: 'policyDeletedView',
    errors: ['POLICY_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params }) => services.policies.remove(auth, audit, params.id!),
  }),
]);
