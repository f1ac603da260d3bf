/**
 * DynamoDB's timing and limits around memory-dynamo, in virtual time (bench/lib/virtual-time.ts):
 *
 * - latency: every read takes `readMs`, a single write `writeMs`; a transaction takes `holdMs` and
 *   holds its items that long (the conflict window of bench/lib/ddb-probe.ts, modelled exactly);
 * - TransactionConflict: a transaction (or a single write) that touches an item another
 *   transaction holds is cancelled after `conflictMs`, as DynamoDB cancels it;
 * - per-key capacity: a token bucket of `wcuPerKey` per second (burst: one second's worth) per
 *   base-table partition key; a write whose key's bucket is empty waits for it to refill (what
 *   the SDK's throttling retries amount to). Index partitions and reads are metered, not delayed:
 *   their peak per second is reported against 1,000 WCU/s and 3,000 RCU/s;
 * - the heat meter: write units per partition key (base and index) per second of the measured
 *   window, and every unit attributed to the request that caused it (AsyncLocalStorage).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type {
  ChangeRecord,
  MemoryDynamo,
  TransactionVerdict,
  WriteRecord,
} from '../../test/fakes/memory-dynamo/index.js';
import type { VirtualTime } from './virtual-time.js';

export interface ModelOptions {
  holdMs: number;
  readMs: number;
  writeMs: number;
  conflictMs: number;
  /** From a change to its stream consumers (Lambda's stream polling and batching). */
  streamDelayMs: number;
  wcuPerKey: number;
  rcuPerKey: number;
}

export const DEFAULT_MODEL: ModelOptions = {
  holdMs: 25,
  readMs: 3,
  writeMs: 5,
  conflictMs: 3,
  streamDelayMs: 100,
  wcuPerKey: 1000,
  rcuPerKey: 3000,
};

/** What one request (a payment) cost, filled by the hooks while it runs. */
export interface RequestCost {
  /** Write units of the TransactWriteItems that applied: its items (2 per KB) and their index entries (1 per KB). */
  txUnits: number;
  /** Every write unit: base table and indexes, transactional or not. */
  allInUnits: number;
  transactionAttempts: number;
  conflicts: number;
  /**
   * Items of the transactions a TransactionConflict cancelled. DynamoDB bills a cancelled transaction
   * too (design/hot-wallets.md [S3]); the meters above count applied writes only, so the report
   * estimates it beside them: 2 WCU per item (items under 1 KB).
   */
  cancelledItems: number;
  throttledMs: number;
}

interface KeyMeter {
  second: number;
  units: number;
  max: number;
  total: number;
}

export class DynamoModel {
  enabled = false;
  readonly costs = new AsyncLocalStorage<RequestCost>();
  private readonly held = new Map<string, number>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  readonly writeMeter = new Map<string, KeyMeter>();
  readonly readMeter = new Map<string, KeyMeter>();
  /** The write meter plus the cancelled transactions' items (2 units each) on their base keys: what DynamoDB bills. */
  readonly billedMeter = new Map<string, KeyMeter>();
  /** Measure from this virtual time on (the warm-up is left out). */
  measureFrom = 0;
  totals = { transactions: 0, conflicts: 0, throttledWrites: 0 };
  readonly client: DynamoDBDocumentClient;
  /** What the table's stream feeds (the journal projector, the keeper's fold worker). */
  readonly streamConsumers: ((change: ChangeRecord) => Promise<void>)[] = [];

  constructor(
    private readonly dynamo: MemoryDynamo,
    private readonly time: VirtualTime,
    readonly options: ModelOptions,
  ) {
    dynamo.hooks.onTransaction = (request) => this.onTransaction(request);
    dynamo.hooks.onWrite = (record) => this.onWrite(record);
    dynamo.hooks.onRead = (record) => {
      if (this.enabled) this.meter(this.readMeter, `${record.index ?? 'table'} ${record.partitionKey}`, record.units);
    };
    dynamo.hooks.now = () => time.now;
    dynamo.hooks.onChange = (change) => {
      if (!this.enabled) return;
      // The table's stream: each consumer sees the change after the stream's delay, in the
      // async context of the request that made it (its writes count to that request's cost).
      for (const consumer of this.streamConsumers) void time.sleep(options.streamDelayMs).then(() => consumer(change));
    };
    const send = async (command: unknown) => {
      const name = (command as { constructor: { name: string } }).constructor.name;
      if (this.enabled && READS.has(name)) await time.sleep(options.readMs);
      return dynamo.send(command);
    };
    this.client = { send } as unknown as DynamoDBDocumentClient;
  }

  resetMeters(from: number): void {
    this.measureFrom = from;
    this.writeMeter.clear();
    this.readMeter.clear();
    this.billedMeter.clear();
    this.totals = { transactions: 0, conflicts: 0, throttledWrites: 0 };
  }

