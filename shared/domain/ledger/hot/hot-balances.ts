import Big from 'big.js';
import { periodKeyOf as calendarKeyOf } from '../../policies/policy-rules.js';
import { PERIOD_RULE, type Period, type Policy } from '../../policies/policy-types.js';
import { periodKeyOf as periodKeyAt, type HotWalletParts } from './hot-types.js';

/**
 * The exact balances of a hot wallet from its parts as one seqlocked read gave them (design 2.4):
 * available = main.balance + Σ_g (credited_g − folded_g) + Σ inbox_g + Σ lane.available; holds and
 * clearing credits live on main only, so held and pending are main's.
 */
export interface ExactBalances {
  balance: Big;
  heldBalance: Big;
  pendingBalance: Big;
}

const sum = (values: Big[]): Big => values.reduce((total, value) => total.plus(value), new Big(0));

/** Partition g's credits not yet in main's balance: its accumulator beyond folded#g, and its inbox. */
export function unfoldedOf(parts: HotWalletParts): Big {
  return sum(
    parts.partitions.map((p) =>
      p.credited.minus(parts.main.folded[p.partition] ?? new Big(0)).plus(sum(p.inbox.map((entry) => entry.amount))),
    ),
  );
}

export function exactBalances(parts: HotWalletParts): ExactBalances {
  return {
    balance: parts.main.balance.plus(unfoldedOf(parts)).plus(sum(parts.lanes.map((lane) => lane.available))),
    heldBalance: parts.main.heldBalance,
    pendingBalance: parts.main.pendingBalance,
  };
}

/** The postings the wallet's sub-items counted (main, lanes, accumulators, inbox items): only a posting changes it. */
export function postingCountOf(parts: HotWalletParts): number {
  return (
    (parts.main.entryCount ?? 0) +
    parts.lanes.reduce((n, lane) => n + lane.entryCount, 0) +
    parts.partitions.reduce((n, p) => n + p.entryCount + p.inbox.length, 0)
  );
}

/** The tightest limit per period of the wallet's active policies, keyed as hot items name them (`DAY#2026-11-28`) at `at`. */
export function periodLimitsAt(policies: Policy[], at: Date): Map<string, Big> {
  const limits = new Map<string, Big>();
  for (const period of Object.keys(PERIOD_RULE) as Period[]) {
    const values = policies
      .filter((policy) => policy.status === 'ACTIVE')
      .map((policy) => policy[PERIOD_RULE[period]])
      .filter((limit): limit is Big => limit !== undefined);
    if (values.length === 0) continue;
    limits.set(
      periodKeyAt(period, calendarKeyOf(period, at)),
      values.reduce((min, limit) => (limit.lt(min) ? limit : min)),
    );
  }
  return limits;
}

/** Σ spend of one period key over main and the lanes. */
export function spentOf(parts: HotWalletParts, key: string): Big {
  return sum([parts.main.spend[key] ?? new Big(0), ...parts.lanes.map((lane) => lane.spend[key] ?? new Big(0))]);
}

/** Σ quota of one period key still granted to the lanes. */
export function grantedOf(parts: HotWalletParts, key: string): Big {
  return sum(parts.lanes.map((lane) => lane.quota[key] ?? new Big(0)));
}

/**
 * The hot invariants of one wallet's parts (docs/architecture.md "Hot wallets"): every bucket of
 * every sub-item >= 0; folded#g <= credited_g; no inbox item of a closed wallet; for each period key
 * main tracks (`ungranted#k`) and whose limit is given: ungranted + Σ quota + Σ spend = the limit, so
 * Σ spend <= limit. `limits` are the current policies' limits (only checked when every lane holds
 * the main's policyVersion: a re-sync after a policy change is still due otherwise).
 */
export function hotInvariants(parts: HotWalletParts, limits?: Map<string, Big>): string[] {
  const problems: string[] = [];
  const at = `wallet ${parts.walletId}`;
  const negative = (what: string, value: Big) => {
    if (value.lt(0)) problems.push(`${at}: ${what} is negative (${value.toFixed()})`);
  };
  negative('main balance', parts.main.balance);
  negative('main held', parts.main.heldBalance);
  negative('main pending', parts.main.pendingBalance);
  for (const [key, value] of Object.entries(parts.main.ungranted)) negative(`main ungranted#${key}`, value);
  for (const [key, value] of Object.entries(parts.main.spend)) negative(`main spend#${key}`, value);
  for (const partition of parts.partitions) {
    negative(`partition ${partition.partition} credited`, partition.credited);
    const folded = parts.main.folded[partition.partition] ?? new Big(0);
    if (folded.gt(partition.credited))
      problems.push(
        `${at}: folded#${partition.partition} ${folded.toFixed()} above its credited ${partition.credited.toFixed()}`,
      );
    for (const entry of partition.inbox) {
      negative(`inbox ${entry.transactionId}`, entry.amount);
      if (parts.main.deletedAt)
        problems.push(`${at}: inbox item ${entry.transactionId} of a closed wallet (partition ${partition.partition})`);
    }
  }
  for (const lane of parts.lanes) {
    negative(`lane ${lane.lane} available`, lane.available);
    for (const [key, value] of Object.entries(lane.quota)) negative(`lane ${lane.lane} quota#${key}`, value);
    for (const [key, value] of Object.entries(lane.spend)) negative(`lane ${lane.lane} spend#${key}`, value);
  }
  // A limit lowered below what the period already spent (decisions.md section 3: a limit counts the
  // spend before it) leaves no headroom: ungranted + quota must then be 0, and the spend may stay above
  // the limit by what was spent before it fell. Otherwise ungranted + quota + spend is the limit exactly.
  const synced = parts.lanes.every((lane) => lane.policyVersion === parts.main.policyVersion);
  if (limits && synced) {
    for (const [key, ungranted] of Object.entries(parts.main.ungranted)) {
      const limit = limits.get(key);
      if (!limit) continue;
      const spent = spentOf(parts, key);
      const headroom = ungranted.plus(grantedOf(parts, key));
      const expected = spent.gt(limit) ? new Big(0) : limit.minus(spent);
      if (!headroom.eq(expected))
        problems.push(
          `${at}: ungranted + quota + spend of ${key} is ${headroom.plus(spent).toFixed()}, not the limit ${limit.toFixed()}`,
        );
    }
  }
  // While a re-sync is due the lanes' quotas and main's ungranted are the old policy's (not spendable under the new one).
  for (const [key, limit] of synced ? (limits ?? []) : []) {
    const spent = spentOf(parts, key);
    const headroom = (parts.main.ungranted[key] ?? new Big(0)).plus(grantedOf(parts, key));
    // Spend above the limit is the past of a lowered limit only while nothing can be spent any more.
    if (spent.gt(limit) && headroom.gt(0))
      problems.push(`${at}: spend of ${key} is ${spent.toFixed()}, above its limit ${limit.toFixed()}`);
  }
  return problems;
}
