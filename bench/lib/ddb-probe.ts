/**
 * Observes (and, on request, stubs) every DynamoDB call the service makes, without touching
 * product code.
 *
 * The Lambda handlers use the process-wide container, whose document client is built inside
 * `createContainer`; nothing hands it out. So the probe adopts every DynamoDBDocumentClient the
 * first time it sends (a wrapper around the inherited `send`) and adds its middleware to that
 * client's stack. What it adds:
 *
 * - `benchObserve` (initialize, high): per call the command name, latency, ConsumedCapacity
 *   (it asks for ReturnConsumedCapacity INDEXES, so table and index units come separately), the
 *   items read and the items of a TransactWriteItems, recorded into the trace of the current
 *   async context (AsyncLocalStorage), so concurrent requests are told apart. Optionally it
 *   simulates TransactionConflict the way DynamoDB raises it and DynamoDB Local never does.
 * - `benchDocumentStub` (initialize, low): when set, answers with canned document-client
 *   outputs (no marshalling, no HTTP): the service's own CPU.
 * - HTTP stub: swaps the client's `requestHandler` for canned HTTP responses, so the whole SDK
 *   path (marshalling, serialization, SigV4 signing, retries, parsing) still runs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI } from '../../shared/persistence/table-schema.js';
import { docItemSize, writeUnits } from './item-size.js';

export interface ConsumedCapacityRecord {
  TableName?: string;
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<
    string,
    { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }
  >;
}

export interface TransactItemRecord {
  action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  key: { PK: string; SK: string };
  /** The full item of a Put (document form). */
  item?: Record<string, unknown>;
}

export interface CallRecord {
  op: string;
  ms: number;
  consumed: ConsumedCapacityRecord[];
  /** Whether the request was consistent (reads). */
  consistent?: boolean;
  /** Items returned by a read (document form). */
  readItems?: Record<string, unknown>[];
  /** Items of a TransactWriteItems. */
  transactItems?: TransactItemRecord[];
  error?: string;
  /** The error was simulated by the probe (TransactionConflict). */
  simulated?: boolean;
  /** The call's input and document-form output (only with `captureOutputs`). */
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
}

export interface Trace {
  calls: CallRecord[];
}

/** A command's input/output as the middleware sees them (document form at the initialize step). */
type Input = Record<string, unknown>;
type Output = Record<string, unknown>;

export type DocumentStub = (op: string, input: Input) => Output;
export interface HttpStubResponse {
  statusCode: number;
  body: Uint8Array;
}
/** `target` is the X-Amz-Target operation (e.g. "GetItem"), `body` the JSON request text. */
export type HttpStub = (target: string, body: string) => HttpStubResponse;

const CAPACITY_OPS = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'TransactWriteItems',
  'TransactGetItems',
  'BatchGetItem',
  'BatchWriteItem',
]);

interface RequestHandlerLike {
  handle(
    request: { headers: Record<string, string>; body?: unknown },
    options?: unknown,
  ): Promise<{ response: unknown }>;
  [key: string]: unknown;
}

interface AdoptedClient {
  config: { requestHandler: RequestHandlerLike };
  middlewareStack: {
    add(middleware: unknown, options: { step: string; priority?: string; name: string; override?: boolean }): void;
  };
}

export class DynamoProbe {
  private readonly storage = new AsyncLocalStorage<Trace>();
  private readonly clients = new Set<AdoptedClient>();
  private readonly originalHandlers = new Map<AdoptedClient, RequestHandlerLike>();
  private documentStub: DocumentStub | undefined;
  /** Keys held by an in-flight TransactWriteItems (for the conflict simulation). */
  private readonly inFlight = new Map<string, number>();
  simulateConflicts = false;
  /**
   * How long a transaction holds its items in the simulation: until it completes, but at most
   * this long. DynamoDB Local is much slower than DynamoDB under load, and its queueing time
   * would otherwise count as lock time.
   */
  conflictWindowMs = 25;
  conflictsSimulated = 0;
  /** Ask for ConsumedCapacity on every call (off for CPU runs: real deployments do not ask). */
  requestCapacity = true;
  /** Off: the observing middleware only passes calls on (CPU runs measure the service, not the probe). */
  observing = true;
  /** Keep each call's document-form output in its record (to build canned replies). */
  captureOutputs = false;
  /**
   * The heat meter: while on, write units per partition key (`table <PK>`, `GSIn <PK>`) of every
   * write that succeeded, modelled by DynamoDB's rules from the request (a Put by its item's size;
   * an Update or Delete, whose stored size the request does not carry, as one started KB).
   */
  meteringHeat = false;
  readonly heat = new Map<string, number>();

  /** Runs `fn` with a fresh trace that collects every DynamoDB call made on its behalf. */
  async traced<T>(fn: () => Promise<T>): Promise<{ result: T; trace: Trace }> {
    const trace: Trace = { calls: [] };
    const result = await this.storage.run(trace, fn);
    return { result, trace };
  }

