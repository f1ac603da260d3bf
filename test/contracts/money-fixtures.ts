import { expect } from 'vitest';
import Big from 'big.js';
import { newId } from '../../shared/domain/ids.js';
import type { Environment } from '../../shared/domain/tenancy.js';
import type { Page, PageRequest, Wallet } from '../../shared/domain/types.js';

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
