import Big from 'big.js';
import type { Wallet } from '../types.js';
import { exactBalances, hotInvariants } from './hot/hot-balances.js';
import type { HotWalletParts } from './hot/hot-types.js';
import { legsOf, movedMoney, type JournalRecord } from './journal.js';
import { SYSTEM_ACCOUNT_PREFIX } from './posting.js';

export interface LedgerReport {
  /** Per environment: the signed sum over wallets (available + held + pending) and system accounts, the legs posted, the wallets. */
  environments: Record<string, { sum: string; entries: number; wallets: number }>;
  problems: string[];
}

const zero = () => new Big(0);
const add = (map: Map<string, Big>, key: string, amount: Big) => map.set(key, (map.get(key) ?? zero()).plus(amount));

/**
 * The ledger's invariants over its wallets and its journal: every record's legs sum to zero; per
 * environment the wallets' balances (available, held and pending) and the system accounts (the
 * sums of their legs) sum to zero; each wallet's available, held and pending balances equal the
 * sums of its legs, and none is negative; a hold is settled (captured or voided) at most once, and
 * exactly when it is no longer HELD; a movement is reversed at most once. A hot wallet's balances
 * are its exact ones (main, folds, inbox and lanes: hot/hot-balances.ts), and its sub-items obey
 * the hot invariants (`hot`: its parts, with the limits of its policies when known).
 */
export function ledgerInvariants(
  walletsAsStored: Wallet[],
  records: JournalRecord[],
  hot: { parts: HotWalletParts; limits?: Map<string, Big> }[] = [],
): LedgerReport {
  const problems: string[] = [];
  const hotById = new Map(hot.map((entry) => [entry.parts.walletId, entry]));
  for (const { parts, limits } of hot) problems.push(...hotInvariants(parts, limits));
  const wallets = walletsAsStored.map((wallet) => {
    const entry = hotById.get(wallet.id);
    return entry ? { ...wallet, ...exactBalances(entry.parts) } : wallet;
  });
  const byEnvironment = new Map<string, { sum: Big; entries: number; wallets: number }>();
  const totalsOf = (environment: string) => {
    const totals = byEnvironment.get(environment) ?? { sum: zero(), entries: 0, wallets: 0 };
    byEnvironment.set(environment, totals);
    return totals;
  };
  const available = new Map<string, Big>();
  const held = new Map<string, Big>();
  const pending = new Map<string, Big>();
  const settlements = new Map<string, string[]>();
  const reversals = new Map<string, string[]>();
  const byId = new Map(records.map((record) => [record.id, record]));

  for (const record of records) {
    if (record.holdId) settlements.set(record.holdId, [...(settlements.get(record.holdId) ?? []), record.id]);
    if (record.type === 'REVERSAL' && record.reversalOf)
      reversals.set(record.reversalOf, [...(reversals.get(record.reversalOf) ?? []), record.id]);
    if (!movedMoney(record)) continue;
    const legs = legsOf(record);
    const sum = legs.reduce((total, leg) => total.plus(leg.amount), zero());
    if (!sum.eq(0)) problems.push(`transaction ${record.id}: legs sum to ${sum.toFixed()}, not 0`);
    const totals = totalsOf(record.environment);
    totals.entries += legs.length;
    for (const leg of legs) {
      if (leg.account.startsWith(SYSTEM_ACCOUNT_PREFIX)) totals.sum = totals.sum.plus(leg.amount);
      else add(leg.bucket === 'held' ? held : leg.bucket === 'pending' ? pending : available, leg.account, leg.amount);
    }
  }

  for (const wallet of wallets) {
    const totals = totalsOf(wallet.environment);
    totals.wallets++;
    totals.sum = totals.sum.plus(wallet.balance).plus(wallet.heldBalance).plus(wallet.pendingBalance);
    const expected = available.get(wallet.id) ?? zero();
    const expectedHeld = held.get(wallet.id) ?? zero();
    if (!wallet.balance.eq(expected))
      problems.push(
        `wallet ${wallet.id}: balance ${wallet.balance.toFixed()} but its legs sum to ${expected.toFixed()}`,
      );
    const expectedPending = pending.get(wallet.id) ?? zero();
    if (!wallet.heldBalance.eq(expectedHeld))
      problems.push(
        `wallet ${wallet.id}: held ${wallet.heldBalance.toFixed()} but its held legs sum to ${expectedHeld.toFixed()}`,
      );
    if (!wallet.pendingBalance.eq(expectedPending))
      problems.push(
        `wallet ${wallet.id}: pending ${wallet.pendingBalance.toFixed()} but its pending legs sum to ${expectedPending.toFixed()}`,
      );
    if (wallet.pendingBalance.lt(0))
      problems.push(`wallet ${wallet.id}: negative pending balance ${wallet.pendingBalance.toFixed()}`);
    if (wallet.balance.lt(0)) problems.push(`wallet ${wallet.id}: negative balance ${wallet.balance.toFixed()}`);
    if (wallet.heldBalance.lt(0))
      problems.push(`wallet ${wallet.id}: negative held balance ${wallet.heldBalance.toFixed()}`);
  }
  for (const [environment, totals] of byEnvironment) {
    if (!totals.sum.eq(0))
      problems.push(`environment ${environment}: wallets and system accounts sum to ${totals.sum.toFixed()}, not 0`);
  }
  for (const record of records) {
    if (record.type !== 'HOLD') continue;
    const settledBy = settlements.get(record.id) ?? [];
    if (settledBy.length > 1)
      problems.push(`hold ${record.id}: settled ${settledBy.length} times (${settledBy.join(', ')})`);
    if ((record.status === 'HELD') !== (settledBy.length === 0))
      problems.push(`hold ${record.id}: ${record.status} with ${settledBy.length} settlement(s)`);
  }
  for (const [originalId, by] of reversals) {
    if (by.length > 1) problems.push(`transaction ${originalId}: reversed ${by.length} times`);
    const original = byId.get(originalId);
    if (original && (original.status !== 'REVERSED' || original.reversedBy !== by[0]))
      problems.push(`transaction ${originalId}: reversed by ${by.join(', ')} but ${original.status}`);
  }
  const environments = Object.fromEntries(
    [...byEnvironment].map(([environment, t]) => [
      environment,
      { sum: t.sum.toFixed(), entries: t.entries, wallets: t.wallets },
    ]),
  );
  return { environments, problems };
}
