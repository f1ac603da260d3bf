import Big from 'big.js';
import { ApiError } from '../../domain/errors.js';
import { exactBalances } from '../../domain/ledger/hot/hot-balances.js';
import type { HotWalletParts } from '../../domain/ledger/hot/hot-types.js';
import { readBig, toNumberAttribute } from '../client.js';
import { hotAttributes, hotKeys } from '../entities/hot-wallet.js';
import { walletKeys } from '../entities/wallet.js';
import { getItem, type TableContext } from '../table-context.js';
import { CONFLICT_RETRY_AFTER_S, TransactionConflictError, type TransactWrite } from '../transact.js';
import { heldOrClearing, NOTHING_HELD_OR_CLEARING } from '../writers/wallet-writers.js';
import { counterIs, foldAll, keeperTransaction, raced } from './fold-moves.js';
import { readHotWallet } from './hot-read.js';
import { HotRoutingStale, type HotCloseRead } from './hot-routes.js';

/**
 * Closing a hot wallet (an agent's deletion; decisions.md section 13: closing stops payments out at
 * once, payments into it that started before may still land for up to the settle window and are
 * bounced back to their payer, never lost). Its money is spread over main, the lanes, the
 * accumulators and the inbox, and no transaction can hold them all (64 lanes + 64 partitions), so:
 *
 * 1. `prepareHotClose` (the committer, before the close's transaction): main and every lane FROZEN
 *    and every lane's funds into main, in ONE transaction (payments out stop here), then every credit
 *    folded, then an exact read: main holds the whole money now.
 * 2. the close's own transaction (wallet-writers.ts hotCloseWrites): main as a cold close sets it
 *    (swept, deletedAt), guarded on main's seq and balance as read, and every accumulator marked
 *    `closedAt`, guarded on all its credits being folded. Nothing can pay out of a frozen, empty
 *    lane, and every move giving a lane money bumps main's seq; a fold after the mark is refused
 *    (fold-moves.ts), so a late credit stays in the inbox and the keeper bounces it.
 * 3. `finishHotClose` (the keeper, once the settle window has passed and no straggler is left): the
 *    empty lanes deleted, their spend merged into main's, `hot` and the quotas removed.
 */

/** Rounds of freeze-and-drain, fold and read before a close answers CONCURRENT_UPDATE. */
const PREPARE_ATTEMPTS = 6;
/** Rounds whose read may still find credits in the inbox before they are left to the keeper's bounce. */
const FOLD_ROUNDS = 3;

const balanceChanged = (walletId: string) =>
  new ApiError('INVALID_STATE', 'The balance changed while deleting; retry.', { walletId });

/**
 * Step 1 of a close: answers the read the close's transaction is guarded on. Refuses as a cold
 * close would (the exact balance not the one the deletion read: INVALID_STATE, and nothing is
 * written; money held or clearing; a rotated key), and signals a wallet gone cold (HotRoutingStale).
 */
