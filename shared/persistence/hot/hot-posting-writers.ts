import type Big from 'big.js';
import { ApiError } from '../../domain/errors.js';
import { planHotWallet } from '../../domain/ledger/hot/hot-routing.js';
import { periodKeyOf } from '../../domain/ledger/hot/hot-types.js';
import { bucketMovementOf, type Leg, type Posting, type SpendCount } from '../../domain/ledger/posting.js';
import { toNumberAttribute } from '../client.js';
import { HOT_INBOX_ENTITY, hotAttributes, hotKeys } from '../entities/hot-wallet.js';
import { walletKeys } from '../entities/wallet.js';
import type { TransactWrite } from '../transact.js';
import { put, update } from '../write-builders.js';
import { addBucketClauses } from '../writers/bucket-clauses.js';
import {
  HotMoved,
  HotRoutingStale,
  LaneRefused,
  type HotWalletEntry,
  type PostingRoutes,
  type SlowSplit,
} from './hot-routes.js';

/**
 * The writes of one hot wallet's legs of a posting (docs/architecture.md "Hot wallets"):
 * - an available credit: a Put of an inbox item in the credit partition of the movement's id
 *   (no shared item, so credits into one wallet never conflict with each other);
 * - an available debit: one lane's escrowed funds and quotas (fast path), or, on the slow path,
 *   main and the lanes sized from an exact read;
 * - everything else on main (pending credits, the held bucket of holds, settlements of a hold).
 * Also what the journal record says of the route: `creditPartition`, `debitLane`.
 */
export function hotWalletWrites(
  tableName: string,
  posting: Posting,
  walletId: string,
  legs: Leg[],
  spend: SpendCount | undefined,
  entry: HotWalletEntry,
  routes: PostingRoutes,
): { writes: TransactWrite[]; record: Record<string, number> } {
  const plan = planHotWallet(posting.transactionId, walletId, legs, entry.hot);
  const writes: TransactWrite[] = [];
  const record: Record<string, number> = {};
  const split = plan.debit ? routes.splitOf(walletId) : undefined;
  const spendOnLane = plan.debit !== undefined && split === undefined && spend !== undefined && spend.amount.gt(0);
  const mainSpend = spend && !spendOnLane ? spend : undefined;
  const writesMain = plan.main.length > 0 || split !== undefined || mainSpend !== undefined;
  if (plan.inbox) {
    writes.push(inboxPut(tableName, posting, walletId, plan.inbox.partition, plan.inbox.amount));
    const stopped = creditRefusal(tableName, walletId, entry, posting, writesMain);
    if (stopped) writes.push(stopped);
    record.creditPartition = plan.inbox.partition;
  }
  if (plan.debit && !split) {
    // A COOLING wallet's lanes are being drained: its debits take the slow path straight away.
    if (entry.hot.state !== 'HOT') throw new LaneRefused(walletId, -1);
    const lane = routes.laneOf(walletId, posting.transactionId);
    writes.push(laneDebit(tableName, posting, walletId, lane, plan.debit, spendOnLane ? spend : undefined));
    record.debitLane = lane;
  }
  if (split) writes.push(...split.lanes.map((part) => splitLaneDebit(tableName, posting, walletId, part, split)));
  if (writesMain) {
    writes.push(hotMainUpdate(tableName, posting, walletId, plan.main, mainSpend, split));
  }
  return { writes, record };
}

/**
 * A payee's state cannot be a condition of an inbox Put (no shared item): it is checked against the
 * cached main. A payee the cache knows stopped is refused as a cold wallet's update would be, by a
 * condition on its main in the same transaction (written after the paying wallet's items, in the
 * order of the legs): a payer's own refusal (INSUFFICIENT_FUNDS, POLICY_DENIED) comes first, as
 * the cold transaction's first failed condition (transact.ts); a cache older than a resume lets
 * the credit land. With main written by the posting anyway (one write per item), refused at once.
 */
