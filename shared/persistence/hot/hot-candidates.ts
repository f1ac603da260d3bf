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
import { log } from '../../observability/log.js';
import type { TransactWrite } from '../transact.js';

/** The wallet whose main item a transaction item writes (the item that conflicts on a cold wallet), if any. */
function walletOfItem({ item }: TransactWrite): string | undefined {
  const key = (item.Update?.Key ?? item.Put?.Item ?? item.ConditionCheck?.Key ?? item.Delete?.Key) as Item | undefined;
  if (!key || key.SK !== walletKeys.primary('').SK || typeof key.PK !== 'string') return undefined;
  const walletId = key.PK.slice(walletKeys.partition('').length);
  return walletId && !walletId.includes('#') ? walletId : undefined;
}

/**
 * The wallets whose main item took part in one conflicted attempt: the items the cancellation
 * reasons name `TransactionConflict`, or, when the cause names none (an injected conflict), every
 * wallet of the transaction.
 */
export function conflictedWallets(writes: readonly TransactWrite[], cause: unknown): string[] {
  const reasons = (cause as { CancellationReasons?: { Code?: string }[] } | undefined)?.CancellationReasons;
  const named = reasons?.some((reason) => reason.Code === 'TransactionConflict');
  const ids = writes.flatMap((write, index) =>
    named && reasons?.[index]?.Code !== 'TransactionConflict' ? [] : (walletOfItem(write) ?? []),
  );
  return [...new Set(ids)];
}

/**
 * Counts conflicted attempts against the wallets they conflicted on, in the current UTC minute
 * (automatic promotion: shared/domain/hot-mode/hot-mode-rules.ts). Writes only when an attempt
 * conflicted, so a quiet wallet costs nothing. Best effort: a failed count is logged and never
 * fails the movement, which has committed (or been refused) already.
 */
export async function countConflicts(
  table: TableContext,
  conflicts: ReadonlyMap<string, number>,
  at: Date = new Date(),
): Promise<void> {
  const minute = minuteOf(at);
  await Promise.all(
    [...conflicts].map(async ([walletId, count]) => {
      const { entityType, walletId: id, ttlEpochS } = hotCandidateAttributes(walletId, at);
      try {
        await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: hotCandidateKeys.candidate(minute, walletId),
            UpdateExpression: 'ADD conflicts :n SET entityType = :e, walletId = :w, ttlEpochS = :t',
            ExpressionAttributeValues: { ':n': count, ':e': entityType, ':w': id, ':t': ttlEpochS },
          }),
        );
      } catch (error) {
        log.warn('hot candidate count failed', error, { walletId });
      }
    }),
  );
}

/**
 * The committer's conflict meter: a view of the table whose transactions report each conflicted
 * attempt (TransactOptions.onConflict) against the wallets of the writes last built (`writing`);
 * `flush` counts them once the commit is over. Nothing more is read or written for a commit that
 * did not conflict. `routing` keeps the table's hot-routing cache on the view.
 */
export function conflictMeter(table: TableContext, routing: TableContext['hot']) {
  const conflicts = new Map<string, number>();
  let writes: readonly TransactWrite[] = [];
  const onConflict = (cause: unknown) => {
    for (const walletId of conflictedWallets(writes, cause))
      conflicts.set(walletId, (conflicts.get(walletId) ?? 0) + 1);
    table.transact?.onConflict?.(cause);
  };
  return {
    table: {
      ...table,
      ...(routing ? { hot: routing } : {}),
      transact: { ...table.transact, onConflict },
    } as TableContext,
    writing(built: TransactWrite[]): TransactWrite[] {
      writes = built;
      return built;
    },
    flush: () => (conflicts.size > 0 ? countConflicts(table, conflicts) : Promise.resolve()),
  };
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
