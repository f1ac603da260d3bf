import Big from 'big.js';
import { ApiError } from '../../domain/errors.js';
import { periodKeyOf, type HotWalletParts } from '../../domain/ledger/hot/hot-types.js';
import type { SpendCount } from '../../domain/ledger/posting.js';
import { formatAmount, formatBalance } from '../../domain/money.js';
import { periodLimitDenied } from '../../domain/policies/policy-rules.js';
import { HotMoved, HotRoutingStale, type HotWalletReads, type SlowSplit } from './hot-routes.js';

const ZERO = new Big(0);
const sum = (values: Big[]) => values.reduce((total, value) => total.plus(value), ZERO);
const min = (a: Big, b: Big) => (a.lt(b) ? a : b);

/**
 * The slow path of a hot wallet's debit (three lanes refused it, or the wallet is COOLING): an
 * exact read, then ONE transaction taking from main and the lanes exactly what the read found. So
 * its refusals are exact: INSUFFICIENT_FUNDS only when the whole wallet (folded or not) is short,
 * POLICY_DENIED only when ungranted quota plus every lane's quota of the current policy version is.
 * Money still in the inbox is folded inline first when the reachable funds alone are short.
 */
export async function slowSplit(
  reads: HotWalletReads,
  walletId: string,
  debit: Big,
  spend: SpendCount | undefined,
): Promise<SlowSplit> {
  let parts = await readExisting(reads, walletId);
  refuseUnlessPayable(parts, walletId, debit, spend);
  if (reachable(parts).lt(debit)) {
    await reads.foldAll(walletId);
    parts = await readExisting(reads, walletId);
    refuseUnlessPayable(parts, walletId, debit, spend);
    // Still short of what lanes and main hold: a keeper move is under way (a lane frozen or drained); read again.
    if (reachable(parts).lt(debit)) throw new HotMoved(walletId);
  }
  return splitOf(parts, debit, spend);
}

async function readExisting(reads: HotWalletReads, walletId: string): Promise<HotWalletParts> {
  const parts = await reads.readHotWallet(walletId);
  // Not hot (demoted meanwhile) or gone: routed cold again, where a missing wallet answers WALLET_NOT_FOUND.
  if (!parts) throw new HotRoutingStale(walletId, undefined);
  return parts;
}

const activeLanes = (parts: HotWalletParts) => parts.lanes.filter((lane) => lane.status === 'ACTIVE');

/** What a transaction can take right now: main's balance and the active lanes' available. */
const reachable = (parts: HotWalletParts) =>
  parts.main.balance.plus(sum(activeLanes(parts).map((lane) => lane.available)));

/** The wallet's exact available balance: main, the unfolded accumulators, the inbox and every lane. */
export function exactAvailable(parts: HotWalletParts): Big {
  const unfolded = parts.partitions.map((partition) =>
    partition.credited
      .minus(parts.main.folded[partition.partition] ?? ZERO)
      .plus(sum(partition.inbox.map((item) => item.amount))),
  );
  return parts.main.balance.plus(sum(unfolded)).plus(sum(parts.lanes.map((lane) => lane.available)));
}

/** Everything spent in a period key: main's and every lane's counter. */
const spentOf = (parts: HotWalletParts, key: string) =>
  (parts.main.spend[key] ?? ZERO).plus(sum(parts.lanes.map((lane) => lane.spend[key] ?? ZERO)));

/** A policy changed since the lanes' quotas and main's ungranted were granted: the keeper's re-sync is due. */
const resyncDue = (parts: HotWalletParts) =>
  parts.lanes.some((lane) => lane.policyVersion !== parts.main.policyVersion);

/** The lanes whose quota the payment may take: those granted under main's policyVersion (none while a re-sync is due). */
const quotaLanes = (parts: HotWalletParts) =>
  resyncDue(parts) ? [] : activeLanes(parts).filter((lane) => lane.policyVersion === parts.main.policyVersion);

