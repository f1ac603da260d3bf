import { describe, expect, it } from 'vitest';
import { API_KEY_STATES } from '../../shared/domain/api-keys/api-key-states.js';
import { APPROVAL_STATES } from '../../shared/domain/approvals/approval-states.js';
import { MERCHANT_STATES } from '../../shared/domain/merchants/merchant-states.js';
import { KYB_STATES } from '../../shared/domain/organizations/kyb-states.js';
import { TRANSACTION_STATES } from '../../shared/domain/payments/transaction-states.js';
import { POLICY_STATES } from '../../shared/domain/policies/policy-states.js';
import {
  canTransition,
  fromStatesOf,
  nonTerminalStatesOf,
  targetOf,
  terminalStatesOf,
} from '../../shared/domain/state-table.js';
import { TRANSFER_END_STATUSES, TRANSFER_STATES } from '../../shared/domain/transfers/transfer-states.js';
import { WALLET_STATES } from '../../shared/domain/wallets/wallet-states.js';
import { WEBHOOK_STATES } from '../../shared/domain/webhooks/webhook-states.js';

describe('state tables', () => {
  it('decides an approval once: every decision leaves PENDING only', () => {
    for (const trigger of ['approve', 'reject', 'expire', 'fail'] as const)
      expect(fromStatesOf(APPROVAL_STATES, trigger)).toEqual(['PENDING']);
    expect(targetOf(APPROVAL_STATES, 'approve')).toBe('APPROVED');
    expect(canTransition(APPROVAL_STATES, 'APPROVED', 'reject')).toBe(false);
    expect(nonTerminalStatesOf(APPROVAL_STATES)).toEqual(['PENDING']);
    expect(terminalStatesOf(APPROVAL_STATES).sort()).toEqual(['APPROVED', 'EXPIRED', 'FAILED', 'REJECTED']);
  });

  it('ends a transfer COMPLETED, FAILED or CANCELLED (the end states the transfer workflow stops on), never INITIATED or PENDING', () => {
    expect(terminalStatesOf(TRANSFER_STATES).sort()).toEqual(['CANCELLED', 'COMPLETED', 'FAILED']);
    expect(TRANSFER_END_STATUSES).toEqual(terminalStatesOf(TRANSFER_STATES));
    expect(nonTerminalStatesOf(TRANSFER_STATES).sort()).toEqual(['INITIATED', 'PENDING']);
  });

  it('posts, rejects or fails a queued payment, and reverses a posted one once', () => {
    expect(canTransition(TRANSACTION_STATES, 'QUEUED', 'post')).toBe(true);
    expect(canTransition(TRANSACTION_STATES, 'POSTED', 'reverse')).toBe(true);
    expect(canTransition(TRANSACTION_STATES, 'REVERSED', 'reverse')).toBe(false);
    expect(canTransition(TRANSACTION_STATES, 'QUEUED', 'reverse')).toBe(false);
    expect(targetOf(TRANSACTION_STATES, 'fail')).toBe('FAILED');
  });

  it('pauses and resumes a wallet, closes it from either state, and never reopens a closed one', () => {
    expect(targetOf(WALLET_STATES, 'freeze')).toBe('FROZEN');
    expect(fromStatesOf(WALLET_STATES, 'unfreeze')).toEqual(['FROZEN']);
    expect(fromStatesOf(WALLET_STATES, 'close')).toEqual(['ACTIVE', 'FROZEN']);
    expect(nonTerminalStatesOf(WALLET_STATES)).not.toContain('CLOSED');
  });

  it('revokes keys, deletes policies and suspends merchants from ACTIVE only', () => {
    expect(canTransition(API_KEY_STATES, 'REVOKED', 'revoke')).toBe(false);
    expect(targetOf(POLICY_STATES, 'delete')).toBe('DELETED');
    expect(fromStatesOf(MERCHANT_STATES, 'suspend')).toEqual(['ACTIVE']);
  });

  it('deletes a webhook from ENABLED only, for good', () => {
    expect(fromStatesOf(WEBHOOK_STATES, 'delete')).toEqual(['ENABLED']);
    expect(nonTerminalStatesOf(WEBHOOK_STATES)).toEqual(['ENABLED']);
  });

  it('accepts a KYB submission until verification, and the operator decision whatever the status', () => {
    expect(canTransition(KYB_STATES, 'REJECTED', 'submit')).toBe(true);
    expect(canTransition(KYB_STATES, 'VERIFIED', 'submit')).toBe(false);
    expect(canTransition(KYB_STATES, 'VERIFIED', 'reject')).toBe(true);
    expect(targetOf(KYB_STATES, 'autoVerify')).toBe('VERIFIED');
  });
});