export async function prepareHotClose(
  table: TableContext,
  walletId: string,
  expectedBalance: Big,
  expectedActiveKeyId: string | undefined,
): Promise<HotCloseRead> {
  for (let attempt = 1; attempt <= PREPARE_ATTEMPTS; attempt++) {
    const main = await getItem(table, walletKeys.primary(walletId));
    const parts = main ? await readHotWallet(table, walletId, main) : undefined;
    if (!parts) throw new HotRoutingStale(walletId, await getItem(table, walletKeys.primary(walletId)));
    if (parts.main.deletedAt) throw new ApiError('INVALID_STATE', 'The agent is already deleted.');
    const drained =
      parts.main.status === 'FROZEN' && parts.lanes.every((lane) => lane.status === 'FROZEN' && lane.available.eq(0));
    if (!drained) {
      // A close refused for its balance writes nothing (the agent is not left paused).
      if (!exactBalances(parts).balance.eq(expectedBalance)) throw balanceChanged(walletId);
      await freezeAndDrain(table, parts, expectedActiveKeyId);
      continue;
    }
    const unfolded = parts.partitions.some((p) => !p.credited.eq(parts.main.folded[p.partition] ?? new Big(0)));
    const inbox = parts.partitions.some((p) => p.inbox.length > 0);
    if (unfolded || (inbox && attempt <= FOLD_ROUNDS)) {
      await foldAll(table, walletId);
      continue;
    }
    if (!parts.main.balance.eq(expectedBalance)) throw balanceChanged(walletId);
    return {
      mainSeq: parts.main.seq,
      balance: parts.main.balance,
      partitions: parts.partitions.map((p) => ({
        partition: p.partition,
        folded: parts.main.folded[p.partition] ?? new Big(0),
      })),
    };
  }
  throw new ApiError('CONCURRENT_UPDATE', undefined, { retryAfter: CONFLICT_RETRY_AFTER_S });
}

/**
 * Main and every lane FROZEN, each lane's funds added to main's balance, in ONE transaction guarded
 * on main's seq (and on what the close requires of main: nothing held or clearing, the key read) and
 * on each lane's funds as read. False when a guard or a conflict lost (read again).
 */
