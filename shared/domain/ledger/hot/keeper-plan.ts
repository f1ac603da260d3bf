import Big from 'big.js';
import { periodKeyOf as calendarKeyOf, previousPeriodKeyOf } from '../../policies/policy-rules.js';
import { PERIOD_RULE, type Period } from '../../policies/policy-types.js';
import { grantedOf, spentOf } from './hot-balances.js';
import { periodKeyOf, type HotWalletParts } from './hot-types.js';

/**
 * The keeper's plan (design 2.1-2.3): from one exact read of a hot wallet, what to do next. Every
 * step is one transaction balancing within the wallet (shared/persistence/hot/keeper-moves.ts);
 * the keeper is stateless, so a crash between steps only leaves the next tick more to do.
 */

/** How long a freeze or demotion waits for payments routed from a stale cache (cache TTL + the longest Lambda + margin). */
export const HOT_SETTLE_MS = 60_000;
/** Quotas of the next period are granted to the lanes this long before its boundary. */
export const PREGRANT_MS = 5 * 60_000;
/** Share of the wallet's folded funds (and of each limit not spent) escrowed in lanes; the rest stays on main for the slow path. */
export const LANE_SHARE = new Big('0.8');
/** A lane is topped up or drained only when it is this far (as a share of its target) from its target. */
export const LANE_SLACK = new Big('0.5');

export interface LaneDelta {
  lane: number;
  /** The lane's seq as read (the move's guard). */
  seq: number;
  /** Added to the lane's available (negative: drained to main). */
  available: Big;
  /** Period key -> added to the lane's quota (negative: revoked to main's ungranted). */
  quota: Record<string, Big>;
}

/** Main -> lanes and back, funds and quotas: Σ lane deltas leave main (ungranted for quotas). */
export interface Rebalance {
  kind: 'rebalance';
  mainSeq: number;
  lanes: LaneDelta[];
  /** Period key -> the limit main's ungranted starts from when the key is new (a pre-granted period). */
  initialUngranted: Record<string, Big>;
}

/** After a policy change: every lane to the main's policyVersion with its quota revoked; ungranted = limit − Σ spend. */
export interface Resync {
  kind: 'resync';
  mainSeq: number;
  policyVersion: number;
  /** Period key -> main's new ungranted (limit − Σ spend, at least 0), guarded on the spend read. */
  ungranted: Record<string, { value: Big; mainSpend: Big }>;
  lanes: { lane: number; seq: number; quota: Record<string, Big>; spend: Record<string, Big> }[];
}

/** Period keys over (older than the previous period): removed from main and the lanes. */
export interface DropKeys {
  kind: 'dropKeys';
  mainSeq: number;
  keys: string[];
  lanes: { lane: number; seq: number }[];
}

/** Lanes whose status differs from main's (a freeze that did not reach a lane, an unfreeze): FROZEN unless main is ACTIVE. */
export interface LaneStatus {
  kind: 'laneStatus';
  mainSeq: number;
  status: 'ACTIVE' | 'FROZEN';
  lanes: { lane: number; seq: number }[];
}

export type KeeperStep =
  | { kind: 'fold'; partition: number }
  | { kind: 'bounce'; partition: number }
  | { kind: 'foldIntoMain' }
  | Resync
  | DropKeys
  | LaneStatus
  | Rebalance
  | { kind: 'finishDemotion' }
  | { kind: 'finishClose' };

export interface KeeperContext {
  now: Date;
  /** The wallet's current limits: period key at `now` -> limit (hot-balances.ts periodLimitsAt). */
  limits: Map<string, Big>;
  /** The same limits keyed at the next period (pre-granted within PREGRANT_MS of its boundary). */
  nextLimits: Map<string, Big>;
}

const ZERO = new Big(0);
const cents = (value: Big) => value.round(2, Big.roundDown);
const PERIODS = Object.keys(PERIOD_RULE) as Period[];