  get adoptedClients(): number {
    return this.clients.size;
  }

  adopt(client: AdoptedClient): void {
    if (this.clients.has(client)) return;
    this.clients.add(client);
    client.middlewareStack.add(this.observeMiddleware(), {
      step: 'initialize',
      priority: 'high',
      name: 'benchObserve',
      override: true,
    });
    client.middlewareStack.add(this.documentStubMiddleware(), {
      step: 'initialize',
      priority: 'low',
      name: 'benchDocumentStub',
      override: true,
    });
  }

  setDocumentStub(stub: DocumentStub | undefined): void {
    this.documentStub = stub;
  }

  /** Replaces the HTTP transport of every adopted client (undefined restores it). */
  setHttpStub(stub: HttpStub | undefined): void {
    for (const client of this.clients) {
      if (!this.originalHandlers.has(client)) this.originalHandlers.set(client, client.config.requestHandler);
      const original = this.originalHandlers.get(client)!;
      client.config.requestHandler = stub ? stubHandler(original, stub) : original;
    }
  }

  /** Wraps the real transport so every response body is also handed to `sink` (for canned replies). */
  setHttpRecorder(sink: ((target: string, requestBody: string, response: HttpStubResponse) => void) | undefined): void {
    for (const client of this.clients) {
      if (!this.originalHandlers.has(client)) this.originalHandlers.set(client, client.config.requestHandler);
      const original = this.originalHandlers.get(client)!;
      client.config.requestHandler = sink ? recordingHandler(original, sink) : original;
    }
  }

  private observeMiddleware() {
    return (next: (args: { input: Input }) => Promise<{ output: Output }>, context: { commandName?: string }) =>
      async (args: { input: Input }) => {
        if (!this.observing) return next(args);
        const trace = this.storage.getStore();
        const op = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        const input =
          this.requestCapacity && CAPACITY_OPS.has(op)
            ? { ...args.input, ReturnConsumedCapacity: 'INDEXES' }
            : args.input;
        const record: CallRecord = { op, ms: 0, consumed: [] };
        if (this.captureOutputs) record.input = args.input;
        if (op === 'GetItem' || op === 'Query') record.consistent = input.ConsistentRead === true;
        if (op === 'BatchGetItem')
          record.consistent = Object.values(
            (input.RequestItems as Record<string, { ConsistentRead?: boolean }> | undefined) ?? {},
          ).every((request) => request.ConsistentRead === true);
        if (op === 'TransactWriteItems') record.transactItems = transactItemsOf(input);
        const started = performance.now();
        let release: (() => void) | undefined;
        try {
          if (op === 'TransactWriteItems' && this.simulateConflicts) release = this.enterTransaction(record);
          const result = await next({ ...args, input });
          if (this.meteringHeat) this.meterHeat(op, input);
          record.ms = performance.now() - started;
          record.consumed = consumedOf(result.output);
          if (this.captureOutputs) record.output = result.output;
          if (op === 'GetItem' && result.output.Item)
            record.readItems = [result.output.Item as Record<string, unknown>];
          if (op === 'Query') record.readItems = (result.output.Items as Record<string, unknown>[] | undefined) ?? [];
          if (op === 'GetItem' && !result.output.Item) record.readItems = [];
          if (op === 'BatchGetItem')
            record.readItems = Object.values(
              (result.output.Responses as Record<string, Record<string, unknown>[]> | undefined) ?? {},
            ).flat();
          return result;
        } catch (error) {
          record.ms = performance.now() - started;
          record.error = (error as { name?: string }).name ?? 'Error';
          throw error;
        } finally {
          release?.();
          trace?.calls.push(record);
        }
      };
  }

  private meterHeat(op: string, input: Input): void {
    const add = (key: string, units: number) => this.heat.set(key, (this.heat.get(key) ?? 0) + units);
    const write = (body: Record<string, unknown>, transactional: boolean) => {
      const item = body.Item as Record<string, unknown> | undefined;
      const key = (item ?? body.Key) as Record<string, unknown> | undefined;
      if (!key) return;
      const bytes = item ? docItemSize(item) : 1024;
      add(`table ${String(key.PK)}`, writeUnits(bytes, transactional));
      if (!item) return;
      for (const index of Object.values(GSI)) {
        if (item[index.partition] !== undefined && item[index.sort] !== undefined)
          add(`${index.name} ${String(item[index.partition])}`, writeUnits(bytes, false));
      }
    };
    if (op === 'TransactWriteItems') {
      for (const entry of (input.TransactItems as Record<string, Record<string, unknown>>[] | undefined) ?? []) {
        const body = entry.Put ?? entry.Update ?? entry.Delete;
        if (body) write(body, true);
      }
    } else if (op === 'PutItem' || op === 'UpdateItem' || op === 'DeleteItem') write(input, false);
    else if (op === 'BatchWriteItem') {
      // A hot wallet's fold deletes its inbox items in batches (each a standard write).
      const tables =
        (input.RequestItems as Record<string, Record<string, Record<string, unknown>>[]> | undefined) ?? {};
      for (const request of Object.values(tables).flat()) {
        if (request.PutRequest) write(request.PutRequest, false);
        if (request.DeleteRequest) write(request.DeleteRequest, false);
      }
    }
  }

