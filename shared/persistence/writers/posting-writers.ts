import Big from 'big.js';
import { ApiError } from '../../domain/errors.js';
import { HOLD_STATES } from '../../domain/ledger/hold-states.js';
import { journalRecordOf } from '../../domain/ledger/journal.js';
import {
  assertBalanced,
  bucketMovementOf,
  BUCKETS,
  type Bucket,
  type Leg,
  type Posting,
  type PostingChange,
  type SpendCount,
} from '../../domain/ledger/posting.js';
import { formatAmount, formatBalance } from '../../domain/money.js';
import { TRANSACTION_STATES } from '../../domain/payments/transaction-states.js';
import { periodLimitDenied } from '../../domain/policies/policy-rules.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import { readBig, toNumberAttribute } from '../client.js';
import { journalCodec, transactionKeys } from '../entities/transaction.js';
import { bucketAttribute, spendAttribute, walletKeys } from '../entities/wallet.js';
import { hotWalletWrites } from '../hot/hot-posting-writers.js';
import { HotRoutingStale, type PostingRoutes } from '../hot/hot-routes.js';
import type { Item } from '../item.js';
import type { TransactWrite } from '../transact.js';
import { inStates, put, setFields, update, type ChangeWriters } from '../write-builders.js';
import { addBucketClauses } from './bucket-clauses.js';
import { slotClaimWrite } from './idempotency-writers.js';
import { heldOrClearing, hotCloseWrites, NOTHING_HELD_OR_CLEARING } from './wallet-writers.js';

export const postingWriters: ChangeWriters<PostingChange> = {
  posting: (tableName, change, context) => postingWrites(tableName, change.posting, context?.routes),
};

/**
 * A posting is one journal write and one conditional update per wallet it moves (at most two):
 *
 * 1. the journal record, first, so a key's slot already taken is the failure reported (the
 *    request then answers the first one); or, for an approved payment, its QUEUED record posted;
 * 2. each wallet's balances (available and held), its posting count, and for the paying wallet
 *    of a payment its spend of the current periods, under the conditions of every leg: the wallet
 *    exists in the posting's environment, is ACTIVE (unless its legs settle a hold), holds what
 *    its legs take from a bucket, and stays within each period limit;
 * 3. a capture, void or reversal: the state change of the record it settles, at most once.
 *
 * A wallet its routes know hot is written as hot-posting-writers.ts says (inbox, lane, main); any
 * other wallet's write requires `hot` absent, so a stale cold route fails once (HotRoutingStale)
 * and the committer routes it again. The cold transaction is unchanged otherwise.
 *
 * System legs are recorded by the journal record only. Nothing else is written: the audit entry,
 * the event and the organization payment lists are projected from the journal record.
 */
function postingWrites(tableName: string, posting: Posting, routes: PostingRoutes | undefined): TransactWrite[] {
  assertBalanced(posting);
  const walletWrites: TransactWrite[] = [];
  const route: Record<string, number> = {};
  const byWallet = new Map<string, Leg[]>();
  for (const leg of posting.legs) {
    if (leg.account.kind !== 'WALLET') continue;
    byWallet.set(leg.account.walletId, [...(byWallet.get(leg.account.walletId) ?? []), leg]);
  }
  for (const [walletId, legs] of byWallet) {
    const spend = posting.spend?.walletId === walletId ? posting.spend : undefined;
    const close = legs.find((leg) => leg.close)?.close;
    const hot = routes?.hotOf(walletId);
    if (hot) {
      // A hot wallet's money is spread over sub-items: its close is prepared first (hot/hot-close.ts).
      if (close) {
        walletWrites.push(
          ...hotCloseWrites(tableName, walletId, {
            set: close.set,
            expectedBalance: close.expectedBalance,
            ...(close.expectedActiveKeyId ? { expectedActiveKeyId: close.expectedActiveKeyId } : {}),
            read: routes!.closeOf?.(walletId),
            posting: {
              delta: legs.reduce((sum, leg) => sum.plus(leg.amount), new Big(0)),
              environment: posting.environment,
            },
          }),
        );
        continue;
      }
      const routed = hotWalletWrites(tableName, posting, walletId, legs, spend, hot, routes!);
      walletWrites.push(...routed.writes);
      Object.assign(route, routed.record);
      continue;
    }
    walletWrites.push(
      close
        ? walletCloseUpdate(tableName, posting, walletId, legs, close)
        : walletUpdate(tableName, posting, walletId, legs, spend),
    );
  }
  const writes = [journalWrite(tableName, posting, route), ...walletWrites];
  if (posting.settles) writes.push(holdSettlement(tableName, posting, posting.settles));
  if (posting.reverses) writes.push(reversedOriginal(tableName, posting, posting.reverses));
  return writes;
}

