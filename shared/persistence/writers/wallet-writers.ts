import { ApiError } from '../../domain/errors.js';
import { fromStatesOf, nonTerminalStatesOf } from '../../domain/state-table.js';
import type { WalletChange } from '../../domain/wallets/ports.js';
import { WALLET_STATES } from '../../domain/wallets/wallet-states.js';
import Big from 'big.js';
import { readBig, toNumberAttribute } from '../client.js';
import { organizationEnvironmentKeys } from '../entities/organization-environment.js';
import { walletCodec, walletKeys } from '../entities/wallet.js';
import { walletListingCodec } from '../entities/wallet-listing.js';
import { HotCloseDue, HotRoutingStale, type HotCloseRead } from '../hot/hot-routes.js';
import { hotConfigOf } from '../hot/hot-items.js';
import { laneStatusWrites } from '../hot/hot-status.js';
import { hotAttributes, hotKeys } from '../entities/hot-wallet.js';
import { CONFLICT_RETRY_AFTER_S, type TransactWrite } from '../transact.js';
import { inStates, put, setFields, update, type ChangeWriters } from '../write-builders.js';

/** A wallet with nothing in `heldBalance` or `pendingBalance` (absent counts as zero). */
export const NOTHING_HELD_OR_CLEARING =
  '(attribute_not_exists(heldBalance) OR heldBalance = :zero) AND (attribute_not_exists(pendingBalance) OR pendingBalance = :zero)';

export const heldOrClearing = (old: Record<string, unknown>) =>
  new ApiError(
    'INVALID_STATE',
    'The agent has money held or clearing (a pending withdrawal or deposit); delete it once its transfers have finished.',
    {
      heldBalance: old.heldBalance === undefined ? '0' : readBig(old.heldBalance).toFixed(),
      pendingBalance: old.pendingBalance === undefined ? '0' : readBig(old.pendingBalance).toFixed(),
    },
  );

export const walletWriters: ChangeWriters<WalletChange> = {
  reserveWalletSlot: (tableName, change) => [
    {
      item: {
        Update: {
          TableName: tableName,
          Key: organizationEnvironmentKeys.primary(change.organizationId, change.environment),
          UpdateExpression: 'ADD walletCount :one',
          ConditionExpression: 'attribute_exists(PK) AND walletCount < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': change.limit },
        },
      },
      onConditionFailed: () =>
        new ApiError('WALLET_LIMIT_EXCEEDED', `At most ${change.limit} wallets per environment.`, {
          limit: change.limit,
        }),
    },
  ],
  // The wallet and its line in the organization's wallet list (lists read wallets by it; see wallet-listing.ts).
  createWallet: (tableName, change) => [
    put(tableName, walletCodec.toItem(change.wallet)),
    put(tableName, walletListingCodec.toItem(change.wallet)),
  ],
  updateWallet: (tableName, change, context) => {
    const { sets, names, values } = setFields(change.set, 'w_');
    // A status change of a hot wallet moves its lanes in the same transaction (freeze stops payments
    // out at once, decisions.md section 13); a cold route is guarded so a wallet gone hot fails once and
    // is planned again (hot/hot-committer.ts). A hot wallet's close is prepared first (hot/hot-close.ts).
    const hot = change.set.status ? context?.routes?.hotOf(change.walletId) : undefined;
    if (hot && change.trigger === 'close')
      return hotCloseWrites(tableName, change.walletId, {
        set: change.set,
        expectedBalance: change.expectedBalance ?? new Big(0),
        ...(change.expectedActiveKeyId ? { expectedActiveKeyId: change.expectedActiveKeyId } : {}),
        read: context?.routes?.closeOf?.(change.walletId),
      });
    const laneStatus =
      hot && (change.set.status === 'FROZEN' || change.set.status === 'ACTIVE') ? change.set.status : undefined;
    // A closed wallet is marked by deletedAt (CLOSED is terminal, so never among the states below).
    const states = change.trigger ? fromStatesOf(WALLET_STATES, change.trigger) : nonTerminalStatesOf(WALLET_STATES);
    const status = inStates('#w_state', states, ':from');
    const conditions = ['attribute_exists(PK)', 'attribute_not_exists(deletedAt)', status.condition];
    if (change.set.status) conditions.push(hot ? 'attribute_exists(hot)' : 'attribute_not_exists(hot)');
    const conditionValues: Record<string, unknown> = { ...status.values };
    const conditionNames: Record<string, string> = {};
    if (laneStatus) {
      conditionValues[':w_one'] = 1;
      // The lanes written are the route's: a wallet demoted and promoted again with another count
      // meanwhile (a cache's entry older than that) fails here first and is routed again.
      conditions.push('#w_hot.#w_lanes = :w_lanes');
      conditionValues[':w_lanes'] = hot!.hot.lanes;
      Object.assign(conditionNames, { '#w_hot': 'hot', '#w_lanes': 'lanes' });
    }
    if (change.expectedActiveKeyId) {
      conditions.push('activeKeyId = :expectedKey');
      conditionValues[':expectedKey'] = change.expectedActiveKeyId;
    }
    if (change.expectedBalance) {
      // A close: exactly the balance read, and nothing held or clearing (it would be stranded).
      conditions.push('balance = :expectedBalance', NOTHING_HELD_OR_CLEARING);
      conditionValues[':expectedBalance'] = toNumberAttribute(change.expectedBalance);
      conditionValues[':zero'] = 0;
    }
    return [
      update(
        tableName,
        walletKeys.primary(change.walletId),
        `SET ${sets.join(', ')}${laneStatus ? ' ADD seq :w_one' : ''}`,
        conditions.join(' AND '),
        { ...values, ...conditionValues },
        { ...names, ...conditionNames, '#w_state': 'status' },
        (old) => {
          if (!old) return new ApiError('WALLET_NOT_FOUND');
          if (change.set.status && Boolean(old.hot) !== Boolean(hot)) return new HotRoutingStale(change.walletId, old);
          if (laneStatus && hotConfigOf(old)?.lanes !== hot!.hot.lanes)
            return new HotRoutingStale(change.walletId, old);
          if (old.deletedAt)
            return new ApiError('INVALID_STATE', 'The agent is deleted.', { deletedAt: old.deletedAt });
          // A rotation (or a deletion that read the key) raced this write: retryable, nothing was written.
          if (change.expectedActiveKeyId && old.activeKeyId !== change.expectedActiveKeyId)
            return new ApiError('CONCURRENT_UPDATE', "The agent's key was rotated meanwhile; retry.", {
              retryAfter: CONFLICT_RETRY_AFTER_S,
            });
          if (change.expectedBalance && !readBig(old.balance).eq(change.expectedBalance))
            return new ApiError('INVALID_STATE', 'The balance changed while deleting; retry.');
          if (change.expectedBalance) return heldOrClearing(old);
          return new ApiError('INVALID_STATE', `The wallet is ${String(old.status)}.`, { status: old.status });
        },
      ),
      ...(laneStatus
        ? laneStatusWrites(
            tableName,
            change.walletId,
            hot!.hot.lanes,
            laneStatus,
            () => () => new ApiError('CONCURRENT_UPDATE', undefined, { retryAfter: CONFLICT_RETRY_AFTER_S }),
          )
        : []),
    ];
  },
};