  /** The hottest keys of the heat meter: write units per payment and per second. */
  hottestKeys(payments: number, seconds: number, count = 6): { key: string; wcuPerPayment: number; wcuPerS: number }[] {
    return [...this.heat.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, units]) => ({ key, wcuPerPayment: units / Math.max(1, payments), wcuPerS: units / seconds }));
  }

  /**
   * DynamoDB cancels a transaction with TransactionConflict when one of its items is part of
   * another transaction still in flight. DynamoDB Local serializes instead, so the probe
   * reproduces the rule: a transaction touching a key held by an in-flight one is refused.
   */
  private enterTransaction(record: CallRecord): () => void {
    const keys = (record.transactItems ?? []).map((item) => `${item.key.PK}|${item.key.SK}`);
    const conflicting = keys.map((key) => this.inFlight.has(key));
    if (conflicting.some(Boolean)) {
      this.conflictsSimulated++;
      record.simulated = true;
      throw new TransactionCanceledException({
        message:
          'Transaction cancelled, please refer cancellation reasons for specific reasons (simulated by the benchmark)',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: conflicting.map((hit) =>
          hit ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
        ),
      });
    }
    for (const key of keys) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      for (const key of keys) {
        const count = (this.inFlight.get(key) ?? 1) - 1;
        if (count <= 0) this.inFlight.delete(key);
        else this.inFlight.set(key, count);
      }
    };
    const timer = setTimeout(release, this.conflictWindowMs);
    return release;
  }

  private documentStubMiddleware() {
    return (next: (args: { input: Input }) => Promise<{ output: Output }>, context: { commandName?: string }) =>
      async (args: { input: Input }) => {
        const stub = this.documentStub;
        if (!stub) return next(args);
        const op = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        return {
          output: { $metadata: { httpStatusCode: 200 }, ...stub(op, args.input) },
          response: { statusCode: 200, headers: {} },
        };
      };
  }
}

function stubHandler(original: RequestHandlerLike, stub: HttpStub): RequestHandlerLike {
  const handler: RequestHandlerLike = Object.create(original) as RequestHandlerLike;
  handler.handle = async (request) => {
    const target = (request.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
    const response = stub(target, bodyText(request.body));
    return {
      response: {
        statusCode: response.statusCode,
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': String(response.body.byteLength),
          'x-amzn-requestid': 'bench-stub',
        },
        body: response.body,
      },
    };
  };
  return handler;
}

function recordingHandler(
  original: RequestHandlerLike,
  sink: (target: string, requestBody: string, response: HttpStubResponse) => void,
): RequestHandlerLike {
  const handler: RequestHandlerLike = Object.create(original) as RequestHandlerLike;
  handler.handle = async (request, options) => {
    const out = (await original.handle(request, options)) as {
      response: { statusCode: number; headers: Record<string, string>; body: unknown };
    };
    const body = await collect(out.response.body);
    const target = (request.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
    sink(target, bodyText(request.body), { statusCode: out.response.statusCode, body });
    return { response: { ...out.response, body } };
  };
  return handler;
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return '';
}

async function collect(body: unknown): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer | string>)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function consumedOf(output: Output): ConsumedCapacityRecord[] {
  const consumed = output.ConsumedCapacity as ConsumedCapacityRecord | ConsumedCapacityRecord[] | undefined;
  if (!consumed) return [];
  return Array.isArray(consumed) ? consumed : [consumed];
}

function transactItemsOf(input: Input): TransactItemRecord[] {
  const items = (input.TransactItems as Record<string, Record<string, unknown>>[] | undefined) ?? [];
  return items.map((entry) => {
    const action =
      (['Put', 'Update', 'Delete', 'ConditionCheck'] as const).find((name) => entry[name] !== undefined) ??
      'ConditionCheck';
    const body = entry[action] as { Item?: Record<string, unknown>; Key?: Record<string, unknown> };
    const source = body.Item ?? body.Key ?? {};
    return { action, key: { PK: String(source.PK), SK: String(source.SK) }, ...(body.Item ? { item: body.Item } : {}) };
  });
}

let installed: DynamoProbe | undefined;

/**
 * Installs the probe once per process: every DynamoDBDocumentClient (including the one inside
 * the handlers' container) is adopted on its first send.
 */
export function installProbe(): DynamoProbe {
  if (installed) return installed;
  const probe = new DynamoProbe();
  const prototype = DynamoDBDocumentClient.prototype as unknown as { send: (...args: unknown[]) => unknown };
  const inherited = prototype.send;
  prototype.send = function send(this: AdoptedClient, ...args: unknown[]) {
    probe.adopt(this);
    return inherited.apply(this, args);
  };
  installed = probe;
  return probe;
}