  private async onTransaction(request: {
    keys: { PK: string; SK: string }[];
    kind: 'transaction' | 'write';
  }): Promise<TransactionVerdict> {
    if (!this.enabled) return 'ok';
    const cost = this.costs.getStore();
    // Throttling: wait until every base partition key of the request has capacity left.
    const wait = Math.max(0, ...request.keys.map((key) => this.refillWait(key.PK)));
    if (wait > 0) {
      this.totals.throttledWrites++;
      if (cost) cost.throttledMs += wait;
      await this.time.sleep(wait);
    }
    const ids = request.keys.map((key) => `${key.PK}\u0000${key.SK}`);
    if (request.kind === 'transaction') {
      this.totals.transactions++;
      if (cost) cost.transactionAttempts++;
    }
    const conflicting = ids.map((id, i) => (this.held.has(id) ? i : -1)).filter((i) => i >= 0);
    if (conflicting.length > 0) {
      this.totals.conflicts++;
      if (request.kind === 'transaction') {
        for (const key of request.keys) this.meter(this.billedMeter, `table ${key.PK}`, 2);
        if (cost) cost.cancelledItems += request.keys.length;
      }
      if (cost) cost.conflicts++;
      await this.time.sleep(this.options.conflictMs);
      return conflicting;
    }
    if (request.kind === 'write') {
      await this.time.sleep(this.options.writeMs);
      return 'ok';
    }
    for (const id of ids) this.held.set(id, (this.held.get(id) ?? 0) + 1);
    await this.time.sleep(this.options.holdMs);
    for (const id of ids) {
      const count = this.held.get(id)! - 1;
      if (count === 0) this.held.delete(id);
      else this.held.set(id, count);
    }
    return 'ok';
  }

  /** Virtual ms until the key's bucket is no longer in debt. */
  private refillWait(pk: string): number {
    const bucket = this.bucketOf(pk);
    return bucket.tokens >= 0 ? 0 : Math.ceil((-bucket.tokens / this.options.wcuPerKey) * 1000);
  }

  private bucketOf(pk: string) {
    const now = this.time.now;
    let bucket = this.buckets.get(pk);
    if (!bucket) this.buckets.set(pk, (bucket = { tokens: this.options.wcuPerKey, at: now }));
    bucket.tokens = Math.min(
      this.options.wcuPerKey,
      bucket.tokens + ((now - bucket.at) / 1000) * this.options.wcuPerKey,
    );
    bucket.at = now;
    return bucket;
  }

  private onWrite(record: WriteRecord): void {
    if (!this.enabled) return;
    this.bucketOf(record.PK).tokens -= record.units;
    this.meter(this.writeMeter, `table ${record.PK}`, record.units);
    this.meter(this.billedMeter, `table ${record.PK}`, record.units);
    for (const index of record.indexes) {
      this.meter(this.writeMeter, `${index.index} ${index.partitionKey}`, index.units);
      this.meter(this.billedMeter, `${index.index} ${index.partitionKey}`, index.units);
    }
    const cost = this.costs.getStore();
    if (cost) {
      const indexUnits = record.indexes.reduce((sum, index) => sum + index.units, 0);
      if (record.transactional) cost.txUnits += record.units + indexUnits;
      cost.allInUnits += record.units + indexUnits;
    }
  }

  private meter(meters: Map<string, KeyMeter>, key: string, units: number): void {
    if (this.time.now < this.measureFrom) return;
    // Seconds counted from the window's start: a 1 s window is one whole metered second (on the
    // clock's seconds a window straddles two, and each peak saw only part of the window's load).
    const second = Math.floor((this.time.now - this.measureFrom) / 1000);
    let meter = meters.get(key);
    if (!meter) meters.set(key, (meter = { second, units: 0, max: 0, total: 0 }));
    if (meter.second !== second) {
      meter.second = second;
      meter.units = 0;
    }
    meter.units += units;
    meter.total += units;
    meter.max = Math.max(meter.max, meter.units);
  }

  /** The hottest keys by their peak units in one second. */
  hottest(meters: Map<string, KeyMeter>, count: number): { key: string; peakPerS: number; total: number }[] {
    return [...meters.entries()]
      .map(([key, meter]) => ({ key, peakPerS: meter.max, total: meter.total }))
      .sort((a, b) => b.peakPerS - a.peakPerS)
      .slice(0, count);
  }

  newCost(): RequestCost {
    return { txUnits: 0, allInUnits: 0, transactionAttempts: 0, conflicts: 0, cancelledItems: 0, throttledMs: 0 };
  }

  get memory(): MemoryDynamo {
    return this.dynamo;
  }
}

const READS = new Set(['GetCommand', 'QueryCommand', 'BatchGetCommand', 'ScanCommand']);
