import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { minuteOf, type ConflictCount } from '../../domain/hot-mode/hot-mode-rules.js';
import {
  hotCandidateAttributes,
  hotCandidateCodec,
  hotCandidateKeys,
  hotWalletEntryCodec,
  type HotWalletEntry,
} from '../entities/hot-candidate.js';
import { walletKeys } from '../entities/wallet.js';
import type { Item } from '../item.js';
import type { TableContext } from '../table-context.js';
import type { TransactWrite } from '../transact.js';

/** The wallet ids whose main item a transaction writes (the items that can conflict on a cold wallet). */
export function walletsWrittenBy(writes: readonly TransactWrite[]): string[] {
  const ids = new Set<string>();
  for (const { item } of writes) {
    const key = (item.Update?.Key ?? item.Put?.Item ?? item.ConditionCheck?.Key ?? item.Delete?.Key) as
      Item | undefined;
    if (!key || key.SK !== walletKeys.primary('').SK || typeof key.PK !== 'string') continue;
    const walletId = key.PK.slice(walletKeys.partition('').length);
    if (walletId && !walletId.includes('#')) ids.add(walletId);
  }
  return [...ids];
}

/**
 * Counts `conflicts` cancelled attempts against each wallet the transaction wrote, in the current
 * UTC minute (automatic promotion: shared/domain/hot-mode/hot-mode-rules.ts). Called only when a
 * transaction conflicted, so a quiet wallet costs nothing. Best effort: a failed count is logged and
 * never fails the movement, which has committed (or has been refused) already.
 */
export async function countConflicts(
  table: TableContext,
  writes: readonly TransactWrite[],
  conflicts: number,
  at: Date = new Date(),
): Promise<void> {
  if (conflicts <= 0) return;
  const minute = minuteOf(at);
  await Promise.all(
    walletsWrittenBy(writes).map(async (walletId) => {
      const { entityType, walletId: id, ttlEpochS } = hotCandidateAttributes(walletId, at);
      try {
        await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: hotCandidateKeys.candidate(minute, walletId),
            UpdateExpression: 'ADD conflicts :n SET entityType = :e, walletId = :w, ttlEpochS = :t',
            ExpressionAttributeValues: { ':n': conflicts, ':e': entityType, ':w': id, ':t': ttlEpochS },
          }),
        );
      } catch (error) {
        console.warn(JSON.stringify({ msg: 'hot candidate count failed', walletId, error: String(error) }));
      }
    }),
  );
}

async function queryAll(table: TableContext, partition: string): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...(output.Items ?? []));
    startKey = output.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** One minute's conflict counts, per wallet. */
export async function conflictsOf(table: TableContext, minute: string): Promise<ConflictCount[]> {
  return (await queryAll(table, hotCandidateKeys.minute(minute))).map(hotCandidateCodec.fromItem);
}

/** The wallets the scheduled keeper visits. */
export async function registeredHotWallets(table: TableContext): Promise<HotWalletEntry[]> {
  return (await queryAll(table, hotCandidateKeys.registry)).map(hotWalletEntryCodec.fromItem);
}

export async function registerHotWallet(table: TableContext, entry: HotWalletEntry): Promise<void> {
  await table.client.send(new PutCommand({ TableName: table.tableName, Item: hotWalletEntryCodec.toItem(entry) }));
}

export async function unregisterHotWallet(table: TableContext, walletId: string): Promise<void> {
  await table.client.send(
    new DeleteCommand({ TableName: table.tableName, Key: hotCandidateKeys.registered(walletId) }),
  );
}
