import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import { evaluatePolicies } from '../../shared/domain/policies/policy-rules.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';

const AT = '2026-11-22T10:00:00.000Z';
const policy = (rules: Partial<Policy>): Policy => ({
  id: 'pol_1',
  walletId: 'wal_payer',
  organizationId: 'org_1',
  environment: 'SANDBOX',
  name: 'P',
  maxTransactionAmount: new Big(1000),
  requireHumanApproval: false,
  status: 'ACTIVE',
  createdAt: AT,
  updatedAt: AT,
  ...rules,
});
const intent = (to: string) => ({
  walletId: 'wal_payer',
  to: 'wal_merchant',
  toAliases: [to],
  amount: new Big(5),
  at: new Date(AT),
});

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
    expect(
      deniedRule(() =>
        evaluatePolicies(
          [policy({ blockedRecipients: ['merchant:evil.example.com'] })],
          [],
          intent('merchant:EVIL.example.com'),
        ),
      ),
    ).toBe('blockedRecipients');
  });

  it('blocks merchant:evil.example.com under a list stored in another case (written before normalization)', () => {
    expect(
      deniedRule(() =>
        evaluatePolicies(
          [policy({ blockedRecipients: ['merchant:Evil.Example.COM'] })],
          [],
          intent('merchant:evil.example.com'),
        ),
      ),
    ).toBe('blockedRecipients');
  });

  it('allows an allow-listed merchant whatever the case of the payment', () => {
    expect(
      deniedRule(() =>
        evaluatePolicies(
          [policy({ allowedRecipients: ['merchant:shop.example.com'] })],
          [],
          intent('merchant:SHOP.example.com'),
        ),
      ),
    ).toBeUndefined();
    expect(
      deniedRule(() =>
        evaluatePolicies(
          [policy({ allowedRecipients: ['merchant:shop.example.com'] })],
          [],
          intent('merchant:other.example.com'),
        ),
      ),
    ).toBe('allowedRecipients');
  });

  it('keeps wallet ids case-sensitive', () => {
    expect(
      deniedRule(() =>
        evaluatePolicies([policy({ blockedRecipients: ['WAL_MERCHANT'] })], [], intent('merchant:x.example.com')),
      ),
    ).toBeUndefined();
    expect(
      deniedRule(() =>
        evaluatePolicies([policy({ blockedRecipients: ['wal_merchant'] })], [], intent('merchant:x.example.com')),
      ),
    ).toBe('blockedRecipients');
  });
});

/**
 * USDC entries (docs/api.md "Transfers", spend policies). One private key holds an EVM address on
 * every EVM chain, so for money leaving a wallet: a blocked EVM address is blocked on every EVM
 * chain whatever chain the entry names; a chainless `usdc:<address>` covers every chain of its
 * family in both lists; an allowed entry naming a chain allows that chain only; Solana is exact.
 */
describe('USDC entries match a withdrawal by address, and by chain only where narrow is the safe reading', () => {
  const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const EVM_OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
  const SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
  const withdrawal = (chain: string, address: string) => ({
    walletId: 'wal_payer',
    to: `usdc:${chain}:${address}`,
    amount: new Big(5),
    at: new Date(AT),
  });
  const blocked = (entry: string, chain: string, address: string) =>
    deniedRule(() => evaluatePolicies([policy({ blockedRecipients: [entry] })], [], withdrawal(chain, address))) ===
    'blockedRecipients';
  const allowed = (entry: string, chain: string, address: string) =>
    deniedRule(() => evaluatePolicies([policy({ allowedRecipients: [entry] })], [], withdrawal(chain, address))) ===
    undefined;

  it.each([
    // entry, withdrawal chain, withdrawal address, blocked?
    [`usdc:Ethereum:${EVM}`, 'Ethereum', EVM, true],
    [`usdc:Ethereum:${EVM}`, 'Base', EVM, true],
    [`usdc:Base:${EVM}`, 'Ethereum', EVM.toLowerCase(), true],
    [`usdc:ethereum:${EVM.toLowerCase()}`, 'Avalanche', EVM, true],
    [`usdc:${EVM}`, 'Ethereum', EVM, true],
    [`usdc:${EVM}`, 'Polygon', EVM.toUpperCase().replace('0X', '0x'), true],
    [`usdc:Ethereum:${EVM}`, 'Base', EVM_OTHER, false],
    [`usdc:${EVM}`, 'Arbitrum', EVM_OTHER, false],
    [`usdc:Solana:${SOL}`, 'Solana', SOL, true],
    [`usdc:${SOL}`, 'Solana', SOL, true],
    [`usdc:Solana:${SOL}`, 'Solana', SOL.toLowerCase(), false],
    [`usdc:${SOL}`, 'Solana', SOL.toUpperCase(), false],
  ])('block list %s, withdrawal on %s to %s: blocked %s', (entry, chain, address, expected) => {
    expect(blocked(entry, chain, address)).toBe(expected);
  });

  it.each([
    // entry, withdrawal chain, withdrawal address, allowed?
    [`usdc:Ethereum:${EVM}`, 'Ethereum', EVM.toLowerCase(), true],
    [`usdc:Ethereum:${EVM}`, 'Base', EVM, false],
    [`usdc:base:${EVM.toLowerCase()}`, 'Base', EVM, true],
    [`usdc:Base:${EVM}`, 'Optimism', EVM, false],
    [`usdc:${EVM}`, 'Ethereum', EVM, true],
    [`usdc:${EVM}`, 'Optimism', EVM.toLowerCase(), true],
    [`usdc:${EVM}`, 'Base', EVM_OTHER, false],
    [`usdc:Solana:${SOL}`, 'Solana', SOL, true],
    [`usdc:${SOL}`, 'Solana', SOL, true],
    [`usdc:Solana:${SOL}`, 'Solana', SOL.toLowerCase(), false],
  ])('allow list %s, withdrawal on %s to %s: allowed %s', (entry, chain, address, expected) => {
    expect(allowed(entry, chain, address)).toBe(expected);
  });

  it('never matches an EVM entry to a Solana withdrawal or the reverse, nor a USDC entry to a wallet or merchant', () => {
    expect(blocked(`usdc:${EVM}`, 'Solana', SOL)).toBe(false);
    expect(blocked(`usdc:${SOL}`, 'Ethereum', EVM)).toBe(false);
    expect(
      deniedRule(() =>
        evaluatePolicies([policy({ blockedRecipients: [`usdc:${EVM}`] })], [], intent('merchant:x.example.com')),
      ),
    ).toBeUndefined();
  });
});
