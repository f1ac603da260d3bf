import type { Policy, SpendCounter } from '../../domain/policies/policy-types.js';
import type { Approval, IdempotencyRecord, MerchantProfile, Transaction } from '../../domain/types.js';
import { readBig, toNumberAttribute } from '../client.js';
import { keys } from '../keys.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';
import { ENTITY, type Item } from './codecs.js';

/** Codecs of the ledger's records: payments, policies, counters, approvals, merchants, idempotency. */
const MONEY_FIELDS = ['maxTransactionAmount', 'dailyLimit', 'weeklyLimit', 'monthlyLimit', 'approvalThreshold'] as const;

const strip = (item: Item): Item => {
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g1s, GSI2PK: _g2, GSI2SK: _g2s, GSI3PK: _g3, GSI3SK: _g3s, GSI4PK: _g4, GSI4SK: _g4s, entityType: _e, [TTL_ATTRIBUTE]: _ttl, ...rest } = item;
  return rest;
};

export const transactionCodec = {
  fromItem(item: Item): Transaction {
    return strip(item) as unknown as Transaction;
  },
};

export const POLICY_ENTITY = 'POLICY';
export const SPEND_ENTITY = 'SPEND_COUNTER';
export const APPROVAL_ENTITY = 'APPROVAL';
export const MERCHANT_ENTITY = 'MERCHANT';

export const policyCodec = {
  toItem(policy: Policy): Item {
    const item: Item = {
      ...keys.policy(policy.walletId, policy.id),
      ...keys.policiesOfOrganization(policy.organizationId, policy.environment),
      GSI1SK: `${policy.createdAt}#${policy.id}`,
      entityType: POLICY_ENTITY,
      ...policy,
    };
    for (const field of MONEY_FIELDS) {
      const value = policy[field];
      item[field] = value === undefined ? undefined : toNumberAttribute(value);
    }
    return item;
  },
  pointerItem(policy: Policy): Item {
    return { ...keys.policyPointer(policy.id), entityType: 'POLICY_POINTER', walletId: policy.walletId };
  },
  fromItem(item: Item): Policy {
    const policy = strip(item) as unknown as Policy & Record<string, unknown>;
    for (const field of MONEY_FIELDS) {
      if (item[field] === undefined || item[field] === null) delete policy[field];
      else (policy as Record<string, unknown>)[field] = readBig(item[field]);
    }
    if (typeof item.allowedHoursUtc === 'object' && item.allowedHoursUtc) {
      const hours = item.allowedHoursUtc as Record<string, unknown>;
      policy.allowedHoursUtc = { start: Number(readBig(hours.start)), end: Number(readBig(hours.end)) };
    }
    return policy;
  },
};

export const spendCounterCodec = {
  fromItem(item: Item): SpendCounter {
    return { walletId: String(item.walletId), period: item.period as SpendCounter['period'], periodKey: String(item.periodKey), spent: readBig(item.spent ?? '0') };
  },
};

export const approvalCodec = {
  toItem(approval: Approval): Item {
    return {
      ...keys.approval(approval.id),
      ...keys.approvalsOfOrganization(approval.organizationId, approval.environment),
      GSI1SK: `${approval.createdAt}#${approval.id}`,
      ...(approval.status === 'PENDING' ? { ...keys.pendingApprovals(), ...keys.pendingApprovalSort(approval.expiresAt, approval.id) } : {}),
      entityType: APPROVAL_ENTITY,
      ...approval,
    };
  },
  fromItem(item: Item): Approval {
    return strip(item) as unknown as Approval;
  },
};

export const merchantCodec = {
  toItem(merchant: MerchantProfile): Item {
    return { ...keys.merchant(merchant.environment, merchant.domain), entityType: MERCHANT_ENTITY, ...merchant };
  },
  fromItem(item: Item): MerchantProfile {
    return strip(item) as unknown as MerchantProfile;
  },
};

export const idempotencyCodec = {
  toItem(record: IdempotencyRecord): Item {
    const { expiresAtEpochS, ...rest } = record;
    return { ...keys.idempotency(record.organizationId, record.environment, record.key), entityType: ENTITY.idempotency, ...rest, expiresAtEpochS, [TTL_ATTRIBUTE]: expiresAtEpochS };
  },
  fromItem(item: Item): IdempotencyRecord {
    const record = strip(item) as Record<string, unknown>;
    return { ...(record as unknown as IdempotencyRecord), status: Number(readBig(item.status)), expiresAtEpochS: Number(readBig(item.expiresAtEpochS)) };
  },
};
