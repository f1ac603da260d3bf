import Big from 'big.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { periodLimitsAt } from '../../domain/ledger/hot/hot-balances.js';
import { MAX_HOT_LANES, MAX_HOT_PARTITIONS, type HotConfig } from '../../domain/ledger/hot/hot-types.js';
import { readBig, readInt, toNumberAttribute } from '../client.js';
import { HOT_ACC_ENTITY, HOT_LANE_ENTITY, hotAttributes, hotKeys } from '../entities/hot-wallet.js';
import { spendAttribute, walletKeys } from '../entities/wallet.js';
import type { ItemKey } from '../item.js';
import { getItem, type TableContext } from '../table-context.js';
import { MAX_TRANSACT_ITEMS, transactWrite, type TransactWrite } from '../transact.js';
import { createWalletSnapshotReader } from '../wallet-store.js';
import { counterIs, keeperTransaction, raced } from './fold-moves.js';
import { hotConfigItem, hotConfigOf } from './hot-items.js';

/** Attempts of a promotion whose main write raced a payment (the wallet is hot because payments contend on it). */
const PROMOTE_ATTEMPTS = 10;

export interface PromoteOptions {
  partitions: number;
  lanes: number;
}

/**
 * Hot mode on (design 3, "Promotion"): first the sub-items (accumulators with nothing credited,
 * lanes with nothing escrowed, FROZEN when the wallet is), then `hot` on main, with `seq`,
 * `policyVersion` and, for each limited period of now, `ungranted#k` = limit − main's spend (so the
 * quota equation holds from the first lane grant). The main write is conditioned on the spend and
 * the policy version it was computed from; a payment landing in between makes it read again.
 * Idempotent: a hot wallet answers its config; a COOLING one is HOT again. Lanes receive money and
 * quotas from the keeper (runKeeperOnce), never here.
 */
export async function promote(
  table: TableContext,
  walletId: string,
  options: PromoteOptions,
  clock: Clock = systemClock,
): Promise<HotConfig> {
  if (!Number.isInteger(options.partitions) || options.partitions < 1 || options.partitions > MAX_HOT_PARTITIONS)
    throw new ApiError('VALIDATION_ERROR', `partitions: 1 to ${MAX_HOT_PARTITIONS}`, { field: 'partitions' });
  if (!Number.isInteger(options.lanes) || options.lanes < 1 || options.lanes > MAX_HOT_LANES)
    throw new ApiError('VALIDATION_ERROR', `lanes: 1 to ${MAX_HOT_LANES}`, { field: 'lanes' });
  const reader = createWalletSnapshotReader(table);
  for (let attempt = 1; ; attempt++) {
    const snapshot = await reader.getWalletSnapshot(walletId);
    if (!snapshot) throw new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
    const { wallet } = snapshot;
    if (wallet.deletedAt) throw new ApiError('INVALID_STATE', 'The wallet is closed.', { walletId });
    const main = await getItem(table, walletKeys.primary(walletId));
    const current = main ? hotConfigOf(main) : undefined;
    if (current?.state === 'HOT') return current;
    const config: HotConfig = {
      state: 'HOT',
      partitions: Math.max(options.partitions, current?.partitions ?? 0),
      lanes: Math.max(options.lanes, current?.lanes ?? 0),
      since: clock.now().toISOString(),
    };
    const policyVersion = readInt(main?.policyVersion);
    await createSubItems(table, walletId, wallet.environment, config, {
      status: wallet.status === 'ACTIVE' ? 'ACTIVE' : 'FROZEN',
      policyVersion,
    });
    const names: Record<string, string> = { '#hot': 'hot', '#state': 'state' };
    const values: Record<string, unknown> = {
      ':hot': hotConfigItem(config),
      ':zero': 0,
      ':cooling': 'COOLING',
      ':pv': policyVersion,
    };
    const sets = [
      '#hot = :hot',
      'seq = if_not_exists(seq, :zero)',
      'policyVersion = if_not_exists(policyVersion, :zero)',
    ];
    const conditions = [
      'attribute_exists(PK)',
      'attribute_not_exists(deletedAt)',
      '(attribute_not_exists(#hot) OR #hot.#state = :cooling)',
      counterIs('policyVersion', ':pv', policyVersion),
    ];
    let index = 0;
    for (const [key, limit] of periodLimitsAt(snapshot.policies, clock.now())) {
      const [period, ...periodKey] = key.split('#');
      const spendName = spendAttribute(period as 'DAY', periodKey.join('#'));
      const spent = main?.[spendName] === undefined ? new Big(0) : readBig(main[spendName]);
      const left = limit.minus(spent);
      names[`#u${index}`] = hotAttributes.ungranted(key);
      names[`#s${index}`] = spendName;
      values[`:u${index}`] = toNumberAttribute(left.lt(0) ? new Big(0) : left);
      values[`:s${index}`] = toNumberAttribute(spent);
      sets.push(`#u${index} = if_not_exists(#u${index}, :u${index})`);
      conditions.push(counterIs(`#s${index}`, `:s${index}`, spent));
      index++;
    }
    const done = await keeperTransaction(table, [
      {
        item: {
          Update: {
            TableName: table.tableName,
            Key: walletKeys.primary(walletId),
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
        onConditionFailed: raced('main during promotion'),
      },
    ]);
    if (done) return config;
    if (attempt >= PROMOTE_ATTEMPTS)
      throw new ApiError('CONCURRENT_UPDATE', 'The wallet kept changing while turning hot mode on; retry.', {
        retryAfter: 1,
      });
  }
}

/** Accumulators 0..G-1 and lanes 0..M-1, created where missing (a re-promotion keeps what exists). */
async function createSubItems(
  table: TableContext,
  walletId: string,
  environment: string,
  config: HotConfig,
  lane: { status: 'ACTIVE' | 'FROZEN'; policyVersion: number },
): Promise<void> {
  const upsert = (key: ItemKey, fields: Record<string, unknown>, initial: Record<string, unknown>): TransactWrite => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    for (const [name, value] of Object.entries(fields)) {
      names[`#${name}`] = name;
      values[`:${name}`] = value;
      sets.push(`#${name} = :${name}`);
    }
    for (const [name, value] of Object.entries(initial)) {
      names[`#${name}`] = name;
      values[`:${name}`] = value;
      sets.push(`#${name} = if_not_exists(#${name}, :${name})`);
    }
    return {
      item: {
        Update: {
          TableName: table.tableName,
          Key: key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    };
  };
  const writes: TransactWrite[] = [
    ...Array.from({ length: config.partitions }, (_, g) =>
      upsert(
        hotKeys.accumulator(walletId, g),
        { entityType: HOT_ACC_ENTITY, walletId, environment },
        { credited: 0, seq: 0, entryCount: 0 },
      ),
    ),
    ...Array.from({ length: config.lanes }, (_, l) =>
      upsert(
        hotKeys.lane(walletId, l),
        { entityType: HOT_LANE_ENTITY, walletId, environment },
        { status: lane.status, policyVersion: lane.policyVersion, available: 0, seq: 0, entryCount: 0 },
      ),
    ),
  ];
  for (let from = 0; from < writes.length; from += MAX_TRANSACT_ITEMS)
    await transactWrite(table.client, writes.slice(from, from + MAX_TRANSACT_ITEMS), table.transact);
}