async function freezeAndDrain(
  table: TableContext,
  parts: HotWalletParts,
  expectedActiveKeyId: string | undefined,
): Promise<boolean> {
  const { walletId } = parts;
  const total = parts.lanes.reduce((sum, lane) => sum.plus(lane.available), new Big(0));
  const values: Record<string, unknown> = { ':frozen': 'FROZEN', ':one': 1, ':seq': parts.main.seq, ':zero': 0 };
  const conditions = [
    'attribute_exists(PK)',
    'attribute_exists(hot)',
    'attribute_not_exists(deletedAt)',
    counterIs('seq', ':seq', parts.main.seq),
    NOTHING_HELD_OR_CLEARING,
  ];
  if (expectedActiveKeyId) {
    conditions.push('activeKeyId = :key');
    values[':key'] = expectedActiveKeyId;
  }
  if (!total.eq(0)) values[':total'] = toNumberAttribute(total);
  const mainWrite: TransactWrite = {
    item: {
      Update: {
        TableName: table.tableName,
        Key: walletKeys.primary(walletId),
        UpdateExpression: `SET #status = :frozen ADD seq :one${total.eq(0) ? '' : ', balance :total'}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: (old) => {
      if (!old) return new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
      if (!old.hot) return new HotRoutingStale(walletId, old);
      if (old.deletedAt) return new ApiError('INVALID_STATE', 'The agent is already deleted.');
      if (expectedActiveKeyId && old.activeKeyId !== expectedActiveKeyId)
        return new ApiError('CONCURRENT_UPDATE', "The agent's key was rotated meanwhile; retry.", {
          retryAfter: CONFLICT_RETRY_AFTER_S,
        });
      if (!isZero(old.heldBalance) || !isZero(old.pendingBalance)) return heldOrClearing(old);
      return raced('main during a close')();
    },
  };
  const lanes = parts.lanes.map((lane): TransactWrite => ({
    item: {
      Update: {
        TableName: table.tableName,
        Key: hotKeys.lane(walletId, lane.lane),
        UpdateExpression: `SET #status = :frozen ADD seq :one${lane.available.eq(0) ? '' : ', available :neg'}`,
        ConditionExpression: `attribute_exists(PK) AND ${counterIs('available', ':read', lane.available)}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':frozen': 'FROZEN',
          ':one': 1,
          ':read': toNumberAttribute(lane.available),
          ...(lane.available.eq(0) ? {} : { ':neg': toNumberAttribute(lane.available.times(-1)) }),
        },
      },
    },
    onConditionFailed: raced(`lane ${lane.lane} during a close`),
  }));
  try {
    return await keeperTransaction(table, [mainWrite, ...lanes]);
  } catch (error) {
    if (error instanceof TransactionConflictError) return false;
    throw error;
  }
}

const isZero = (value: unknown) => value === undefined || readBig(value).eq(0);

/**
 * Step 3 (keeper-plan.ts `finishClose`, after the settle window, no straggler left): every lane
 * (frozen and empty since step 1) deleted and its spend merged into main's, main's `hot` and
 * `ungranted#k` removed, in ONE transaction guarded on main's seq and each lane as read. The
 * accumulators keep their `closedAt` mark and main its folded#g, one for every partition (0 where
 * nothing was ever folded); a straggler later still is bounced (keeper.ts bounceAll finds the
 * partitions by them). False when a guard lost (the next run reads again).
 */
export function finishHotClose(table: TableContext, parts: HotWalletParts): Promise<boolean> {
  const { walletId } = parts;
  if (parts.lanes.some((lane) => !lane.available.eq(0))) return Promise.resolve(false);
  const names: Record<string, string> = { '#hot': 'hot' };
  const values: Record<string, unknown> = { ':one': 1, ':seq': parts.main.seq };
  const adds = ['seq :one'];
  const removes = ['#hot'];
  // Every partition keeps a folded#g once `hot` is gone: the keeper finds the inboxes of a closed cold
  // wallet by them (keeper.ts bounceAll), a partition never folded from included.
  const sets = parts.partitions.map(({ partition }) => {
    names[`#f${partition}`] = hotAttributes.folded(partition);
    return `#f${partition} = if_not_exists(#f${partition}, :zero)`;
  });
  if (sets.length > 0) values[':zero'] = 0;
  const spend = new Map<string, Big>();
  for (const lane of parts.lanes)
    for (const [key, spent] of Object.entries(lane.spend)) spend.set(key, (spend.get(key) ?? new Big(0)).plus(spent));
  [...spend].forEach(([key, spent], index) => {
    if (spent.eq(0)) return;
    names[`#s${index}`] = hotAttributes.spend(key);
    values[`:s${index}`] = toNumberAttribute(spent);
    adds.push(`#s${index} :s${index}`);
  });
  Object.keys(parts.main.ungranted).forEach((key, index) => {
    names[`#u${index}`] = hotAttributes.ungranted(key);
    removes.push(`#u${index}`);
  });
  const mainWrite: TransactWrite = {
    item: {
      Update: {
        TableName: table.tableName,
        Key: walletKeys.primary(walletId),
        UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')} REMOVE ${removes.join(', ')}`,
        ConditionExpression: `attribute_exists(PK) AND attribute_exists(deletedAt) AND attribute_exists(#hot) AND ${counterIs('seq', ':seq', parts.main.seq)}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: raced('main finishing a close'),
  };
  const lanes = parts.lanes.map((lane): TransactWrite => {
    const laneNames: Record<string, string> = {};
    const laneValues: Record<string, unknown> = { ':zero': 0 };
    const conditions = ['attribute_exists(PK)', counterIs('available', ':zero', lane.available)];
    Object.entries(lane.spend).forEach(([key, spent], index) => {
      laneNames[`#s${index}`] = hotAttributes.spend(key);
      laneValues[`:s${index}`] = toNumberAttribute(spent);
      conditions.push(counterIs(`#s${index}`, `:s${index}`, spent));
    });
    return {
      item: {
        Delete: {
          TableName: table.tableName,
          Key: hotKeys.lane(walletId, lane.lane),
          ConditionExpression: conditions.join(' AND '),
          ...(Object.keys(laneNames).length > 0 ? { ExpressionAttributeNames: laneNames } : {}),
          ExpressionAttributeValues: laneValues,
        },
      },
      onConditionFailed: raced(`lane ${lane.lane} finishing a close`),
    };
  });
  return keeperTransaction(table, [mainWrite, ...lanes]);
}