/** What a close of a hot wallet writes beside its own (the sweep's amount and the posting's environment). */
export interface HotClose {
  set: Record<string, unknown>;
  expectedBalance: Big;
  expectedActiveKeyId?: string;
  /** The prepared read (hot/hot-close.ts prepareHotClose); absent: the committer prepares it first. */
  read: HotCloseRead | undefined;
  /** A sweep: added to main's balance (the negative swept amount), with the posting's count and environment. */
  posting?: { delta: Big; environment: string };
}

/**
 * The close's own transaction of a hot wallet (decisions.md section 13; hot/hot-close.ts step 2):
 * main as a cold close sets it, guarded on the prepared read (seq, balance, nothing held or
 * clearing, the key read), and every accumulator marked `closedAt`, guarded on all its credits being
 * in main: a fold after the close is refused by the mark, so a late credit is bounced, never lost.
 */
export function hotCloseWrites(tableName: string, walletId: string, close: HotClose): TransactWrite[] {
  const { read } = close;
  if (!read) throw new HotCloseDue(walletId, close.expectedBalance, close.expectedActiveKeyId);
  const { sets, names, values } = setFields(close.set, 'c_');
  const adds = ['seq :c_one'];
  const conditions = [
    'attribute_exists(PK)',
    'attribute_exists(hot)',
    'attribute_not_exists(deletedAt)',
    'seq = :c_seq',
    'balance = :c_expected',
    NOTHING_HELD_OR_CLEARING,
  ];
  const conditionValues: Record<string, unknown> = {
    ':c_one': 1,
    ':c_seq': read.mainSeq,
    ':c_expected': toNumberAttribute(read.balance),
    ':zero': 0,
  };
  if (close.posting) {
    adds.push('balance :c_delta', 'entryCount :c_one');
    conditions.push('environment = :c_environment');
    conditionValues[':c_delta'] = toNumberAttribute(close.posting.delta);
    conditionValues[':c_environment'] = close.posting.environment;
  }
  if (close.expectedActiveKeyId) {
    conditions.push('activeKeyId = :c_key');
    conditionValues[':c_key'] = close.expectedActiveKeyId;
  }
  const again = () => new HotCloseDue(walletId, close.expectedBalance, close.expectedActiveKeyId);
  const closedAt = String(close.set.deletedAt ?? '');
  return [
    update(
      tableName,
      walletKeys.primary(walletId),
      `SET ${sets.join(', ')} ADD ${adds.join(', ')}`,
      conditions.join(' AND '),
      { ...values, ...conditionValues },
      names,
      (old) => {
        if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
        if (!old.hot) return new HotRoutingStale(walletId, old);
        if (old.deletedAt) return new ApiError('INVALID_STATE', 'The agent is already deleted.');
        if (close.expectedActiveKeyId && old.activeKeyId !== close.expectedActiveKeyId)
          return new ApiError('CONCURRENT_UPDATE', "The agent's key was rotated meanwhile; retry.", {
            retryAfter: CONFLICT_RETRY_AFTER_S,
          });
        if (!isZero(old.heldBalance) || !isZero(old.pendingBalance)) return heldOrClearing(old);
        return again();
      },
    ),
    ...read.partitions.map(({ partition, folded }) =>
      update(
        tableName,
        hotKeys.accumulator(walletId, partition),
        'SET #closedAt = :closedAt',
        `attribute_exists(PK) AND ${folded.eq(0) ? '(attribute_not_exists(credited) OR credited = :folded)' : 'credited = :folded'}`,
        { ':closedAt': closedAt, ':folded': toNumberAttribute(folded) },
        { '#closedAt': hotAttributes.closedAt },
        again,
      ),
    ),
  ];
}

const isZero = (value: unknown) => value === undefined || readBig(value).eq(0);