function journalWrite(tableName: string, posting: Posting, route: Record<string, number>): TransactWrite {
  // The hot route (creditPartition, debitLane) is part of the stored record: its index keys follow it.
  const record = { ...journalRecordOf(posting), ...route };
  if (posting.record === 'create') {
    const item = journalCodec.toItem(record);
    // With a key, the record is the key's claim (its id is the key's slot): the one slot-taking write.
    if (posting.idempotency) return slotClaimWrite(tableName, item, posting.createdAt);
    // Without one, a movement id a retry reuses: taken means done before.
    return put(
      tableName,
      item,
      () => new ApiError('IDEMPOTENCY_KEY_IN_USE', `The movement ${posting.transactionId} exists already.`),
    );
  }
  // An approved payment: its QUEUED record becomes the posted one (TRANSACTION_STATES 'post'), and
  // carries from now on what its audit entry says (projected once it posts), and its legs when
  // they are not the plain pair (a fee withheld from the payee: an invoice paid from a wallet).
  const item = journalCodec.toItem(record);
  const { sets, names, values } = setFields(
    {
      ...(item.legs !== undefined ? { legs: item.legs } : {}),
      status: record.status,
      postedAt: record.postedAt,
      auditAction: item.auditAction,
      actor: item.actor,
      auditResourceId: item.auditResourceId,
      GSI2SK: item.GSI2SK,
      GSI3SK: item.GSI3SK,
      // A hot wallet's shard of its lists is known only now, as the payment posts.
      ...(route.debitLane !== undefined && item.GSI2PK !== undefined ? { GSI2PK: item.GSI2PK } : {}),
      ...(route.creditPartition !== undefined && item.GSI3PK !== undefined ? { GSI3PK: item.GSI3PK } : {}),
      ...route,
    },
    't_',
  );
  const from = inStates('#t_status_old', fromStatesOf(TRANSACTION_STATES, 'post'), ':t_from');
  return update(
    tableName,
    transactionKeys.primary(posting.transactionId),
    `SET ${sets.join(', ')}`,
    from.condition,
    { ...values, ...from.values },
    { ...names, '#t_status_old': 'status' },
    (old) =>
      new ApiError('INVALID_STATE', `The payment is ${String(old?.status ?? 'unknown')}.`, { status: old?.status }),
  );
}

/** One wallet's balances under the conditions of its legs (and, for a paying wallet, its spend). */
function walletUpdate(
  tableName: string,
  posting: Posting,
  walletId: string,
  legs: Leg[],
  spend: SpendCount | undefined,
): TransactWrite {
  const { delta, taken, settlesHold } = bucketMovementOf(legs);
  const adds = ['entryCount :one'];
  const removes: string[] = [];
  // A closed (deleted agent) wallet takes nothing more: money there would be stranded.
  const conditions = [
    'attribute_exists(PK)',
    'attribute_not_exists(deletedAt)',
    'environment = :environment',
    'attribute_not_exists(hot)',
  ];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1, ':environment': posting.environment };
  addBucketClauses({ delta, taken, settlesHold }, { adds, conditions, names, values });
  spend?.periods.forEach((period, index) => {
    const name = `#s${index}`;
    names[name] = spendAttribute(period.period, period.periodKey);
    adds.push(`${name} :spent`);
    if (period.limit) {
      // Counted only while it stays within the limit: the counter may not exist yet this period.
      conditions.push(`((attribute_not_exists(${name}) AND :spent <= :l${index}) OR ${name} <= :c${index})`);
      values[`:l${index}`] = toNumberAttribute(period.limit);
      values[`:c${index}`] = toNumberAttribute(period.limit.minus(spend.amount));
    }
  });
  if (spend) values[':spent'] = toNumberAttribute(spend.amount);
  spend?.stale.forEach((period, index) => {
    const name = `#x${index}`;
    names[name] = spendAttribute(period.period, period.periodKey);
    removes.push(name);
  });
  const expression = `ADD ${adds.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`;
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
      if (old.hot) return new HotRoutingStale(walletId, old);
      // A deleted agent's wallet is FROZEN for payments; settling money on it is refused as closed.
      if (!settlesHold && old.status !== 'ACTIVE') return new ApiError('WALLET_FROZEN', undefined, { walletId });
      if (old.deletedAt)
        return new ApiError('INVALID_STATE', 'The wallet is closed (its agent was deleted).', { walletId });
      // Evaluation order (decisions.md section 3): deny rules (period limits) before funds.
      const limited = spend ? periodLimitExceeded(spend, old) : undefined;
      if (limited) return limited;
      const short = BUCKETS.find((bucket) => taken[bucket].gt(0) && balanceOf(old, bucket).lt(taken[bucket]));
      if (short === 'held') return new ApiError('INVALID_STATE', 'The hold is no longer held.', { walletId });
      if (short === 'pending')
        return new ApiError('INVALID_STATE', 'The clearing funds were released already.', { walletId });
      return new ApiError('INSUFFICIENT_FUNDS', undefined, {
        walletId,
        balance: formatBalance(balanceOf(old, 'available')),
        requested: formatAmount(taken.available),
      });
    },
  );
}

