import type { Environment } from '../../domain/tenancy.js';
import type { Policy } from '../../domain/policies/policy-types.js';
import { readBig, readInt, toNumberAttribute } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { walletKeys } from './wallet.js';
import type { IndexUsage } from '../table-schema.js';

export const POLICY_ENTITY = 'POLICY';
export const POLICY_POINTER_ENTITY = 'POLICY_POINTER';

const MONEY_FIELDS = [
  'maxTransactionAmount',
  'dailyLimit',
  'weeklyLimit',
  'monthlyLimit',
  'approvalThreshold',
] as const;
const SORT_PREFIX = 'POLICY#';

/** Policies live in their wallet's partition (read with the wallet in one query); a pointer finds them by id. */
export const policyKeys = {
  primary: (walletId: string, policyId: string): ItemKey => ({
    PK: walletKeys.partition(walletId),
    SK: `${SORT_PREFIX}${policyId}`,
  }),
  sortPrefix: SORT_PREFIX,
  pointer: (policyId: string): ItemKey => ({ PK: `POLICY#${policyId}`, SK: 'POLICY' }),
  /** GSI1: the policies of an organization's environment, newest first. */
  ofOrganization: (organizationId: string, environment: Environment) => ({
    GSI1PK: `ORG#${organizationId}#${environment}#POLICIES`,
  }),
  listSort: (createdAt: string, policyId: string) => ({ GSI1SK: `${createdAt}#${policyId}` }),
};

export const policyCodec = {
  toItem(policy: Policy): Item {
    const item: Item = {
      ...policyKeys.primary(policy.walletId, policy.id),
      ...policyKeys.ofOrganization(policy.organizationId, policy.environment),
      ...policyKeys.listSort(policy.createdAt, policy.id),
      entityType: POLICY_ENTITY,
      ...policy,
    };
    for (const field of MONEY_FIELDS) {
      const value = policy[field];
      item[field] = value === undefined ? undefined : toNumberAttribute(value);
    }
    return item;
  },
  fromItem(item: Item): Policy {
    const policy = recordOf(item) as unknown as Policy & Record<string, unknown>;
    for (const field of MONEY_FIELDS) {
      if (item[field] === undefined || item[field] === null) delete policy[field];
      else (policy as Record<string, unknown>)[field] = readBig(item[field]);
    }
    // Written before versioning: version 0 (decisions.md section 3, policy-writers.ts).
    policy.version = readInt(item.version);
    if (typeof item.allowedHoursUtc === 'object' && item.allowedHoursUtc) {
      const hours = item.allowedHoursUtc as Record<string, unknown>;
      policy.allowedHoursUtc = { start: Number(readBig(hours.start)), end: Number(readBig(hours.end)) };
    }
    return policy;
  },
};

export const policyPointerCodec = {
  toItem(policy: Pick<Policy, 'id' | 'walletId'>): Item {
    return { ...policyKeys.pointer(policy.id), entityType: POLICY_POINTER_ENTITY, walletId: policy.walletId };
  },
  /** The wallet whose partition holds the policy, if the item is a pointer. */
  walletIdOf(item: Item | undefined): string | undefined {
    return typeof item?.walletId === 'string' ? item.walletId : undefined;
  },
};

/** What each index of POLICY items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const POLICY_INDEXES = {
  POLICY: { GSI1: 'policies of an organization environment' },
} as const satisfies IndexUsage;