/** The period keys still kept at `now`: the current and the previous one of each period (spendOf's rule), and the next when pre-granting. */
export function keptPeriodKeys(now: Date): Set<string> {
  const next = new Date(now.getTime() + PREGRANT_MS);
  return new Set(
    PERIODS.flatMap((p) => [
      periodKeyOf(p, calendarKeyOf(p, now)),
      periodKeyOf(p, previousPeriodKeyOf(p, now)),
      periodKeyOf(p, calendarKeyOf(p, next)),
    ]),
  );
}

/** The steps due, in order (the keeper runs them one by one, reading again between money moves). */
export function planKeeper(parts: HotWalletParts, context: KeeperContext): KeeperStep[] {
  const steps: KeeperStep[] = [];
  const { main } = parts;
  const closed = main.deletedAt !== undefined;
  for (const partition of parts.partitions) {
    if (partition.inbox.length > 0) steps.push({ kind: closed ? 'bounce' : 'fold', partition: partition.partition });
  }
  if (!closed && parts.partitions.some((p) => p.credited.gt(main.folded[p.partition] ?? ZERO)))
    steps.push({ kind: 'foldIntoMain' });
  if (closed) {
    // A closed wallet's lanes (frozen and empty since its close) go once no straggler can come any more.
    if (steps.length === 0 && context.now.getTime() - Date.parse(main.deletedAt!) >= HOT_SETTLE_MS)
      steps.push({ kind: 'finishClose' });
    return steps;
  }
  // A COOLING wallet's lanes stay ACTIVE: the slow path may still take from them until they are drained.
  const laneStatus = main.status === 'ACTIVE' ? 'ACTIVE' : 'FROZEN';
  const wrongStatus = parts.lanes.filter((lane) => lane.status !== laneStatus);
  if (wrongStatus.length > 0)
    steps.push({
      kind: 'laneStatus',
      mainSeq: main.seq,
      status: laneStatus,
      lanes: wrongStatus.map(({ lane, seq }) => ({ lane, seq })),
    });
  if (main.hot.state === 'COOLING') {
    if (context.now.getTime() - Date.parse(main.hot.coolingSince ?? main.hot.since) >= HOT_SETTLE_MS)
      steps.push({ kind: 'finishDemotion' });
    return steps;
  }
  if (parts.lanes.some((lane) => lane.policyVersion !== main.policyVersion) || missingUngranted(parts, context)) {
    steps.push(resyncOf(parts, context));
    return steps;
  }
  const kept = keptPeriodKeys(context.now);
  const old = new Set(
    [
      ...Object.keys(main.ungranted),
      ...parts.lanes.flatMap((lane) => [...Object.keys(lane.quota), ...Object.keys(lane.spend)]),
    ].filter((key) => !kept.has(key)),
  );
  if (old.size > 0)
    steps.push({
      kind: 'dropKeys',
      mainSeq: main.seq,
      keys: [...old],
      lanes: parts.lanes.map(({ lane, seq }) => ({ lane, seq })),
    });
  else if (laneStatus === 'ACTIVE' && wrongStatus.length === 0) {
    const rebalance = rebalanceOf(parts, context);
    if (rebalance) steps.push(rebalance);
  }
  return steps;
}

/** A current limited key main has no ungranted for (a policy added a limit): the re-sync sets it. */
function missingUngranted(parts: HotWalletParts, context: KeeperContext): boolean {
  return [...context.limits.keys()].some((key) => parts.main.ungranted[key] === undefined);
}

function resyncOf(parts: HotWalletParts, context: KeeperContext): Resync {
  const ungranted: Resync['ungranted'] = {};
  // The next period's keys already pre-granted too: the re-sync revokes their lanes' quota as well, so
  // their ungranted must become the new limit less the spend, not stay the old limit's.
  const limits = new Map(context.limits);
  for (const [key, limit] of context.nextLimits)
    if (!limits.has(key) && parts.main.ungranted[key] !== undefined) limits.set(key, limit);
  for (const [key, limit] of limits) {
    const left = limit.minus(spentOf(parts, key));
    ungranted[key] = { value: left.lt(0) ? ZERO : left, mainSpend: parts.main.spend[key] ?? ZERO };
  }
  return {
    kind: 'resync',
    mainSeq: parts.main.seq,
    policyVersion: parts.main.policyVersion,
    ungranted,
    lanes: parts.lanes.map((lane) => ({ lane: lane.lane, seq: lane.seq, quota: lane.quota, spend: lane.spend })),
  };
}