const balanceOf = (item: Item, bucket: Bucket): Big =>
  item[bucketAttribute[bucket]] === undefined ? new Big(0) : readBig(item[bucketAttribute[bucket]]);

/** The period limit the wallet item as it was would have exceeded, as POLICY_DENIED with its headroom. */
function periodLimitExceeded(spend: SpendCount, old: Item): ApiError | undefined {
  for (const period of spend.periods) {
    if (!period.limit) continue;
    const stored = old[spendAttribute(period.period, period.periodKey)];
    const spent = stored === undefined ? new Big(0) : readBig(stored);
    if (spent.plus(spend.amount).lte(period.limit)) continue;
    return periodLimitDenied({ period: period.period, limit: period.limit }, spent);
  }
  return undefined;
}

/** The sweep of a closing wallet: exactly its balance leaves, whatever its status, and it is marked closed. */
function walletCloseUpdate(
  tableName: string,
  posting: Posting,
  walletId: string,
  legs: Leg[],
  close: NonNullable<Leg['close']>,
): TransactWrite {
  const delta = legs.reduce((sum, leg) => sum.plus(leg.amount), new Big(0));
  const { sets, names, values } = setFields(close.set, 'c_');
  return update(
    tableName,
    walletKeys.primary(walletId),
    `SET ${sets.join(', ')} ADD balance :delta, entryCount :one`,
    `attribute_exists(PK) AND attribute_not_exists(deletedAt) AND attribute_not_exists(hot) AND balance = :expected AND ${NOTHING_HELD_OR_CLEARING} AND environment = :environment${close.expectedActiveKeyId ? ' AND activeKeyId = :expectedKey' : ''}`,
    {
      ...values,
      ':zero': 0,
      ':delta': toNumberAttribute(delta),
      ':one': 1,
      ':expected': toNumberAttribute(close.expectedBalance),
      ':environment': posting.environment,
      ...(close.expectedActiveKeyId ? { ':expectedKey': close.expectedActiveKeyId } : {}),
    },
    names,
    (old) => {
      if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
      if (old.hot) return new HotRoutingStale(walletId, old);
      if (old.deletedAt) return new ApiError('INVALID_STATE', 'The agent is already deleted.');
      if (close.expectedActiveKeyId && old.activeKeyId !== close.expectedActiveKeyId)
        return new ApiError('CONCURRENT_UPDATE', "The agent's key was rotated meanwhile; retry.", { retryAfter: 1 });
      if (!readBig(old.balance).eq(close.expectedBalance))
        return new ApiError('INVALID_STATE', 'The balance changed while deleting; retry.', { walletId });
      return heldOrClearing(old);
    },
  );
}

/** HELD -> CAPTURED | VOIDED, once: a second capture or void of the hold fails here. The captured amount keeps up to 6 decimals (USDC withdrawals). */
function holdSettlement(tableName: string, posting: Posting, settles: NonNullable<Posting['settles']>): TransactWrite {
  const from = inStates('#h_status', fromStatesOf(HOLD_STATES, settles.trigger), ':h_from');
  return update(
    tableName,
    transactionKeys.primary(settles.holdId),
    'SET #h_status = :h_to, settledBy = :h_by, capturedAmount = :h_captured',
    `attribute_exists(PK) AND ${from.condition}`,
    {
      ...from.values,
      ':h_to': targetOf(HOLD_STATES, settles.trigger),
      ':h_by': posting.transactionId,
      ':h_captured': formatAmount(settles.capturedAmount, 'USDC'),
    },
    { '#h_status': 'status' },
    (old) => new ApiError('INVALID_STATE', `The hold is ${String(old?.status ?? 'unknown')}.`, { status: old?.status }),
  );
}

/** POSTED -> REVERSED, once: a second reversal of the record fails here. */
function reversedOriginal(tableName: string, posting: Posting, originalId: string): TransactWrite {
  const from = inStates('#r_status', fromStatesOf(TRANSACTION_STATES, 'reverse'), ':r_from');
  return update(
    tableName,
    transactionKeys.primary(originalId),
    'SET #r_status = :r_to, reversedBy = :r_by',
    `attribute_exists(PK) AND ${from.condition}`,
    { ...from.values, ':r_to': targetOf(TRANSACTION_STATES, 'reverse'), ':r_by': posting.transactionId },
    { '#r_status': 'status' },
    (old) =>
      new ApiError(
        'REVERSAL_NOT_ALLOWED',
        `The transaction is ${String(old?.status ?? 'unknown')} and cannot be reversed.`,
        { status: old?.status },
      ),
  );
}
