import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import { evaluatePolicies } from '../../shared/domain/policies/policy-rules.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';

const AT = '2026-11-22T10:00:00.000Z';
const policy = (rules: Partial<Policy>): Policy => ({
  id: 'pol_1', walletId: 'wal_payer', organizationId: 'org_1', environment: 'SANDBOX', name: 'P',
  maxTransactionAmount: new Big(1000), requireHumanApproval: false, status: 'ACTIVE', createdAt: AT, updatedAt: AT, ...rules,
});
const intent = (to: string) => ({ walletId: 'wal_payer', to: 'wal_merchant', toAliases: [to], amount: new Big(5), at: new Date(AT) });

function deniedRule(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'POLICY_DENIED') return error.details?.rule;
    throw error;
  }
  return undefined;
}

/** Defect 1 (issue 9): merchant domains are one payee whatever their case (decisions.md section 3). */
describe('recipient rules compare merchant domains without case', () => {
  it('blocks merchant:EVIL.example.com under a policy that blocks merchant:evil.example.com', () => {
    expect(deniedRule(() => evaluatePolicies([policy({ blockedRecipients: ['merchant:evil.example.com'] })], [], intent('merchant:EVIL.example.com')))).toBe('blockedRecipients');
  });

  it('blocks merchant:evil.example.com under a list stored in another case (written before normalization)', () => {
    expect(deniedRule(() => evaluatePolicies([policy({ blockedRecipients: ['merchant:Evil.Example.COM'] })], [], intent('merchant:evil.example.com')))).toBe('blockedRecipients');
  });

  it('allows an allow-listed merchant whatever the case of the payment', () => {
    expect(deniedRule(() => evaluatePolicies([policy({ allowedRecipients: ['merchant:shop.example.com'] })], [], intent('merchant:SHOP.example.com')))).toBeUndefined();
    expect(deniedRule(() => evaluatePolicies([policy({ allowedRecipients: ['merchant:shop.example.com'] })], [], intent('merchant:other.example.com')))).toBe('allowedRecipients');
  });

  it('keeps wallet ids case-sensitive', () => {
    expect(deniedRule(() => evaluatePolicies([policy({ blockedRecipients: ['WAL_MERCHANT'] })], [], intent('merchant:x.example.com')))).toBeUndefined();
    expect(deniedRule(() => evaluatePolicies([policy({ blockedRecipients: ['wal_merchant'] })], [], intent('merchant:x.example.com')))).toBe('blockedRecipients');
  });
});
