/**
 * memory-dynamo: an in-memory DynamoDB behind a document-client `send()`, so the project's real
 * DynamoDB code (stores, writers, `transactWrite`) runs unchanged on a `TableContext` whose client
 * is this fake. Exact decimals (NumberValue in and out), expressions evaluated as DynamoDB
 * evaluates them, transactions all or nothing (TransactionCanceledException with reasons and
 * ALL_OLD items, as the SDK raises it), GSIs projected ALL from the table schema.
 *
 * Hooks (all optional, replaceable at any time through `dynamo.hooks`):
 * - `onTransaction({ keys, kind })`: before a transaction (or a single write) is applied; answer
 *   'conflict' (or the positions that conflict) to cancel it with TransactionConflict, as DynamoDB
 *   does when another transaction holds an item. May be async: the bench's holds and latency run
 *   here, in virtual time; conditions are evaluated and the writes applied after it, atomically.
 * - `onWrite(record)`: every item written (base key, index partitions, write units, old/new item).
 * - `onRead(record)`: every read (partition key read and read units).
 * - `onChange(change)`: every applied change, old and new image (what the table's stream carries).
 */
import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
  TransactionConflictException,
  type AttributeValue,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { NumberValue, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { TABLE_KEY } from '../../../shared/persistence/table-schema.js';
import { readUnits, writeUnits } from '../../../bench/lib/item-size.js';
import {
  applyUpdate,
  holds,
  parseCondition,
  parseProjection,
  parseUpdate,
  project,
  references,
  resolvePath,
  type Condition,
  type Substitutions,
} from './expressions.js';
import { binarySearch, MemoryTable, type Stored } from './store.js';
import { cloneMap, ValidationError, type AttributeMap } from './values.js';

export interface ItemRef {
  tableName: string;
  PK: string;
  SK: string;
}

export interface WriteRecord extends ItemRef {
  /** Write units on the base item (transactional writes count double). */
  units: number;
  transactional: boolean;
  /** Index partitions written, with their units (index writes are standard writes). */
  indexes: { index: string; partitionKey: string; units: number }[];
  oldItem: AttributeMap | undefined;
  newItem: AttributeMap | undefined;
}

export interface ReadRecord {
  tableName: string;
  index: string | undefined;
  partitionKey: string;
  units: number;
  op: string;
}

export interface ChangeRecord extends ItemRef {
  oldImage: AttributeMap | undefined;
  newImage: AttributeMap | undefined;
  at: number;
}

export type TransactionVerdict = 'ok' | 'conflict' | readonly number[];

export interface MemoryDynamoHooks {
  onTransaction?: (request: {
    keys: ItemRef[];
    kind: 'transaction' | 'write';
  }) => TransactionVerdict | Promise<TransactionVerdict>;
  onWrite?: (record: WriteRecord) => void;
  onRead?: (record: ReadRecord) => void;
  onChange?: (change: ChangeRecord) => void;
  /** The clock of change records (virtual time in the bench). */
  now?: () => number;
}

export interface MemoryDynamoOptions {
  /** Tables that exist from the start (all with the schema of shared/persistence/table-schema.ts). */
  tables?: string[];
  hooks?: MemoryDynamoHooks;
}

export interface MemoryDynamo {
  /** Pass as `TableContext.client`: only `send` is implemented. */
  client: DynamoDBDocumentClient;
  send(command: unknown): Promise<Record<string, unknown>>;
  hooks: MemoryDynamoHooks;
  table(name: string): MemoryTable;
  /** Every item of a table in document form (numbers wrapped), for assertions and diffs. */
  items(tableName: string): Record<string, unknown>[];
  /** Calls by command name. */
  readonly calls: Map<string, number>;
}

const UNMARSHALL = { wrapNumbers: true } as const;
const MARSHALL = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;
const METADATA = { httpStatusCode: 200, attempts: 1, totalRetryDelay: 0 };

type Input = Record<string, any>;

export function createMemoryDynamo(options: MemoryDynamoOptions = {}): MemoryDynamo {
  const tables = new Map<string, MemoryTable>();
  for (const name of options.tables ?? []) tables.set(name, new MemoryTable(name));
  const calls = new Map<string, number>();
  const dynamo: MemoryDynamo = {
    client: undefined as unknown as DynamoDBDocumentClient,
    hooks: options.hooks ?? {},
    calls,
    table: (name) => tableOf(name),
    items: (name) => [...tableOf(name).scan(undefined)].map((stored) => unmarshall(stored.item, UNMARSHALL)),
    send: (command) => send(command),
  };
  dynamo.client = {
    send: dynamo.send,
    config: {},
    middlewareStack: { add() {}, remove() {} },
  } as unknown as DynamoDBDocumentClient;

  function tableOf(name: string): MemoryTable {
    const table = tables.get(name);
    if (!table) {
      const error = new Error(`Cannot do operations on a non-existent table`);
      Object.assign(error, { name: 'ResourceNotFoundException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
      throw error;
    }
    return table;
  }

  async function send(command: unknown): Promise<Record<string, unknown>> {
    const name = (command as { constructor: { name: string } }).constructor.name;
    const input = (command as { input: Input }).input;
    calls.set(name, (calls.get(name) ?? 0) + 1);
    const wire = !DOCUMENT_COMMANDS.has(name);
    const op = name.replace(/Command$/, '').replace(/Item$|Items$/, '');
    switch (op) {
      case 'Get':
        return getItem(input, wire);
      case 'Put':
      case 'Update':
      case 'Delete':
        return singleWrite(op, input, wire);
      case 'Query':
        return query(input, wire);
      case 'Scan':
        return scan(input, wire);
      case 'BatchGet':
        return batchGet(input, wire);
      case 'BatchWrite':
        return batchWrite(input, wire);
      case 'TransactWrite':
        return transactWrite(input, wire);
      case 'CreateTable':
        if (!tables.has(input.TableName)) tables.set(input.TableName, new MemoryTable(input.TableName));
        return { TableDescription: { TableName: input.TableName, TableStatus: 'ACTIVE' }, $metadata: METADATA };
      case 'DeleteTable':
        tableOf(input.TableName);
        tables.delete(input.TableName);
        return { $metadata: METADATA };
      case 'DescribeTable':
        tableOf(input.TableName);
        return { Table: { TableName: input.TableName, TableStatus: 'ACTIVE' }, $metadata: METADATA };
      default:
        throw new Error(`memory-dynamo does not implement ${name}`);
    }
  }

  // ------------------------------------------------------------ reads

  function getItem(input: Input, wire: boolean): Record<string, unknown> {
    const table = tableOf(input.TableName);
    const key = keyOf(input.Key, wire);
    const stored = table.get(key.PK, key.SK);
    const units = readUnits(stored?.size ?? 0, { consistent: input.ConsistentRead === true });
    dynamo.hooks.onRead?.({ tableName: table.name, index: undefined, partitionKey: key.PK, units, op: 'Get' });
    const item = stored ? projected(stored.item, input) : undefined;
    return {
      ...(item ? { Item: out(item, wire) } : {}),
      ...capacity(input, table.name, units, 0, 'read'),
      $metadata: METADATA,
    };
  }

  function batchGet(input: Input, wire: boolean): Record<string, unknown> {
    const responses: Record<string, unknown[]> = {};
    let count = 0;
    const consumed: Record<string, unknown>[] = [];
    for (const [tableName, request] of Object.entries(input.RequestItems as Record<string, Input>)) {
      const table = tableOf(tableName);
      const seen = new Set<string>();
      let units = 0;
      responses[tableName] = [];
      for (const rawKey of request.Keys as unknown[]) {
        count++;
        const key = keyOf(rawKey, wire);
        const id = `${key.PK}\u0000${key.SK}`;
        if (seen.has(id)) throw new ValidationError('Provided list of item keys contains duplicates');
        seen.add(id);
        const stored = table.get(key.PK, key.SK);
        const itemUnits = readUnits(stored?.size ?? 0, { consistent: request.ConsistentRead === true });
        units += itemUnits;
        dynamo.hooks.onRead?.({ tableName, index: undefined, partitionKey: key.PK, units: itemUnits, op: 'BatchGet' });
        if (stored) responses[tableName]!.push(out(projected(stored.item, request), wire));
      }
      consumed.push({ TableName: tableName, CapacityUnits: units, ReadCapacityUnits: units });
    }
    if (count > 100) throw new ValidationError('Too many items requested for the BatchGetItem call');
    return {
      Responses: responses,
      UnprocessedKeys: {},
      ...(input.ReturnConsumedCapacity && input.ReturnConsumedCapacity !== 'NONE'
        ? { ConsumedCapacity: consumed }
        : {}),
      $metadata: METADATA,
    };
  }

  function query(input: Input, wire: boolean): Record<string, unknown> {
    const table = tableOf(input.TableName);
    const subs = substitutions(input, wire, [
      input.KeyConditionExpression,
      input.FilterExpression,
      input.ProjectionExpression,
    ]);
    if (input.IndexName !== undefined && input.ConsistentRead === true)
      throw new ValidationError('Consistent reads are not supported on global secondary indexes');
    const index = table.index(input.IndexName);
    const keyCondition = parseCondition(input.KeyConditionExpression);
    const pk = partitionOf(keyCondition, index.partitionName, subs);
    const view = index.view(pk);
    const forward = input.ScanIndexForward !== false;
    let position: number;
    if (input.ExclusiveStartKey) {
      const start = wire ? input.ExclusiveStartKey : marshall(input.ExclusiveStartKey, MARSHALL);
      const id = index.entryId(start as AttributeMap);
      const at = binarySearch(view.keys, id);
      const exact = view.keys[at] === id;
      position = forward ? (exact ? at + 1 : at) : at - 1;
    } else position = forward ? 0 : view.keys.length - 1;
    const filter = input.FilterExpression ? parseCondition(input.FilterExpression) : undefined;
    const page = readPage(
      (function* () {
        for (let i = position; forward ? i < view.entries.length : i >= 0; i += forward ? 1 : -1) {
          const stored = view.entries[i]!;
          if (holds(keyCondition, stored.item, subs)) yield stored;
        }
      })(),
      input,
      filter,
      subs,
      index.isBase ? [] : [index.partitionName, index.sortName],
      wire,
    );
    const units = readUnits(page.bytes, { consistent: input.ConsistentRead === true });
    dynamo.hooks.onRead?.({ tableName: table.name, index: input.IndexName, partitionKey: pk, units, op: 'Query' });
    return { ...page.output, ...capacity(input, table.name, units, 0, 'read', input.IndexName), $metadata: METADATA };
  }

  function scan(input: Input, wire: boolean): Record<string, unknown> {
    const table = tableOf(input.TableName);
    const subs = substitutions(input, wire, [input.FilterExpression, input.ProjectionExpression]);
    const index = table.index(input.IndexName);
    const filter = input.FilterExpression ? parseCondition(input.FilterExpression) : undefined;
    const segments = input.TotalSegments as number | undefined;
    const all = [...table.scan(input.IndexName)].filter(
      (stored) => segments === undefined || fnv1a(stored.item[TABLE_KEY.partition]!.S!) % segments === input.Segment,
    );
    let position = 0;
    if (input.ExclusiveStartKey) {
      const start = (wire ? input.ExclusiveStartKey : marshall(input.ExclusiveStartKey, MARSHALL)) as AttributeMap;
      const id = `${start[index.partitionName]!.S}\u0001${index.entryId(start)}`;
      position =
        all.findIndex((stored) => `${stored.item[index.partitionName]!.S}\u0001${index.entryId(stored.item)}` === id) +
        1;
    }
    const page = readPage(
      all.slice(position)[Symbol.iterator](),
      input,
      filter,
      subs,
      index.isBase ? [] : [index.partitionName, index.sortName],
      wire,
    );
    const units = readUnits(page.bytes, { consistent: input.ConsistentRead === true });
    return { ...page.output, ...capacity(input, table.name, units, 0, 'read', input.IndexName), $metadata: METADATA };
  }

  /** A page of Query/Scan: Limit and 1 MB on items evaluated, then the filter, projection and LastEvaluatedKey. */
  function readPage(
    candidates: Iterator<Stored>,
    input: Input,
    filter: Condition | undefined,
    subs: Substitutions,
    indexKeyNames: string[],
    wire: boolean,
  ): { output: Record<string, unknown>; bytes: number } {
    const limit = input.Limit as number | undefined;
    if (limit !== undefined && limit < 1) throw new ValidationError('Limit must be greater than or equal to 1');
    const items: unknown[] = [];
    let scanned = 0;
    let bytes = 0;
    let last: Stored | undefined;
    let stopped = false;
    for (let next = candidates.next(); !next.done; next = candidates.next()) {
      if ((limit !== undefined && scanned >= limit) || bytes >= 1024 * 1024) {
        stopped = true;
        break;
      }
      const stored = next.value;
      scanned++;
      bytes += stored.size;
      last = stored;
      if (filter && !holds(filter, stored.item, subs)) continue;
      items.push(out(projected(stored.item, input), wire));
    }
    // DynamoDB answers a LastEvaluatedKey whenever it stopped at the limit, even with nothing after.
    if (!stopped && limit !== undefined && scanned === limit) stopped = true;
    const lastKey =
      stopped && last
        ? Object.fromEntries(
            [TABLE_KEY.partition, TABLE_KEY.sort, ...indexKeyNames].map((name) => [name, last!.item[name]!]),
          )
        : undefined;
    return {
      output: {
        ...(input.Select === 'COUNT' ? {} : { Items: items }),
        Count: items.length,
        ScannedCount: scanned,
        ...(lastKey ? { LastEvaluatedKey: out(lastKey, wire) } : {}),
      },
      bytes,
    };
  }

  function projected(item: AttributeMap, input: Input): AttributeMap {
    if (!input.ProjectionExpression) return item;
    const subs = { names: input.ExpressionAttributeNames ?? {}, values: {} };
    return project(item, parseProjection(input.ProjectionExpression), subs);
  }

  // ------------------------------------------------------------ writes

  interface Planned {
    table: MemoryTable;
    key: ItemRef;
    action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
    condition: Condition | undefined;
    subs: Substitutions;
    /** The item after the write (computed at apply time for updates). */
    build: (old: AttributeMap | undefined) => AttributeMap | undefined;
    returnOld: boolean;
    input: Input;
  }

  function plan(action: Planned['action'], input: Input, wire: boolean): Planned {
    const table = tableOf(input.TableName);
    const subs = substitutions(input, wire, [input.ConditionExpression, input.UpdateExpression]);
    const condition = input.ConditionExpression ? parseCondition(input.ConditionExpression) : undefined;
    let key: { PK: string; SK: string };
    let build: Planned['build'];
    if (action === 'Put') {
      const item = (wire ? cloneMap(input.Item) : marshall(input.Item, MARSHALL)) as AttributeMap;
      table.validate(item);
      key = { PK: item[TABLE_KEY.partition]!.S!, SK: item[TABLE_KEY.sort]!.S! };
      build = () => item;
    } else {
      key = keyOf(input.Key, wire);
      if (action === 'Update') {
        if (!input.UpdateExpression) throw new ValidationError('memory-dynamo: an update needs an UpdateExpression');
        const update = parseUpdate(input.UpdateExpression);
        const keyItem: AttributeMap = { [TABLE_KEY.partition]: { S: key.PK }, [TABLE_KEY.sort]: { S: key.SK } };
        build = (old) => applyUpdate(update, old ?? keyItem, subs, [TABLE_KEY.partition, TABLE_KEY.sort]).item;
      } else if (action === 'Delete') build = () => undefined;
      else {
        if (!condition) throw new ValidationError('A ConditionCheck needs a ConditionExpression');
        build = (old) => old;
      }
    }
    return {
      table,
      key: { tableName: table.name, ...key },
      action,
      condition,
      subs,
      build,
      returnOld: input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD',
      input,
    };
  }

  interface Applied {
    old?: AttributeMap;
    next?: AttributeMap;
    units: number;
    indexUnits: number;
  }

  /** Applies a planned write whose condition held: the change, its units and its hooks. */
  function apply(planned: Planned, old: Stored | undefined, transactional: boolean): Applied {
    if (planned.action === 'ConditionCheck') {
      const units = writeUnits(old?.size ?? 0, transactional);
      dynamo.hooks.onWrite?.({
        ...planned.key,
        units,
        transactional,
        indexes: [],
        oldItem: old?.item,
        newItem: old?.item,
      });
      return { ...(old ? { old: old.item, next: old.item } : {}), units, indexUnits: 0 };
    }
    const nextItem = planned.build(old?.item);
    const next = nextItem ? { item: nextItem, size: planned.table.validate(nextItem) } : undefined;
    planned.table.write(planned.key.PK, planned.key.SK, next);
    const indexes = indexUnits(planned.table, old, next);
    const units = writeUnits(Math.max(old?.size ?? 0, next?.size ?? 0), transactional);
    dynamo.hooks.onWrite?.({ ...planned.key, units, transactional, indexes, oldItem: old?.item, newItem: next?.item });
    if (old || next)
      dynamo.hooks.onChange?.({
        ...planned.key,
        oldImage: old?.item,
        newImage: next?.item,
        at: dynamo.hooks.now?.() ?? Date.now(),
      });
    return {
      ...(old ? { old: old.item } : {}),
      ...(next ? { next: next.item } : {}),
      units,
      indexUnits: indexes.reduce((sum, entry) => sum + entry.units, 0),
    };
  }

  async function singleWrite(
    action: 'Put' | 'Update' | 'Delete',
    input: Input,
    wire: boolean,
  ): Promise<Record<string, unknown>> {
    const planned = plan(action, input, wire);
    const verdict = await dynamo.hooks.onTransaction?.({ keys: [planned.key], kind: 'write' });
    if (verdict !== undefined && verdict !== 'ok' && (verdict === 'conflict' || verdict.length > 0)) {
      throw new TransactionConflictException({
        message: 'Transaction is ongoing for the item',
        $metadata: { httpStatusCode: 400 },
      });
    }
    const old = planned.table.get(planned.key.PK, planned.key.SK);
    if (planned.condition && !holds(planned.condition, old?.item, planned.subs)) {
      const units = writeUnits(old?.size ?? 0, false);
      dynamo.hooks.onWrite?.({
        ...planned.key,
        units,
        transactional: false,
        indexes: [],
        oldItem: old?.item,
        newItem: old?.item,
      });
      throw new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: { httpStatusCode: 400 },
        ...(planned.returnOld && old ? { Item: cloneMap(old.item) } : {}),
      });
    }
    const result = apply(planned, old, false);
    const returnValues = (input.ReturnValues as string | undefined) ?? 'NONE';
    let attributes: AttributeMap | undefined;
    if (returnValues === 'ALL_OLD') attributes = result.old;
    else if (returnValues === 'ALL_NEW') attributes = result.next;
    else if (returnValues === 'UPDATED_NEW' || returnValues === 'UPDATED_OLD') {
      const source = returnValues === 'UPDATED_NEW' ? result.next : result.old;
      const updated = action === 'Update' ? [...new Set(parseUpdateNames(input, wire))] : [];
      attributes = source
        ? Object.fromEntries(updated.filter((n) => source[n]).map((n) => [n, source[n]!]))
        : undefined;
    }
    return {
      ...(attributes && Object.keys(attributes).length > 0 ? { Attributes: out(attributes, wire) } : {}),
      ...capacity(input, planned.table.name, result.units, result.indexUnits, 'write'),
      $metadata: METADATA,
    };
  }

  function parseUpdateNames(input: Input, wire: boolean): string[] {
    const subs = substitutions(input, wire, [input.ConditionExpression, input.UpdateExpression]);
    const update = parseUpdate(input.UpdateExpression);
    return [
      ...update.set.map((s) => s.path),
      ...update.remove,
      ...update.add.map((a) => a.path),
      ...update.delete.map((d) => d.path),
    ].map((path) => String(resolvePath(path, subs)[0]));
  }

  async function batchWrite(input: Input, wire: boolean): Promise<Record<string, unknown>> {
    const requests = Object.entries(input.RequestItems as Record<string, Input[]>).flatMap(([tableName, list]) =>
      list.map((request) => ({ tableName, request })),
    );
    if (requests.length > 25) throw new ValidationError('Too many items requested for the BatchWriteItem call');
    for (const { tableName, request } of requests) {
      if (request.PutRequest) await singleWrite('Put', { TableName: tableName, Item: request.PutRequest.Item }, wire);
      else await singleWrite('Delete', { TableName: tableName, Key: request.DeleteRequest.Key }, wire);
    }
    return { UnprocessedItems: {}, $metadata: METADATA };
  }

  async function transactWrite(input: Input, wire: boolean): Promise<Record<string, unknown>> {
    const entries = input.TransactItems as Input[];
    if (!entries || entries.length === 0 || entries.length > 100)
      throw new ValidationError('Member must have length less than or equal to 100 and greater than or equal to 1');
    const planned = entries.map((entry) => {
      const action = (['Put', 'Update', 'Delete', 'ConditionCheck'] as const).find((name) => entry[name] !== undefined);
      if (!action)
        throw new ValidationError('A transaction item needs exactly one of Put, Update, Delete, ConditionCheck');
      return plan(action, entry[action], wire);
    });
    const seen = new Set<string>();
    for (const { key } of planned) {
      const id = `${key.tableName}\u0000${key.PK}\u0000${key.SK}`;
      if (seen.has(id)) throw new ValidationError('Transaction request cannot include multiple operations on one item');
      seen.add(id);
    }
    const verdict = await dynamo.hooks.onTransaction?.({ keys: planned.map((p) => p.key), kind: 'transaction' });
    if (verdict !== undefined && verdict !== 'ok') {
      const conflicting = new Set(verdict === 'conflict' ? planned.map((_, i) => i) : verdict);
      if (conflicting.size > 0)
        throw canceled(
          planned.map((_, i) =>
            conflicting.has(i)
              ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
              : { Code: 'None' },
          ),
        );
    }
    // Evaluate every condition (and every update) against the state before the transaction.
    const olds = planned.map((p) => p.table.get(p.key.PK, p.key.SK));
    const reasons: CancellationReason[] = planned.map((p, i) => {
      const old = olds[i];
      if (p.condition && !holds(p.condition, old?.item, p.subs))
        return {
          Code: 'ConditionalCheckFailed',
          Message: 'The conditional request failed',
          ...(p.returnOld && old ? { Item: cloneMap(old.item) } : {}),
        };
      try {
        const next = p.build(old?.item);
        if (next && p.action !== 'ConditionCheck') p.table.validate(next);
      } catch (error) {
        if (error instanceof ValidationError) return { Code: 'ValidationError', Message: error.message };
        throw error;
      }
      return { Code: 'None' };
    });
    if (reasons.some((reason) => reason.Code !== 'None')) throw canceled(reasons);
    let tableUnits = 0;
    let indexTotal = 0;
    planned.forEach((p, i) => {
      const result = apply(p, olds[i], true);
      tableUnits += result.units;
      indexTotal += result.indexUnits;
    });
    const tableName = planned[0]!.table.name;
    const mode = input.ReturnConsumedCapacity as string | undefined;
    return {
      ...(mode && mode !== 'NONE'
        ? { ConsumedCapacity: [capacityRecord(mode, tableName, tableUnits, indexTotal, 'write')] }
        : {}),
      $metadata: METADATA,
    };
  }

  // ------------------------------------------------------------ units

  function indexUnits(table: MemoryTable, old: Stored | undefined, next: Stored | undefined) {
    const before = old ? table.indexKeysOf(old.item) : [];
    const after = next ? table.indexKeysOf(next.item) : [];
    const out: WriteRecord['indexes'] = [];
    for (const index of new Set([...before, ...after].map((k) => k.index))) {
      const b = before.find((k) => k.index === index);
      const a = after.find((k) => k.index === index);
      const sameKey =
        a &&
        b &&
        old!.item[table.indexes.get(index)!.sortName]!.S === next!.item[table.indexes.get(index)!.sortName]!.S &&
        a.partitionKey === b.partitionKey;
      if (sameKey)
        out.push({ index, partitionKey: a.partitionKey, units: writeUnits(Math.max(old!.size, next!.size), false) });
      else {
        if (b) out.push({ index, partitionKey: b.partitionKey, units: writeUnits(old!.size, false) });
        if (a) out.push({ index, partitionKey: a.partitionKey, units: writeUnits(next!.size, false) });
      }
    }
    return out;
  }

  function capacity(
    input: Input,
    tableName: string,
    units: number,
    indexTotal: number,
    kind: 'read' | 'write',
    index?: string,
  ) {
    const mode = input.ReturnConsumedCapacity as string | undefined;
    if (!mode || mode === 'NONE') return {};
    if (index !== undefined) return { ConsumedCapacity: capacityRecord(mode, tableName, 0, units, kind, index) };
    return { ConsumedCapacity: capacityRecord(mode, tableName, units, indexTotal, kind) };
  }

  function capacityRecord(
    mode: string,
    tableName: string,
    tableUnits: number,
    indexUnits: number,
    kind: 'read' | 'write',
    index?: string,
  ) {
    const field = kind === 'read' ? 'ReadCapacityUnits' : 'WriteCapacityUnits';
    const total = tableUnits + indexUnits;
    return {
      TableName: tableName,
      CapacityUnits: total,
      [field]: total,
      ...(mode === 'INDEXES'
        ? {
            Table: { CapacityUnits: tableUnits, [field]: tableUnits },
            ...(indexUnits > 0
              ? { GlobalSecondaryIndexes: { [index ?? 'ALL']: { CapacityUnits: indexUnits, [field]: indexUnits } } }
              : {}),
          }
        : {}),
    };
  }

  return dynamo;
}

// -------------------------------------------------------------- helpers

const DOCUMENT_COMMANDS = new Set([
  'GetCommand',
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetCommand',
  'BatchWriteCommand',
  'TransactWriteCommand',
]);

function out(item: AttributeMap, wire: boolean): Record<string, unknown> {
  return wire ? cloneMap(item) : documentOf(item);
}

/**
 * unmarshall(item, { wrapNumbers: true }) without the SDK's generic walk (the property test's
 * hottest path): the same values, numbers as NumberValue, sets as Set, binaries as they are.
 */
function documentOf(map: AttributeMap): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const name in map) document[name] = nativeOf(map[name]!);
  return document;
}