function creditRefusal(
  tableName: string,
  walletId: string,
  entry: HotWalletEntry,
  posting: Posting,
  writesMain: boolean,
): TransactWrite | undefined {
  if (entry.environment !== posting.environment) throw new ApiError('ENVIRONMENT_MISMATCH', undefined, { walletId });
  if (entry.status === 'ACTIVE' && !entry.deletedAt) return undefined;
  const refusal = (old: { status?: unknown; deletedAt?: unknown }) =>
    // As a cold wallet's update answers: a closed agent's wallet is FROZEN, so WALLET_FROZEN first.
    old.status !== 'ACTIVE'
      ? new ApiError('WALLET_FROZEN', undefined, { walletId })
      : new ApiError('INVALID_STATE', 'The wallet is closed (its agent was deleted).', { walletId });
  if (writesMain) throw refusal(entry);
  return {
    item: {
      ConditionCheck: {
        TableName: tableName,
        Key: walletKeys.primary(walletId),
        ConditionExpression:
          'attribute_exists(hot) AND #status = :active AND attribute_not_exists(deletedAt) AND environment = :environment',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'ACTIVE', ':environment': posting.environment },
      },
    },
    onConditionFailed: (old) => {
      if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
      if (old.environment !== posting.environment) return new ApiError('ENVIRONMENT_MISMATCH', undefined, { walletId });
      // Demoted meanwhile: the credit is routed again (a cold wallet's update).
      if (!old.hot) return new HotRoutingStale(walletId, old);
      return refusal(old);
    },
  };
}

function inboxPut(tableName: string, posting: Posting, walletId: string, partition: number, amount: Big) {
  return put(tableName, {
    ...hotKeys.inboxItem(walletId, partition, posting.transactionId),
    entityType: HOT_INBOX_ENTITY,
    walletId,
    organizationId: posting.organizationId,
    environment: posting.environment,
    transactionId: posting.transactionId,
    amount: toNumberAttribute(amount),
    createdAt: posting.createdAt,
  });
}

const limitedKeys = (spend: SpendCount | undefined) =>
  (spend?.periods ?? []).filter((period) => period.limit).map((p) => periodKeyOf(p.period, p.periodKey));

/**
 * The fast path's debit: `amount` off one lane's available and off its quota of every limited
 * period, its spend counted there. Escrowed, so the lane never goes negative and no period is
 * overspent; a failed condition wrote nothing and tries the next lane.
 */
function laneDebit(
  tableName: string,
  posting: Posting,
  walletId: string,
  lane: number,
  amount: Big,
  spend: SpendCount | undefined,
): TransactWrite {
  const adds = ['available :neg', 'entryCount :one'];
  const conditions = [
    'attribute_exists(PK)',
    '#status = :active',
    'environment = :environment',
    'available >= :amount',
  ];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {
    ':neg': toNumberAttribute(amount.times(-1)),
    ':amount': toNumberAttribute(amount),
    ':one': 1,
    ':active': 'ACTIVE',
    ':environment': posting.environment,
  };
  spend?.periods.forEach((period, index) => {
    const key = periodKeyOf(period.period, period.periodKey);
    names[`#s${index}`] = hotAttributes.spend(key);
    adds.push(`#s${index} :spent`);
    if (!period.limit) return;
    names[`#q${index}`] = hotAttributes.quota(key);
    adds.push(`#q${index} :unspent`);
    conditions.push(`#q${index} >= :spent`);
  });
  if (spend) {
    values[':spent'] = toNumberAttribute(spend.amount);
    if (limitedKeys(spend).length > 0) {
      values[':unspent'] = toNumberAttribute(spend.amount.times(-1));
      conditions.push('policyVersion = :version');
      values[':version'] = spend.policyVersion ?? 0;
    }
  }
  return update(
    tableName,
    hotKeys.lane(walletId, lane),
    `ADD ${adds.join(', ')}`,
    conditions.join(' AND '),
    values,
    names,
    () => new LaneRefused(walletId, lane),
  );
}

/** A slow-path share of one lane: exactly what the exact read found there, or the items moved. */
function splitLaneDebit(
  tableName: string,
  posting: Posting,
  walletId: string,
  part: SlowSplit['lanes'][number],
  split: SlowSplit,
): TransactWrite {
  const adds = ['entryCount :one'];
  const conditions = ['attribute_exists(PK)', '#status = :active', 'environment = :environment'];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':one': 1, ':active': 'ACTIVE', ':environment': posting.environment };
  if (part.available.gt(0)) {
    adds.push('available :neg');
    conditions.push('available >= :available');
    values[':neg'] = toNumberAttribute(part.available.times(-1));
    values[':available'] = toNumberAttribute(part.available);
  }
  const quotas = Object.entries(part.quota).filter(([, take]) => take.gt(0));
  quotas.forEach(([key, take], index) => {
    names[`#q${index}`] = hotAttributes.quota(key);
    adds.push(`#q${index} :qn${index}`);
    conditions.push(`#q${index} >= :q${index}`);
    values[`:qn${index}`] = toNumberAttribute(take.times(-1));
    values[`:q${index}`] = toNumberAttribute(take);
  });
  if (quotas.length > 0) {
    conditions.push('policyVersion = :version');
    values[':version'] = split.policyVersion;
  }
  return update(
    tableName,
    hotKeys.lane(walletId, part.lane),
    `ADD ${adds.join(', ')}`,
    conditions.join(' AND '),
    values,
    names,
    () => new HotMoved(walletId),
  );
}

