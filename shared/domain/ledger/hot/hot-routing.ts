import Big from 'big.js';
import type { Leg } from '../posting.js';
import type { HotConfig } from './hot-types.js';

/**
 * Where a posting's legs of one hot wallet are written (docs/architecture.md "Hot wallets"): an
 * available credit into one credit partition's inbox, an available debit from one lane, everything
 * else (pending credits, the held bucket of holds, settlements of a hold, a close) on main. Pure:
 * the persistence layer turns a plan into conditioned writes.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a (32-bit) of a string's UTF-16 code units: the same id always gives the same number. */
export function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

/** The credit partition of a movement: a retried attempt of the same id lands on the same inbox item. */
export const partitionOf = (transactionId: string, partitions: number): number => fnv1a(transactionId) % partitions;

/** Lanes tried after the first one refused a debit, before the slow path. */
export const LANE_RETRIES = 2;

/**
 * The lanes a debit tries, in order: the process's sticky lane when it has one (one request at a
 * time per process, so a lane sees about one transaction in flight), else the id's hash; then the
 * next LANE_RETRIES lanes.
 */
export function laneSequence(transactionId: string, lanes: number, sticky?: number): number[] {
  const first = sticky !== undefined && sticky < lanes ? sticky : fnv1a(`lane:${transactionId}`) % lanes;
  const sequence: number[] = [];
  for (let i = 0; i <= LANE_RETRIES && i < lanes; i++) sequence.push((first + i) % lanes);
  return sequence;
}

/** One hot wallet's share of a posting. */
export interface HotWalletPlan {
  walletId: string;
  /** Legs written on main (their buckets' deltas and conditions, as a cold wallet's). */
  main: Leg[];
  /** The available money credited, into this partition's inbox (only while HOT). */
  inbox?: { partition: number; amount: Big };
  /** The available money debited (> 0): from one lane on the fast path, from main and lanes on the slow path. */
  debit?: Big;
}

const isAvailable = (leg: Leg) => (leg.bucket ?? 'available') === 'available' && !leg.settlesHold && !leg.close;

/**
 * The plan of one hot wallet's legs. A close, or a COOLING wallet's credits, stay on main: a close
 * is the keeper's last step after everything was folded and drained, and a COOLING wallet's inbox
 * gets no new item (the keeper is folding it for the last time).
 */
export function planHotWallet(transactionId: string, walletId: string, legs: Leg[], hot: HotConfig): HotWalletPlan {
  if (legs.some((leg) => leg.close)) return { walletId, main: legs };
  const main: Leg[] = [];
  let credit = new Big(0);
  let debit = new Big(0);
  for (const leg of legs) {
    if (isAvailable(leg) && leg.amount.lt(0)) debit = debit.plus(leg.amount.abs());
    else if (isAvailable(leg) && hot.state === 'HOT') credit = credit.plus(leg.amount);
    else main.push(leg);
  }
  // A wallet both credited and debited by one posting (never today: one wallet each way) moves the net.
  if (credit.gt(0) && debit.gt(0)) {
    const net = credit.minus(debit);
    credit = net.gt(0) ? net : new Big(0);
    debit = net.lt(0) ? net.abs() : new Big(0);
  }
  return {
    walletId,
    main,
    ...(credit.gt(0) ? { inbox: { partition: partitionOf(transactionId, hot.partitions), amount: credit } } : {}),
    ...(debit.gt(0) ? { debit } : {}),
  };
}