/**
 * Lane targets (design 2.2, simplified: no amount history is kept): LANE_SHARE of the folded funds
 * (main + lanes) spread evenly over the lanes, and the same share of each limit not spent
 * (ungranted + Σ quota); a lane is moved only when it is more than LANE_SLACK of its target away,
 * so a quiet wallet costs no keeper writes. Quotas of keys no longer limited go back to main.
 */
export function rebalanceOf(parts: HotWalletParts, context: KeeperContext): Rebalance | undefined {
  const { main, lanes } = parts;
  if (lanes.length === 0) return undefined;
  const deltas = new Map<number, LaneDelta>(
    lanes.map((lane) => [lane.lane, { lane: lane.lane, seq: lane.seq, available: ZERO, quota: {} }]),
  );
  const pool = lanes.reduce((sum, lane) => sum.plus(lane.available), main.balance);
  const target = cents(pool.times(LANE_SHARE).div(lanes.length));
  let fromMain = ZERO;
  for (const lane of lanes) {
    const move = away(lane.available, target);
    if (!move) continue;
    deltas.get(lane.lane)!.available = move;
    fromMain = fromMain.plus(move);
  }
  // Never more out of main than it holds (a payment may have taken some since the read: the guard says).
  if (fromMain.gt(main.balance)) for (const delta of deltas.values()) if (delta.available.gt(0)) delta.available = ZERO;

  const initialUngranted: Record<string, Big> = {};
  const next = new Date(context.now.getTime() + PREGRANT_MS);
  const limited = new Map(context.limits);
  for (const [key, limit] of context.nextLimits) {
    if (limited.has(key)) continue;
    if (!PERIODS.some((p) => key === periodKeyOf(p, calendarKeyOf(p, next)))) continue;
    limited.set(key, limit);
    if (main.ungranted[key] === undefined && spentOf(parts, key).eq(0)) initialUngranted[key] = limit;
  }
  for (const [key] of limited) {
    const ungranted = main.ungranted[key] ?? initialUngranted[key];
    if (ungranted === undefined) continue;
    const quotaTarget = cents(ungranted.plus(grantedOf(parts, key)).times(LANE_SHARE).div(lanes.length));
    let granted = ZERO;
    for (const lane of lanes) {
      const move = away(lane.quota[key] ?? ZERO, quotaTarget);
      if (!move) continue;
      deltas.get(lane.lane)!.quota[key] = move;
      granted = granted.plus(move);
    }
    if (granted.gt(ungranted))
      for (const delta of deltas.values()) if (delta.quota[key]?.gt(0)) delete delta.quota[key];
  }
  // Quota of a key no longer limited (a policy lost its limit; the previous period): back to main.
  for (const lane of lanes)
    for (const [key, quota] of Object.entries(lane.quota))
      if (!limited.has(key) && quota.gt(0) && main.ungranted[key] !== undefined)
        deltas.get(lane.lane)!.quota[key] = quota.times(-1);
  const moved = [...deltas.values()].filter(
    (delta) => !delta.available.eq(0) || Object.values(delta.quota).some((q) => !q.eq(0)),
  );
  if (moved.length === 0) return undefined;
  return { kind: 'rebalance', mainSeq: main.seq, lanes: moved, initialUngranted };
}

/** The move to bring `value` to `target`, or undefined within the slack. */
function away(value: Big, target: Big): Big | undefined {
  const gap = target.minus(value);
  if (gap.eq(0)) return undefined;
  if (gap.abs().lte(target.times(LANE_SLACK)) && !value.eq(0)) return undefined;
  return gap;
}