/**
 * The quota a period key still has: main's ungranted and the current lanes' quota; or, when main has
 * none yet or a policy changed since it was granted (re-sync due: it is the old limit's), the limit
 * less the spend, set in place of the stored value (`replaces`, a condition of the write).
 */
function headroomOf(
  parts: HotWalletParts,
  key: string,
  limit: Big,
): { ungranted: Big; initial?: Big; replaces?: Big; lanes: Big } {
  const lanes = sum(quotaLanes(parts).map((lane) => lane.quota[key] ?? ZERO));
  const stored = parts.main.ungranted[key];
  if (stored !== undefined && !resyncDue(parts)) return { ungranted: stored, lanes };
  const left = limit.minus(spentOf(parts, key));
  const initial = left.gt(0) ? left : ZERO;
  return { ungranted: initial, initial, ...(stored !== undefined ? { replaces: stored } : {}), lanes };
}

/** Deny rules before funds (decisions.md section 3), as the cold writer's mapper answers. */
function refuseUnlessPayable(parts: HotWalletParts, walletId: string, debit: Big, spend: SpendCount | undefined) {
  // A closed agent's wallet is FROZEN: WALLET_FROZEN first, as the cold writer's mapper.
  if (parts.main.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId });
  if (parts.main.deletedAt)
    throw new ApiError('INVALID_STATE', 'The wallet is closed (its agent was deleted).', { walletId });
  for (const period of spend?.periods ?? []) {
    if (!period.limit) continue;
    const key = periodKeyOf(period.period, period.periodKey);
    const room = headroomOf(parts, key, period.limit);
    if (room.ungranted.plus(room.lanes).lt(spend!.amount))
      throw periodLimitDenied({ period: period.period, limit: period.limit }, spentOf(parts, key));
  }
  const exact = exactAvailable(parts);
  if (exact.lt(debit))
    throw new ApiError('INSUFFICIENT_FUNDS', undefined, {
      walletId,
      balance: formatBalance(exact),
      requested: formatAmount(debit),
    });
}

/** Main first, then the fullest lanes; quota from ungranted first, then the lanes of the current version. */
function splitOf(parts: HotWalletParts, debit: Big, spend: SpendCount | undefined): SlowSplit {
  const fromMain = min(parts.main.balance, debit);
  let left = debit.minus(fromMain);
  const byLane = new Map<number, { lane: number; available: Big; quota: Record<string, Big> }>();
  const share = (lane: number) => {
    const found = byLane.get(lane) ?? { lane, available: ZERO, quota: {} };
    byLane.set(lane, found);
    return found;
  };
  for (const lane of [...activeLanes(parts)].sort((a, b) => b.available.cmp(a.available))) {
    if (left.lte(0)) break;
    const take = min(lane.available, left);
    if (take.lte(0)) continue;
    share(lane.lane).available = take;
    left = left.minus(take);
  }
  const ungranted: SlowSplit['ungranted'] = {};
  for (const period of spend && spend.amount.gt(0) ? spend.periods : []) {
    if (!period.limit) continue;
    const key = periodKeyOf(period.period, period.periodKey);
    const room = headroomOf(parts, key, period.limit);
    const fromUngranted = min(room.ungranted, spend!.amount);
    ungranted[key] = {
      take: fromUngranted,
      ...(room.initial !== undefined ? { initial: room.initial } : {}),
      ...(room.replaces !== undefined ? { replaces: room.replaces } : {}),
    };
    let quotaLeft = spend!.amount.minus(fromUngranted);
    for (const lane of quotaLanes(parts).sort((a, b) => (b.quota[key] ?? ZERO).cmp(a.quota[key] ?? ZERO))) {
      if (quotaLeft.lte(0)) break;
      const take = min(lane.quota[key] ?? ZERO, quotaLeft);
      if (take.lte(0)) continue;
      share(lane.lane).quota[key] = take;
      quotaLeft = quotaLeft.minus(take);
    }
  }
  return { main: fromMain, lanes: [...byLane.values()], ungranted, policyVersion: parts.main.policyVersion };
}