/**
 * Main of a hot wallet: its own legs (held and pending buckets, settlements) and, on the slow path,
 * the available money and quota it gives (`split`) and the spend of the payment. Requires `hot`: a
 * stale hot route to a wallet demoted meanwhile fails once and is planned again.
 */
function hotMainUpdate(
  tableName: string,
  posting: Posting,
  walletId: string,
  legs: Leg[],
  spend: SpendCount | undefined,
  split: SlowSplit | undefined,
): TransactWrite {
  const { delta, taken } = bucketMovementOf(legs);
  const settlesHold = legs.length > 0 && legs.every((leg) => leg.settlesHold) && !split && !spend;
  if (split?.main.gt(0)) {
    delta.available = delta.available.minus(split.main);
    taken.available = taken.available.plus(split.main);
  }
  const adds = ['entryCount :one'];
  // Lanes and main moved in one transaction: the seqlock of readHotWallet must see it (else an exact read
  // could take main before and a lane after, counting the same money twice or not at all).
  if (split && split.lanes.length > 0) adds.push('seq :one');
  const sets: string[] = [];
  const conditions = [
    'attribute_exists(PK)',
    'attribute_exists(hot)',
    'attribute_not_exists(deletedAt)',
    'environment = :environment',
  ];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1, ':environment': posting.environment };
  addBucketClauses({ delta, taken, settlesHold }, { adds, conditions, names, values });
  spend?.periods.forEach((period, index) => {
    names[`#s${index}`] = hotAttributes.spend(periodKeyOf(period.period, period.periodKey));
    adds.push(`#s${index} :spent`);
  });
  if (spend) values[':spent'] = toNumberAttribute(spend.amount);
  Object.entries(split?.ungranted ?? {}).forEach(([key, { take, initial, replaces }], index) => {
    if (initial === undefined && take.lte(0)) return;
    names[`#u${index}`] = hotAttributes.ungranted(key);
    if (initial !== undefined) {
      sets.push(`#u${index} = :u${index}`);
      if (replaces === undefined) conditions.push(`attribute_not_exists(#u${index})`);
      else {
        conditions.push(`#u${index} = :w${index}`);
        values[`:w${index}`] = toNumberAttribute(replaces);
      }
      values[`:u${index}`] = toNumberAttribute(initial.minus(take));
    } else if (take.gt(0)) {
      adds.push(`#u${index} :un${index}`);
      conditions.push(`#u${index} >= :u${index}`);
      values[`:un${index}`] = toNumberAttribute(take.times(-1));
      values[`:u${index}`] = toNumberAttribute(take);
    }
  });
  const expression = `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')}`;
  return update(
    tableName,
    walletKeys.primary(walletId),
    expression,
    conditions.join(' AND '),
    values,
    Object.keys(names).length > 0 ? names : undefined,
    (old) => {
      if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
      if (old.environment !== posting.environment) return new ApiError('ENVIRONMENT_MISMATCH', undefined, { walletId });
      if (!old.hot) return new HotRoutingStale(walletId, old);
      if (!settlesHold && old.status !== 'ACTIVE') return new ApiError('WALLET_FROZEN', undefined, { walletId });
      if (old.deletedAt)
        return new ApiError('INVALID_STATE', 'The wallet is closed (its agent was deleted).', { walletId });
      if (split) return new HotMoved(walletId);
      if (taken.held.gt(0)) return new ApiError('INVALID_STATE', 'The hold is no longer held.', { walletId });
      if (taken.pending.gt(0))
        return new ApiError('INVALID_STATE', 'The clearing funds were released already.', { walletId });
      return new HotMoved(walletId);
    },
  );
}

/** The journal attributes of a hot route, for audit, rebuild and the sharded indexes. */
export const ROUTE_ATTRIBUTES = ['creditPartition', 'debitLane'] as const;
