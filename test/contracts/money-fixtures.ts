import { expect } from 'vitest';
import Big from 'big.js';
import { newId } from '../../shared/domain/ids.js';
import type { Environment } from '../../shared/domain/tenancy.js';
import type { Page, PageRequest, Transaction, Wallet } from '../../shared/domain/types.js';

/** Shared makings of the store contracts (test/contracts/*-store-contract.ts). */
export const SANDBOX: Environment = 'SANDBOX';

export function organizationScope() {
  return { organizationId: newId('organization'), environment: SANDBOX };
}

export function walletOf(
  scope: { organizationId: string; environment: Environment },
  balance: string,
  overrides: Partial<Wallet> = {},
): Wallet {
  return {
    id: newId('wallet'),
    organizationId: scope.organizationId,
    environment: scope.environment,
    name: 'Contract wallet',
    walletType: 'AGENT',
    isMain: false,
    status: 'ACTIVE',
    balance: new Big(balance),
    pendingBalance: new Big(0),
    heldBalance: new Big(0),
    currency: 'USD',
    createdAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

/** An ISO time `minutes` after a fixed start: records of one test in a known order. */
export const at = (minutes: number) =>
  new Date(Date.parse('2026-11-21T10:00:00.000Z') + minutes * 60_000).toISOString();

/** A POSTED payment of `amount` between two wallets, `minutes` after the fixed start (not committed). */
export function paymentOf(
  from: Wallet,
  to: Wallet,
  amount: string,
  minutes: number,
  overrides: Partial<Transaction> = {},
): Transaction {
  return {
    id: newId('transaction'),
    type: 'PAYMENT',
    organizationId: from.organizationId,
    environment: from.environment,
    from: from.id,
    to: to.id,
    amount,
    fee: '0.00',
    currency: 'USD',
    status: 'POSTED',
    createdAt: at(minutes),
    postedAt: at(minutes),
    ...overrides,
  };
}

/** What a rejected commit threw, for `expect(...).rejects.toMatchObject(refusal(...))`. */
export const refusal = (code: string, details?: Record<string, unknown>) => ({
  code,
  ...(details ? { details: expect.objectContaining(details) } : {}),
});

/** The ids of a whole listing, read page by page (`limit` each) through `lastKey`: what a client paging through it sees. */
export async function collectIds<T extends { id: string }>(
  list: (page: PageRequest) => Promise<Page<T>>,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await list({ limit, ...(startKey ? { startKey } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map((item) => item.id));
    startKey = page.lastKey;
  } while (startKey);
  return ids;
}
