import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { minuteOf, type ConflictCount } from '../../domain/hot-mode/hot-mode-rules.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import {
  HOT_CANDIDATE_SHARDS,
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

/** A process writes its conflict counts at most this often (each wallet's once per flush). */
export const CONFLICT_FLUSH_MS = 1000;

/** Count writes of one flush in flight at once. */
const FLUSH_CONCURRENCY = 8;

/**
 * A process's conflict counts for automatic promotion (shared/domain/hot-mode/hot-mode-rules.ts),
 * one per table context. The committer adds a commit's conflicted attempts, per wallet, under the
 * minute of the table's clock (TableContext.clock: the injected one); nothing is written while
 * transactions succeed first time. The counts are written in the background, never awaited by a
 * payment: at most one flush in flight, at most one every CONFLICT_FLUSH_MS, each an ADD per
 * wallet and minute on its shard's key (entities/hot-candidate.ts). A flush is started by the
 * first commit of the process once CONFLICT_FLUSH_MS have passed since the last one, so a wallet
 * conflicting 120 times a minute is counted within about a second of it, and a process that goes
 * quiet keeps its last second of counts until its next commit (or `flushConflictCounts`). Best
 * effort: a failed write is logged and its counts dropped, never failing a movement.
 */
export interface ConflictCounter {
  /** Adds conflicted attempts per wallet at the clock's now, and flushes if one is due. */
  add(conflicts: ReadonlyMap<string, number>): void;
  /** Flushes if one is due (every commit calls it: a quiet wallet's counts still leave the process). */
  tick(): void;
  /** Writes every count held now (and waits for a flush in flight): tests, and a process's shutdown. */
  flush(): Promise<void>;
}

export function createConflictCounter(table: TableContext, clock: Clock = table.clock ?? systemClock): ConflictCounter {
  /** minute -> wallet -> conflicted attempts not written yet */
  let held = new Map<string, Map<string, number>>();
  let inFlight: Promise<void> | undefined;
  let lastFlushAt = Number.NEGATIVE_INFINITY;

  async function write(batch: Map<string, Map<string, number>>): Promise<void> {
    const counts = [...batch].flatMap(([minute, wallets]) =>
      [...wallets].map(([walletId, count]) => ({ minute, walletId, count })),
    );
    let next = 0;
    const worker = async () => {
      while (next < counts.length) {
        const { minute, walletId, count } = counts[next++]!;
        const at = new Date(`${minute}:00.000Z`);
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
      }
    };
    await Promise.all(Array.from({ length: Math.min(FLUSH_CONCURRENCY, counts.length) }, worker));
  }

  function start(): Promise<void> {
    const batch = held;
    held = new Map();
    lastFlushAt = clock.now().getTime();
    const running = write(batch).finally(() => {
      if (inFlight === running) inFlight = undefined;
    });
    inFlight = running;
    return running;
  }

  function tick(): void {
    if (held.size === 0 || inFlight || clock.now().getTime() - lastFlushAt < CONFLICT_FLUSH_MS) return;
    void start();
  }

  return {
    add(conflicts) {
      const minute = minuteOf(clock.now());
      let wallets = held.get(minute);
      if (!wallets) held.set(minute, (wallets = new Map()));
      for (const [walletId, count] of conflicts) wallets.set(walletId, (wallets.get(walletId) ?? 0) + count);
      tick();
    },
    tick,
    async flush() {
      while (inFlight) await inFlight;
      if (held.size > 0) await start();
    },
  };
}

const COUNTERS = new WeakMap<TableContext, ConflictCounter>();

/**
 * The conflict counter of a table context (one per context, as its hot routing), on `clock` when
 * it is made here (the core passes its injected clock), else the table's clock, else the system's.
 */
export function conflictCounterOf(table: TableContext, clock?: Clock): ConflictCounter {
  let counter = COUNTERS.get(table);
  if (!counter) COUNTERS.set(table, (counter = createConflictCounter(table, clock)));
  return counter;
}

/** Writes the conflict counts a table context holds (tests; a process's shutdown). */
export const flushConflictCounts = (table: TableContext): Promise<void> => conflictCounterOf(table).flush();

/**
 * The committer's conflict meter: a view of the table whose transactions report each conflicted
 * attempt (TransactOptions.onConflict) against the wallets of the writes last built (`writing`);
 * `done` hands them to the table's conflict counter once the commit is over (not awaited).
 * Nothing more is read or written for a commit that did not conflict. `routing` keeps the
 * table's hot-routing cache on the view.
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
    done(): void {
      const counter = conflictCounterOf(table);
      if (conflicts.size > 0) counter.add(conflicts);
      else counter.tick();
    },
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

/** One minute's conflict counts, per wallet (every shard of the minute). */
export async function conflictsOf(table: TableContext, minute: string): Promise<ConflictCount[]> {
  const shards = await Promise.all(
    Array.from({ length: HOT_CANDIDATE_SHARDS }, (_, shard) => queryAll(table, hotCandidateKeys.minute(minute, shard))),
  );
  return shards.flat().map(hotCandidateCodec.fromItem);
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