function nativeOf(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return NumberValue.from(value.N);
  if (value.M !== undefined) return documentOf(value.M);
  if (value.BOOL !== undefined) return Boolean(value.BOOL);
  if (value.NULL !== undefined) return null;
  if (value.L !== undefined) return value.L.map(nativeOf);
  if (value.B !== undefined) return value.B;
  if (value.SS !== undefined) return new Set(value.SS);
  if (value.NS !== undefined) return new Set(value.NS.map((n) => NumberValue.from(n)));
  if (value.BS !== undefined) return new Set(value.BS);
  return unmarshall({ value }, UNMARSHALL).value;
}

function keyOf(rawKey: unknown, wire: boolean): { PK: string; SK: string } {
  const key = (wire ? rawKey : marshall(rawKey as Record<string, unknown>, MARSHALL)) as AttributeMap;
  const names = Object.keys(key);
  const pk = key[TABLE_KEY.partition]?.S;
  const sk = key[TABLE_KEY.sort]?.S;
  if (names.length !== 2 || pk === undefined || sk === undefined)
    throw new ValidationError('The provided key element does not match the schema');
  return { PK: pk, SK: sk };
}

/** The request's names and values; DynamoDB refuses ones no expression of the request uses. */
function substitutions(input: Input, wire: boolean, expressions: (string | undefined)[]): Substitutions {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const rawValues = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  const values = (rawValues ? (wire ? rawValues : marshall(rawValues, MARSHALL)) : {}) as Record<
    string,
    AttributeValue
  >;
  const usedNames = new Set<string>();
  const usedValues = new Set<string>();
  for (const expression of expressions) {
    if (!expression) continue;
    const found = references(expression);
    found.names.forEach((n) => usedNames.add(n));
    found.values.forEach((v) => usedValues.add(v));
  }
  for (const name of Object.keys(names))
    if (!usedNames.has(name))
      throw new ValidationError(`Value provided in ExpressionAttributeNames unused in expressions: keys: {${name}}`);
  for (const name of Object.keys(values))
    if (!usedValues.has(name))
      throw new ValidationError(`Value provided in ExpressionAttributeValues unused in expressions: keys: {${name}}`);
  for (const name of usedNames)
    if (names[name] === undefined)
      throw new ValidationError(
        `An expression attribute name used in the document path is not defined; attribute name: ${name}`,
      );
  for (const name of usedValues)
    if (values[name] === undefined)
      throw new ValidationError(
        `An expression attribute value used in expression is not defined; attribute value: ${name}`,
      );
  return { names, values };
}

/** The partition key value a key condition fixes (`<pk> = :v`, at the top level of its ANDs). */
function partitionOf(condition: Condition, partitionName: string, subs: Substitutions): string {
  const found: string[] = [];
  const visit = (node: Condition) => {
    if (node.kind === 'and') {
      visit(node.left);
      visit(node.right);
    } else if (node.kind === 'cmp' && node.op === '=' && node.left.kind === 'path' && node.right.kind === 'value') {
      const path = resolvePath(node.left.path, subs);
      if (path.length === 1 && path[0] === partitionName) {
        const value = subs.values[node.right.name];
        if (value?.S !== undefined) found.push(value.S);
      }
    }
  };
  visit(condition);
  if (found.length !== 1) throw new ValidationError('Query condition missed key schema element');
  return found[0]!;
}

function canceled(reasons: CancellationReason[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: reasons,
  });
}

/** FNV-1a 32-bit (scan segments). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
