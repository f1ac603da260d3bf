/**
 * The payments benchmark (npm run bench): what one POST /v1/payments costs in DynamoDB calls and
 * capacity units, how much CPU the handler burns with DynamoDB stubbed, and how the handler
 * behaves with N concurrent clients on one hot wallet and on distinct wallets (DynamoDB Local).
 *
 * Everything goes through the real Lambda handler (functions/payments/handler.ts) with API
 * Gateway v2 events; the DynamoDB traffic is observed by bench/lib/ddb-probe.ts.
 * bench/run.ts starts DynamoDB Local and sets the environment before this runs.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient, GetItemCommand, PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import Big from 'big.js';
import { handler as paymentsLambda } from '../functions/payments/handler.js';
import { authenticate, LAST_USED_WRITE_INTERVAL_MS } from '../shared/auth/authenticate.js';
import { ENV } from '../shared/config/env-names.js';
import { OPERATOR_PERMISSION, type RequestContext } from '../shared/domain/tenancy.js';
import { createJournalProjector } from '../shared/domain/ledger/journal-projector.js';
import { createLedgerStore } from '../shared/persistence/ledger-store.js';
import { createProjectionStore } from '../shared/persistence/projection-store.js';
import { GSI } from '../shared/persistence/table-schema.js';
import { CONFLICT_RETRY_LIMIT } from '../shared/persistence/transact.js';
import { createWalletReader } from '../shared/persistence/wallet-store.js';
import { container, type Container } from '../shared/runtime/container.js';
import { installProbe, type CallRecord, type DynamoProbe, type HttpStubResponse, type Trace } from './lib/ddb-probe.js';
import { apiEvent, lambdaContext, type LambdaResult, type PaymentsHandler } from './lib/events.js';
import { docItemSize, itemSize, readUnits, toAttributeMap, writeUnits, type AttributeMap } from './lib/item-size.js';
import { fmt, mix, summarize, table, type Summary } from './lib/stats.js';
import { AUDIT } from '../shared/domain/audit/actions.js';
import { hotModeSizing } from '../shared/domain/hot-mode/hot-mode-rules.js';
import { partitionOf } from '../shared/domain/ledger/hot/hot-routing.js';
import { foldAll } from '../shared/persistence/hot/fold-moves.js';
import { hotModeService } from '../shared/runtime/services/hot-mode.js';

const handler = paymentsLambda as unknown as PaymentsHandler;

export interface PaymentsBenchOptions {
  endpoint: string;
  tableName: string;
  /** Seconds per load run. */
  durationS: number;
  concurrency: number[];
  cpuInvocations: number;
  cpuWarmup: number;
  /** Payments per variant in the cost section. */
  costSamples: number;
  log: (line: string) => void;
  /** Sections to run (default all): `cost`, `cpu`, `load`. */
  sections?: readonly ('cost' | 'cpu' | 'load')[];
}

/** The environment the handlers' container reads on first use (set before anything calls container()). */
export function paymentsBenchEnvironment(endpoint: string, tableName: string): Record<string, string> {
  return {
    [ENV.tableName]: tableName,
    [ENV.dynamodbEndpoint]: endpoint,
    [ENV.stage]: 'bench',
    // The per-key limiter (100/s by default) would turn the load runs into a 429 test.
    [ENV.rateLimitPerSecond]: '1000000',
    [ENV.rateLimitPerMinute]: '60000000',
    // One payer and one payee per client on top of the cost wallets.
    [ENV.walletLimitPerEnvironment]: '1000',
    // A fixed cursor secret: no getOrCreateSecret round trip on first list.
    [ENV.cursorSecret]: 'bench-cursor-secret-0123456789abcdef0123456789',
  };
}

const AMOUNT = '0.01';
/**
 * DynamoDB on-demand prices, us-east-1, since the November 2024 reduction: per million write
 * request units (a transactional write of 1 KB is 2) and per million read request units (a
 * strongly consistent read of 4 KB is 1). Stream reads by a Lambda trigger are free.
 */
export const ON_DEMAND_USD_PER_MILLION = { write: 0.625, read: 0.125 };
/** Longest time a transaction holds its items in the conflict simulation (a typical DynamoDB TransactWriteItems latency). */
const CONFLICT_WINDOW_MS = 25;

// ---------------------------------------------------------------------------------------------
// Setup

interface Fixture {
  app: Container;
  key: string;
  keyId: string;
  ctx: RequestContext;
  plainPayer: string;
  policyPayer: string;
  periodsPayer: string;
  emptyPayer: string;
  payee: string;
  hotPayer: string;
  /** A payee for the hot-mode scenario (promoted by the operator's switch before it runs). */
  hotModePayee: string;
  operator: RequestContext;
  payers: string[];
  payees: string[];
}

async function inBatches<T>(count: number, size: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => make(start + i)))));
  }
  return out;
}

async function setup(maxClients: number): Promise<Fixture> {
  const app = container();
  const operator: RequestContext = {
    principal: {
      kind: 'OPERATOR',
      keyId: 'key_bench_operator',
      organizationId: null,
      environment: null,
      permissions: [OPERATOR_PERMISSION],
      walletId: null,
    },
    actor: { actorType: 'SYSTEM', actorId: 'bench', ipAddress: '127.0.0.1' },
    requestId: 'bench-setup',
  };
  const org = await app.services.organizations.create(operator, AUDIT.organization.create, {
    name: 'Bench Organization',
  });
  const { principal } = await authenticate(app.core.authKeys, `Bearer ${org.sandboxKey}`, app.clock.now());
  const ctx: RequestContext = {
    principal,
    actor: { actorType: 'API_KEY', actorId: principal.keyId, ipAddress: '127.0.0.1' },
    requestId: 'bench-setup',
  };
  const services = app.services;

  async function wallet(
    name: string,
    options: { fund?: string; limits?: Record<string, string> } = {},
  ): Promise<string> {
    const created = await services.wallets.create(ctx, AUDIT.wallet.create, { name });
    if (options.fund) await services.wallets.fund(ctx, AUDIT.wallet.fund, created.id, options.fund);
    if (options.limits) {
      await services.policies.create(ctx, AUDIT.policy.create, {
        walletId: created.id,
        name: `${name} limits`,
        maxTransactionAmount: '1000.00',
        requireHumanApproval: false,
        ...options.limits,
      });
    }
    return created.id;
  }

  const daily = { dailyLimit: '100000.00' };
  const [plainPayer, policyPayer, periodsPayer, emptyPayer, payee, hotPayer] = await Promise.all([
    wallet('Cost plain payer', { fund: '1000.00' }),
    wallet('Cost policy payer', { fund: '1000.00', limits: daily }),
    wallet('Cost periods payer', {
      fund: '1000.00',
      limits: { dailyLimit: '100000.00', weeklyLimit: '100000.00', monthlyLimit: '100000.00' },
    }),
    wallet('Cost empty payer'),
    wallet('Cost payee'),
    wallet('Hot payer', { fund: '10000.00', limits: daily }),
  ]);
  const payers = await inBatches(maxClients, 10, (i) =>
    wallet(`Client ${i} payer`, { fund: '1000.00', limits: daily }),
  );
  const payees = await inBatches(maxClients, 10, (i) => wallet(`Client ${i} payee`));
  const hotModePayee = await wallet('Hot-mode payee');
  return {
    hotModePayee,
    operator,
    app,
    key: org.sandboxKey,
    keyId: org.sandboxKeyId,
    ctx,
    plainPayer,
    policyPayer,
    periodsPayer,
    emptyPayer,
    payee,
    hotPayer,
    payers,
    payees,
  };
}

function paymentEvent(key: string, body: { from: string; to: string; amount: string; idempotencyKey?: string }) {
  return apiEvent('POST', '/v1/payments', { key, body });
}

function errorCodeOf(result: LambdaResult): string | undefined {
  if (result.statusCode < 300) return undefined;
  try {
    return (JSON.parse(result.body ?? '{}') as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Calls and capacity units per payment

export interface ItemCost {
  label: string;
  key: { PK: string; SK: string };
  action: string;
  /** Size of the item as sent (Put) or as stored after the write (Update). */
  bytes: number;
  /** Size read back after the payment. */
  storedBytes: number;
  tableWcu: number;
  gsis: string[];
  /** Index writes at 1 WCU per KB each (DynamoDB's documented rule for index maintenance). */
  gsiWcu: number;
}

export interface PaymentCost {
  variant: string;
  status: number;
  callsByOp: Record<string, number>;
  /** Calls that failed (a cancelled transaction, a failed condition). */
  failedByOp: Record<string, number>;
  calls: number;
  transactions: number;
  transactionItems: number;
  reported: { rcu: number; wcu: number; wcuTable: number; wcuGsi: Record<string, number> };
  modeled: { rcu: number; wcuTable: number; wcuGsi: number; wcuGsiDoubled: number };
  reads: { op: string; label: string; bytes: number; rcuModeled: number; rcuReported: number }[];
  /** Read calls besides the API key lookup. */
  readsBeyondKey: number;
  items: ItemCost[];
  /** What the journal projector writes for this payment (from the table's stream): audit entry, listings. */
  projections: ItemCost[];
  projectionWcu: { modeled: number; reported: number };
  /** Units of one payment in all, modeled: the transaction (table + index entries) and its projections. */
  allInWcu: number;
  /** At on-demand prices: all-in writes and the reads (key lookup included). */
  usdPerMillion: number;
  latencyMs: number;
}

const WRITE_OPS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

function reportedUnits(call: CallRecord) {
  let total = 0;
  let tableUnits = 0;
  const gsi: Record<string, number> = {};
  for (const c of call.consumed) {
    total += c.CapacityUnits ?? 0;
    tableUnits += c.Table?.CapacityUnits ?? 0;
    for (const [name, units] of Object.entries(c.GlobalSecondaryIndexes ?? {}))
      gsi[name] = (gsi[name] ?? 0) + (units.CapacityUnits ?? 0);
  }
  return { total, table: tableUnits, gsi };
}

function labelOf(key: { PK: string; SK: string }, roles: Record<string, string>): string {
  const walletId = key.PK.startsWith('WALLET#') ? key.PK.slice('WALLET#'.length) : undefined;
  const role = walletId ? (roles[walletId] ?? 'wallet') : '';
  if (walletId && key.SK === 'WALLET') return `${role} wallet (balance)`;
  if (walletId && key.SK.startsWith('ENTRY#')) return `${role} ledger entry`;
  if (walletId && key.SK.startsWith('SPEND#')) return `spend counter ${key.SK.split('#')[1]}`;
  if (walletId && key.SK.startsWith('POLICY#')) return `policy`;
  if (key.PK.startsWith('TXN#')) return 'journal record (legs, key claim, audit facts)';
  if (key.PK.startsWith('AUDIT#')) return 'audit entry';
  if (key.PK.startsWith('OUTBOX#')) return 'outbox event';
  if (key.PK.startsWith('IDEMP#')) return 'idempotency record';
  if (key.PK.startsWith('PAYMENTS#')) return 'payment listing (organization list)';
  if (key.PK.startsWith('WALLETS#')) return 'wallet listing';
  if (key.PK.startsWith('KEYHASH#')) return 'API key';
  return `${key.PK.split('#')[0]} item`;
}

function readLabel(call: CallRecord, roles: Record<string, string>): string {
  const input = call.input ?? {};
  if (call.op === 'Query') {
    const pk = String((input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'] ?? '');
    return pk.startsWith('WALLET#') ? `${roles[pk.slice(7)] ?? 'wallet'} snapshot (wallet+policies+counters)` : 'query';
  }
  if (call.op === 'BatchGetItem') {
    const keys = Object.values(
      (input.RequestItems as Record<string, { Keys: { PK: string; SK: string }[] }> | undefined) ?? {},
    ).flatMap((request) => request.Keys);
    return keys.map((key) => (key.PK.startsWith('TXN#') ? 'key slot' : labelOf(key, roles))).join(' + ');
  }
  const key = input.Key as { PK: string; SK: string } | undefined;
  return key ? labelOf(key, roles) : call.op;
}

async function storedItem(
  raw: DynamoDBClient,
  tableName: string,
  key: { PK: string; SK: string },
): Promise<AttributeMap | undefined> {
  const output = await raw.send(
    new GetItemCommand({ TableName: tableName, Key: { PK: { S: key.PK }, SK: { S: key.SK } }, ConsistentRead: true }),
  );
  return output.Item;
}

/** The projector's writes for a payment: each PutItem, modeled by its item and its index entries, and as reported. */
function projectionCosts(
  trace: Trace | undefined,
  roles: Record<string, string>,
): { items: ItemCost[]; reported: number } {
  const items: ItemCost[] = [];
  let reported = 0;
  for (const call of trace?.calls ?? []) {
    if (call.op !== 'PutItem') continue;
    reported += reportedUnits(call).total;
    const item = (call.input?.Item ?? {}) as Record<string, unknown>;
    const bytes = docItemSize(item);
    const gsis = Object.values(GSI)
      .filter((index) => item[index.partition] !== undefined && item[index.sort] !== undefined)
      .map((index) => index.name);
    const key = { PK: String(item.PK), SK: String(item.SK) };
    items.push({
      label: labelOf(key, roles),
      key,
      action: 'Put',
      bytes,
      storedBytes: bytes,
      tableWcu: writeUnits(bytes, false),
      gsis,
      gsiWcu: gsis.length * writeUnits(bytes, false),
    });
  }
  return { items, reported };
}

async function analyze(
  variant: string,
  result: LambdaResult,
  trace: Trace,
  latencyMs: number,
  raw: DynamoDBClient,
  tableName: string,
  roles: Record<string, string>,
  projection?: Trace,
): Promise<PaymentCost> {
  const callsByOp: Record<string, number> = {};
  const failedByOp: Record<string, number> = {};
  for (const call of trace.calls) {
    callsByOp[call.op] = (callsByOp[call.op] ?? 0) + 1;
    if (call.error) failedByOp[call.op] = (failedByOp[call.op] ?? 0) + 1;
  }
  let rcu = 0;
  let wcu = 0;
  let wcuTable = 0;
  const wcuGsi: Record<string, number> = {};
  const reads: PaymentCost['reads'] = [];
  let rcuModeled = 0;
  const items: ItemCost[] = [];
  for (const call of trace.calls) {
    const units = reportedUnits(call);
    if (WRITE_OPS.has(call.op)) {
      wcu += units.total;
      wcuTable += units.table;
      for (const [name, value] of Object.entries(units.gsi)) wcuGsi[name] = (wcuGsi[name] ?? 0) + value;
    } else {
      rcu += units.total;
      const bytes = (call.readItems ?? []).reduce((sum, item) => sum + docItemSize(item), 0);
      // A batch read is billed item by item (a key not found costs nothing); a query rounds its total once.
      const modeled =
        call.op === 'BatchGetItem'
          ? (call.readItems ?? []).reduce(
              (sum, item) => sum + readUnits(docItemSize(item), { consistent: call.consistent === true }),
              0,
            )
          : readUnits(bytes, { consistent: call.consistent === true });
      rcuModeled += modeled;
      reads.push({ op: call.op, label: readLabel(call, roles), bytes, rcuModeled: modeled, rcuReported: units.total });
    }
    if (call.op === 'TransactWriteItems' && !call.error) {
      for (const entry of call.transactItems ?? []) {
        const stored = await storedItem(raw, tableName, entry.key);
        const storedBytes = stored ? itemSize(stored) : 0;
        const sentBytes = entry.item ? itemSize(toAttributeMap(entry.item)) : storedBytes;
        const bytes = Math.max(sentBytes, storedBytes);
        const gsis = Object.values(GSI)
          .filter((index) => stored?.[index.partition] !== undefined && stored?.[index.sort] !== undefined)
          .map((index) => index.name);
        items.push({
          label: labelOf(entry.key, roles),
          key: entry.key,
          action: entry.action,
          bytes: sentBytes,
          storedBytes,
          tableWcu: writeUnits(bytes, true),
          gsis,
          gsiWcu: gsis.length * writeUnits(storedBytes, false),
        });
      }
    }
  }
  const gsiModeled = items.reduce((sum, item) => sum + item.gsiWcu, 0);
  const tableModeled = items.reduce((sum, item) => sum + item.tableWcu, 0);
  const projected = projectionCosts(projection, roles);
  const projectionModeled = projected.items.reduce((sum, item) => sum + item.tableWcu + item.gsiWcu, 0);
  const allInWcu = tableModeled + gsiModeled + projectionModeled;
  const readsBeyondKey = trace.calls.filter(
    (call) =>
      !WRITE_OPS.has(call.op) &&
      !String((call.input?.Key as { PK?: string } | undefined)?.PK ?? '').startsWith('KEYHASH#'),
  ).length;
  return {
    variant,
    status: result.statusCode,
    callsByOp,
    failedByOp,
    calls: trace.calls.length,
    transactions: callsByOp.TransactWriteItems ?? 0,
    transactionItems: items.length,
    reported: { rcu, wcu, wcuTable, wcuGsi },
    modeled: { rcu: rcuModeled, wcuTable: tableModeled, wcuGsi: gsiModeled, wcuGsiDoubled: 2 * gsiModeled },
    reads,
    readsBeyondKey,
    items,
    projections: projected.items,
    projectionWcu: { modeled: projectionModeled, reported: projected.reported },
    allInWcu,
    usdPerMillion: allInWcu * ON_DEMAND_USD_PER_MILLION.write + rcuModeled * ON_DEMAND_USD_PER_MILLION.read,
    latencyMs,
  };
}

export interface KeyTouch {
  calls: number;
  wcuReported: number;
  wcuModeled: number;
  apiKeyBytes: number;
}

async function measureCosts(fixture: Fixture, probe: DynamoProbe, options: PaymentsBenchOptions) {
  const raw = new DynamoDBClient({
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const roles: Record<string, string> = {};
  for (const id of [fixture.plainPayer, fixture.policyPayer, fixture.periodsPayer, fixture.emptyPayer])
    roles[id] = 'payer';
  roles[fixture.payee] = 'payee';
  probe.requestCapacity = true;
  probe.captureOutputs = true;
  let seq = 0;
  // The journal projector as the table's stream runs it, on the record each payment wrote.
  const table = fixture.app.core.table;
  const projector = createJournalProjector({
    store: createProjectionStore(table),
    publisher: { publish: async () => undefined },
  });
  const journal = createLedgerStore(table);
  const run = async (body: { from: string; to: string; amount: string; idempotencyKey?: string }) => {
    const started = performance.now();
    const traced = await probe.traced(() => handler(paymentEvent(fixture.key, body), lambdaContext()));
    const ms = performance.now() - started;
    let projection: Trace | undefined;
    const id =
      traced.result.statusCode === 200 && !traced.result.headers?.['Idempotent-Replayed']
        ? (JSON.parse(traced.result.body ?? '{}') as { id?: string }).id
        : undefined;
    const record = id ? await journal.getJournalRecord(id) : undefined;
    if (record) projection = (await probe.traced(() => projector.project([{ change: 'INSERT', record }]))).trace;
    return { ...traced, ms, projection };
  };

  // The key's first request of the minute also writes lastUsedAt (UpdateItem, not in the transaction).
  const first = await run({ from: fixture.plainPayer, to: fixture.payee, amount: AMOUNT });
  const touchCall = first.trace.calls.find((call) => call.op === 'UpdateItem');
  const keyRead = first.trace.calls.find(
    (call) =>
      call.op === 'GetItem' && String((call.input?.Key as { PK?: string } | undefined)?.PK).startsWith('KEYHASH#'),
  );
  const apiKeyBytes = keyRead?.readItems?.[0] ? docItemSize(keyRead.readItems[0]) : 0;
  const touch: KeyTouch = {
    calls: touchCall ? 1 : 0,
    wcuReported: touchCall ? reportedUnits(touchCall).total : 0,
    // A plain UpdateItem: 1 WCU per KB, plus the GSI1 entry of the key list (ALL projection).
    wcuModeled: touchCall ? writeUnits(apiKeyBytes, false) * 2 : 0,
    apiKeyBytes,
  };

  const variants: {
    name: string;
    body: () => { from: string; to: string; amount: string; idempotencyKey?: string };
  }[] = [
    {
      name: 'plain (no key, no policy)',
      body: () => ({ from: fixture.plainPayer, to: fixture.payee, amount: AMOUNT }),
    },
    {
      name: 'idempotency key + daily limit',
      body: () => ({ from: fixture.policyPayer, to: fixture.payee, amount: AMOUNT, idempotencyKey: `cost-${seq++}` }),
    },
    {
      name: 'idempotency key + day/week/month limits',
      body: () => ({ from: fixture.periodsPayer, to: fixture.payee, amount: AMOUNT, idempotencyKey: `cost-${seq++}` }),
    },
  ];
  const costs: PaymentCost[] = [];
  for (const variant of variants) {
    const samples: PaymentCost[] = [];
    for (let i = 0; i < options.costSamples; i++) {
      const { result, trace, ms, projection } = await run(variant.body());
      samples.push(await analyze(variant.name, result, trace, ms, raw, options.tableName, roles, projection));
    }
    // Steady state: the sample with the median latency (counts and units are identical across samples).
    samples.sort((a, b) => a.latencyMs - b.latencyMs);
    const chosen = samples[Math.floor(samples.length / 2)]!;
    const spread = new Set(samples.map((s) => `${s.calls}/${s.reported.wcu}/${s.reported.rcu}`));
    if (spread.size > 1) options.log(`  note: ${variant.name}: samples differ (${[...spread].join(' | ')})`);
    costs.push(chosen);
  }

  // A refusal with a key: the movement's transaction is cancelled, then the refusal is stored.
  const refused = await run({
    from: fixture.emptyPayer,
    to: fixture.payee,
    amount: AMOUNT,
    idempotencyKey: `cost-refused-${seq++}`,
  });
  costs.push(
    await analyze(
      'refused: insufficient funds, with a key',
      refused.result,
      refused.trace,
      refused.ms,
      raw,
      options.tableName,
      roles,
      refused.projection,
    ),
  );

  // A replay: the same idempotency key and body again.
  const replayBody = { from: fixture.policyPayer, to: fixture.payee, amount: AMOUNT, idempotencyKey: 'cost-replay' };
  await run(replayBody);
  const replay = await run(replayBody);
  costs.push(
    await analyze(
      'replay of an idempotency key',
      replay.result,
      replay.trace,
      replay.ms,
      raw,
      options.tableName,
      roles,
      replay.projection,
    ),
  );

  probe.captureOutputs = false;
  const detailed = costs.find((c) => c.variant.startsWith('idempotency key + daily'))!;
  const calibration = await calibrate(raw, options.tableName, detailed.items);
  raw.destroy();
  return { costs, touch, calibration };
}

/**
 * How DynamoDB Local itself counts the units of these items: each item of the payment's
 * transaction is copied (same attributes, a marked partition key) and written once with PutItem,
 * then all copies once more in one TransactWriteItems, then a single copy alone in one.
 */
export interface Calibration {
  items: {
    label: string;
    bytes: number;
    gsis: string[];
    modelTable: number;
    modelGsi: number;
    reportedTable: number;
    reportedGsi: number;
  }[];
  putTotal: { model: number; reported: number };
  transactionAll: { items: number; modelTable: number; modelGsi: number; reportedTable: number; reportedGsi: number };
  transactionOne: { label: string; modelTable: number; modelGsi: number; reportedTable: number; reportedGsi: number };
}

function gsisOf(item: AttributeMap): string[] {
  return Object.values(GSI)
    .filter((index) => item[index.partition] !== undefined && item[index.sort] !== undefined)
    .map((index) => index.name);
}

function unitsOf(consumed: unknown): { table: number; gsi: number } {
  const list = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as {
    Table?: { CapacityUnits?: number };
    GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  }[];
  let tableUnits = 0;
  let gsi = 0;
  for (const c of list) {
    tableUnits += c.Table?.CapacityUnits ?? 0;
    for (const units of Object.values(c.GlobalSecondaryIndexes ?? {})) gsi += units.CapacityUnits ?? 0;
  }
  return { table: tableUnits, gsi };
}

async function calibrate(raw: DynamoDBClient, tableName: string, items: ItemCost[]): Promise<Calibration> {
  const originals: { label: string; item: AttributeMap }[] = [];
  for (const entry of items) {
    const stored = await storedItem(raw, tableName, entry.key);
    if (stored) originals.push({ label: entry.label, item: stored });
  }
  const copy = (item: AttributeMap, mark: string): AttributeMap => ({
    ...item,
    PK: { S: `${mark}#${item.PK?.S ?? ''}` },
  });
  const model = (item: AttributeMap, transactional: boolean) => {
    const bytes = itemSize(item);
    return { bytes, table: writeUnits(bytes, transactional), gsi: gsisOf(item).length * writeUnits(bytes, false) };
  };
  const rows: Calibration['items'] = [];
  for (const { label, item } of originals) {
    const written = copy(item, 'BENCHPUT');
    const output = await raw.send(
      new PutItemCommand({ TableName: tableName, Item: written, ReturnConsumedCapacity: 'INDEXES' }),
    );
    const reported = unitsOf(output.ConsumedCapacity);
    const expected = model(written, false);
    rows.push({
      label,
      bytes: expected.bytes,
      gsis: gsisOf(written),
      modelTable: expected.table,
      modelGsi: expected.gsi,
      reportedTable: reported.table,
      reportedGsi: reported.gsi,
    });
  }
  const all = originals.map(({ item }) => copy(item, 'BENCHTXN'));
  const allOutput = await raw.send(
    new TransactWriteItemsCommand({
      TransactItems: all.map((Item) => ({ Put: { TableName: tableName, Item } })),
      ReturnConsumedCapacity: 'INDEXES',
    }),
  );
  const allReported = unitsOf(allOutput.ConsumedCapacity);
  const single = copy(originals[0]!.item, 'BENCHONE');
  const oneOutput = await raw.send(
    new TransactWriteItemsCommand({
      TransactItems: [{ Put: { TableName: tableName, Item: single } }],
      ReturnConsumedCapacity: 'INDEXES',
    }),
  );
  const oneReported = unitsOf(oneOutput.ConsumedCapacity);
  const singleModel = model(single, true);
  return {
    items: rows,
    putTotal: {
      model: rows.reduce((sum, r) => sum + r.modelTable + r.modelGsi, 0),
      reported: rows.reduce((sum, r) => sum + r.reportedTable + r.reportedGsi, 0),
    },
    transactionAll: {
      items: all.length,
      modelTable: all.reduce((sum, item) => sum + model(item, true).table, 0),
      modelGsi: all.reduce((sum, item) => sum + model(item, true).gsi, 0),
      reportedTable: allReported.table,
      reportedGsi: allReported.gsi,
    },
    transactionOne: {
      label: originals[0]!.label,
      modelTable: singleModel.table,
      modelGsi: singleModel.gsi,
      reportedTable: oneReported.table,
      reportedGsi: oneReported.gsi,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Handler CPU with DynamoDB stubbed

export interface CpuResult {
  variant: string;
  stub: 'HTTP transport' | 'document client';
  invocations: number;
  callsPerInvocation: number;
  cpuUs: Summary;
  wallMs: Summary;
}

const PREFIX_OF_BODY = /\{"S":"([A-Z]+)#/;

function prefixOfInput(op: string, input: Record<string, unknown>): string {
  if (op === 'GetItem') return String((input.Key as { PK?: string } | undefined)?.PK ?? '').split('#')[0]!;
  if (op === 'Query')
    return String((input.ExpressionAttributeValues as Record<string, unknown> | undefined)?.[':pk'] ?? '').split(
      '#',
    )[0]!;
  return '';
}

function prefixOfBody(op: string, body: string): string {
  if (op !== 'GetItem' && op !== 'Query') return '';
  return PREFIX_OF_BODY.exec(body)?.[1] ?? '';
}

async function measureCpu(fixture: Fixture, probe: DynamoProbe, options: PaymentsBenchOptions): Promise<CpuResult[]> {
  // Keys never used before: a recorded reply must be a first request, not a replay.
  const run = randomUUID().slice(0, 8);
  const variants = [
    {
      name: 'plain (no key, no policy)',
      body: (_i: number) => ({ from: fixture.plainPayer, to: fixture.payee, amount: AMOUNT }),
    },
    {
      name: 'idempotency key + daily limit',
      body: (i: number) => ({
        from: fixture.policyPayer,
        to: fixture.payee,
        amount: AMOUNT,
        idempotencyKey: `cpu-${run}-${i}`,
      }),
    },
  ];
  const results: CpuResult[] = [];
  const context = lambdaContext();
  for (const variant of variants) {
    // Record real replies of DynamoDB Local for this request shape.
    const documentReplies = new Map<string, Record<string, unknown>>();
    const httpReplies = new Map<string, HttpStubResponse>();
    probe.requestCapacity = false;
    probe.captureOutputs = true;
    probe.setHttpRecorder((target, body, response) =>
      httpReplies.set(`${target}:${prefixOfBody(target, body)}`, response),
    );
    for (let i = 0; i < 3; i++) {
      const { trace } = await probe.traced(() =>
        handler(paymentEvent(fixture.key, variant.body(-1000 - i - results.length * 10)), context),
      );
      for (const call of trace.calls)
        if (call.output) documentReplies.set(`${call.op}:${prefixOfInput(call.op, call.input ?? {})}`, call.output);
    }
    probe.setHttpRecorder(undefined);
    probe.captureOutputs = false;
    // Keep the key's lastUsedAt fresh so the steady state (no touch) is measured.
    const fresh = new Date().toISOString();
    const keyReply = documentReplies.get('GetItem:KEYHASH');
    if (keyReply?.Item) (keyReply.Item as Record<string, unknown>).lastUsedAt = fresh;
    for (const [name, reply] of httpReplies) {
      if (name === 'GetItem:KEYHASH')
        httpReplies.set(name, {
          ...reply,
          body: Buffer.from(
            Buffer.from(reply.body)
              .toString('utf8')
              .replace(/("lastUsedAt":\{"S":")[^"]*(")/, `$1${fresh}$2`),
          ),
        });
    }
    // A never-seen idempotency key reads as "no item"; the recorded reply is exactly that.
    const stubs = {
      'HTTP transport': () =>
        probe.setHttpStub((target, body) => {
          const reply = httpReplies.get(`${target}:${prefixOfBody(target, body)}`);
          if (!reply) throw new Error(`no canned HTTP reply for ${target}`);
          return reply;
        }),
      'document client': () =>
        probe.setDocumentStub((op, input) => {
          const reply = documentReplies.get(`${op}:${prefixOfInput(op, input)}`);
          if (!reply) throw new Error(`no canned reply for ${op}`);
          const { $metadata: _m, ...rest } = reply;
          return rest;
        }),
    } as const;
    for (const [stubName, install] of Object.entries(stubs) as [CpuResult['stub'], () => void][]) {
      install();
      // Calls per invocation, checked once under the stub.
      probe.observing = true;
      const check = await probe.traced(() =>
        handler(paymentEvent(fixture.key, variant.body(900_000 + results.length)), context),
      );
      if (check.result.statusCode !== 200 || check.result.headers?.['Idempotent-Replayed'])
        throw new Error(`stubbed payment answered ${check.result.statusCode}: ${check.result.body}`);
      probe.observing = false;
      let n = 1_000_000 * (results.length + 1);
      for (let i = 0; i < options.cpuWarmup; i++) await handler(paymentEvent(fixture.key, variant.body(n++)), context);
      const events = Array.from({ length: options.cpuInvocations }, () => paymentEvent(fixture.key, variant.body(n++)));
      const cpu: number[] = [];
      const wall: number[] = [];
      let failures = 0;
      for (const event of events) {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        const result = await handler(event, context);
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(cpuBefore);
        if (result.statusCode !== 200) failures++;
        cpu.push(used.user + used.system);
        wall.push(elapsed);
      }
      probe.observing = true;
      probe.setHttpStub(undefined);
      probe.setDocumentStub(undefined);
      if (failures > 0) throw new Error(`${failures} stubbed invocations failed`);
      results.push({
        variant: variant.name,
        stub: stubName,
        invocations: events.length,
        callsPerInvocation: check.trace.calls.length,
        cpuUs: summarize(cpu),
        wallMs: summarize(wall),
      });
    }
  }
  probe.requestCapacity = true;
  return results;
}

// ---------------------------------------------------------------------------------------------
// 3. Throughput and error mix against DynamoDB Local

export interface LoadResult {
  scenario: string;
  clients: number;
  seconds: number;
  requests: number;
  posted: number;
  paymentsPerS: number;
  latencyMs: Summary;
  outcomes: Record<string, number>;
  txAttemptsPerRequest: number;
  conflictsSimulated: number;
  nodeCpuPct: number;
  dynamoCpuPct: number | undefined;
  balanceCheck: string;
  /** The machine's 1-minute load average at the end of the run (other processes compete for the cores). */
  loadAverage: number;
  /** Latency of the DynamoDB calls by command, as the SDK client saw them. */
  callMs: Record<string, Summary>;
  /** The heat meter (ddb-probe): the hottest partition keys, write units per payment posted and per second. */
  heat: { key: string; wcuPerPayment: number; wcuPerS: number }[];
  /** Every write unit the heat meter saw (base and index, folds included), per payment posted. */
  heatWcuPerPayment: number;
}

/** CPU ticks (user + system) of the DynamoDB Local java process this process started, if visible. */
function javaTicks(): number | undefined {
  try {
    let total: number | undefined;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      if (comm !== 'java' || Number(fields[1]) !== process.pid) continue;
      total = (total ?? 0) + Number(fields[11]) + Number(fields[12]);
    }
    return total;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS_PER_S = 100;

async function balanceOf(app: Container, walletId: string): Promise<Big> {
  const wallet = await createWalletReader(app.core.table).getWallet(walletId);
  if (!wallet) throw new Error(`wallet ${walletId} vanished`);
  return new Big(wallet.balance.toString());
}

async function loadRun(
  fixture: Fixture,
  probe: DynamoProbe,
  scenario: LoadScenario,
  clients: number,
  durationS: number,
  runId: string,
): Promise<LoadResult> {
  const payerOf = (i: number) => (scenario.hot ? fixture.hotPayer : fixture.payers[i]!);
  // A hot payee: every client pays its own payer's money into the one cost payee (or the hot-mode payee).
  const payeeOf = (i: number) =>
    scenario.hotMode ? fixture.hotModePayee : scenario.hotPayee ? fixture.payee : fixture.payees[i]!;
  const payers = [...new Set(Array.from({ length: clients }, (_, i) => payerOf(i)))];
  const before = await Promise.all(payers.map((id) => balanceOf(fixture.app, id)));

  probe.simulateConflicts = scenario.conflicts;
  probe.conflictsSimulated = 0;
  probe.requestCapacity = false;
  probe.heat.clear();
  probe.meteringHeat = true;
  const latencies: number[] = [];
  const outcomes = new Map<string, number>();
  let attempts = 0;
  let posted = 0;
  const callMs = new Map<string, number[]>();
  const postedBy = new Map<string, number>();
  const cpuBefore = process.cpuUsage();
  const javaBefore = javaTicks();
  const started = performance.now();
  const deadline = started + durationS * 1000;
  const folds = scenario.hotMode ? foldWorker(fixture) : undefined;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let seq = 0; performance.now() < deadline; seq++) {
        const from = payerOf(client);
        const event = paymentEvent(fixture.key, {
          from,
          to: payeeOf(client),
          amount: AMOUNT,
          idempotencyKey: `${runId}-${client}-${seq}`,
        });
        const t0 = performance.now();
        const { result, trace } = await probe.traced(() => handler(event, lambdaContext()));
        latencies.push(performance.now() - t0);
        attempts += trace.calls.filter((call) => call.op === 'TransactWriteItems').length;
        for (const call of trace.calls) {
          if (call.simulated) continue;
          const list = callMs.get(call.op) ?? [];
          list.push(call.ms);
          callMs.set(call.op, list);
        }
        const code = errorCodeOf(result);
        const transactions = trace.calls.filter((call) => call.op === 'TransactWriteItems');
        const exhausted =
          transactions.length >= CONFLICT_RETRY_LIMIT &&
          transactions.every((call) => call.error === 'TransactionCanceledException');
        const outcome = `${result.statusCode}${code ? ` ${code}` : ''}${exhausted ? ' (conflict retries exhausted)' : ''}`;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (result.statusCode === 200) {
          posted++;
          postedBy.set(from, (postedBy.get(from) ?? 0) + 1);
          folds?.credited(result);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // The fold worker's last batch and the keeper's folds of what waited for a batch, metered too.
  await folds?.stop();
  const cpu = process.cpuUsage(cpuBefore);
  const javaAfter = javaTicks();
  probe.simulateConflicts = false;
  probe.requestCapacity = true;
  probe.meteringHeat = false;

  const after = await Promise.all(payers.map((id) => balanceOf(fixture.app, id)));
  const mismatches = payers.filter(
    (id, i) => !before[i]!.minus(after[i]!).eq(new Big(AMOUNT).times(postedBy.get(id) ?? 0)),
  );
  return {
    scenario: scenario.name,
    clients,
    seconds,
    requests: latencies.length,
    posted,
    paymentsPerS: posted / seconds,
    latencyMs: summarize(latencies),
    outcomes: Object.fromEntries(outcomes),
    txAttemptsPerRequest: attempts / Math.max(1, latencies.length),
    conflictsSimulated: probe.conflictsSimulated,
    nodeCpuPct: ((cpu.user + cpu.system) / 1e6 / seconds) * 100,
    dynamoCpuPct:
      javaBefore !== undefined && javaAfter !== undefined
        ? ((javaAfter - javaBefore) / CLOCK_TICKS_PER_S / seconds) * 100
        : undefined,
    balanceCheck: mismatches.length === 0 ? 'ok' : `MISMATCH on ${mismatches.length} wallet(s)`,
    loadAverage: loadavg()[0]!,
    callMs: Object.fromEntries([...callMs.entries()].map(([op, values]) => [op, summarize(values)])),
    heat: probe.hottestKeys(posted, seconds),
    heatWcuPerPayment: [...probe.heat.values()].reduce((sum, units) => sum + units, 0) / Math.max(1, posted),
  };
}

interface LoadScenario {
  name: string;
  hot: boolean;
  conflicts: boolean;
  hotPayee?: boolean;
  /** The payee in hot mode (the operator's switch), folded by the fold worker's code as the stream would. */
  hotMode?: boolean;
}

/** Lambda polls the table's stream about four times a second (shared/workers.ts `hot-fold`). */
const FOLD_POLL_MS = 250;

/**
 * The `hot-fold` worker during a load run: the credit partitions of the payments posted (the
 * partition is the hash of the payment's id), folded by the worker's code (hotModeService
 * foldPartitions) every FOLD_POLL_MS; at the end the keeper's foldAll folds what waited for a batch.
 */
function foldWorker(fixture: Fixture) {
  const service = hotModeService(fixture.app.core);
  const table = fixture.app.core.table;
  const walletId = fixture.hotModePayee;
  const partitions = hotModeSizing().partitions;
  let pending: { walletId: string; partition: number }[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, FOLD_POLL_MS));
      const batch = pending;
      pending = [];
      if (batch.length > 0) await service.foldPartitions(batch);
    }
  })();
  return {
    credited(result: LambdaResult) {
      const id = (JSON.parse(result.body ?? '{}') as { id?: string }).id;
      if (id) pending.push({ walletId, partition: partitionOf(id, partitions) });
    },
    async stop() {
      stopped = true;
      await loop;
      if (pending.length > 0) await service.foldPartitions(pending);
      await foldAll(table, walletId);
    },
  };
}

async function measureLoad(fixture: Fixture, probe: DynamoProbe, options: PaymentsBenchOptions): Promise<LoadResult[]> {
  const all: LoadScenario[] = [
    { name: 'one hot wallet', hot: true, conflicts: false },
    { name: 'distinct wallets', hot: false, conflicts: false },
    { name: `hot wallet, conflicts simulated (${probe.conflictWindowMs} ms window)`, hot: true, conflicts: true },
    {
      name: `hot payee, conflicts simulated (${probe.conflictWindowMs} ms window)`,
      hot: false,
      conflicts: true,
      hotPayee: true,
    },
    {
      name: `hot payee in hot mode, conflicts simulated (${probe.conflictWindowMs} ms window)`,
      hot: false,
      conflicts: true,
      hotMode: true,
    },
  ];
  // PAYMENTS_LOAD_ONLY=text[,text...]: only the scenarios whose name contains one of them (e.g. "hot payee").
  const only = process.env.PAYMENTS_LOAD_ONLY?.split(',').filter(Boolean);
  const scenarios = all.filter((scenario) => !only?.length || only.some((text) => scenario.name.includes(text)));
  if (scenarios.some((scenario) => scenario.hotMode)) {
    // What the operator does: hot mode on (promotion with the default sizing, the organization's shards raised).
    await hotModeService(fixture.app.core).setHotMode(
      fixture.operator,
      AUDIT.wallet.enableHotMode,
      fixture.hotModePayee,
      true,
    );
  }
  // The handler logs every 500 with its stack; keep the report readable and count them instead.
  const originalError = console.error;
  let suppressed = 0;
  console.error = () => {
    suppressed++;
  };
  const results: LoadResult[] = [];
  try {
    // Warm-up: JIT, connection pool, DynamoDB Local's own warm-up.
    await loadRun(
      fixture,
      probe,
      { name: 'warm-up', hot: false, conflicts: false },
      Math.min(10, fixture.payers.length),
      Math.min(2, options.durationS),
      'warm',
    );
    for (const scenario of scenarios) {
      for (const clients of options.concurrency) {
        if (scenario.conflicts && clients === 1) continue; // one client cannot conflict with itself
        const result = await loadRun(
          fixture,
          probe,
          scenario,
          clients,
          options.durationS,
          `${scenario.hot ? 'h' : 'd'}${scenario.conflicts ? 'c' : ''}${clients}`,
        );
        options.log(
          `  ${result.scenario}, ${clients} client(s): ${fmt(result.paymentsPerS)} payments/s, p50 ${fmt(result.latencyMs.p50)} ms, ${mix(new Map(Object.entries(result.outcomes)))}`,
        );
        results.push(result);
      }
    }
  } finally {
    console.error = originalError;
  }
  if (suppressed > 0) options.log(`  (${suppressed} error log line(s) of the handler suppressed during the load runs)`);
  return results;
}

// ---------------------------------------------------------------------------------------------

export interface PaymentsBenchResult {
  costs: PaymentCost[];
  touch: KeyTouch;
  calibration: Calibration | undefined;
  cpu: CpuResult[];
  load: LoadResult[];
}

export async function runPaymentsBench(options: PaymentsBenchOptions): Promise<PaymentsBenchResult> {
  const probe = installProbe();
  probe.conflictWindowMs = CONFLICT_WINDOW_MS;
  const maxClients = Math.max(...options.concurrency);
  options.log(`setup: organization, ${6 + 2 * maxClients} wallets, funding and policies ...`);
  const fixture = await setup(maxClients);
  if (probe.adoptedClients === 0) throw new Error('the probe did not see the container DynamoDB client');

  const runs = (section: 'cost' | 'cpu' | 'load') =>
    options.sections === undefined || options.sections.includes(section);
  let costs: PaymentCost[] = [];
  let touch: KeyTouch = { calls: 0, wcuReported: 0, wcuModeled: 0, apiKeyBytes: 0 };
  let calibration: Calibration | undefined;
  if (runs('cost')) {
    options.log('1/3 calls and capacity units per payment ...');
    ({ costs, touch, calibration } = await measureCosts(fixture, probe, options));
  }
  let cpu: CpuResult[] = [];
  if (runs('cpu')) {
    options.log(
      `2/3 handler CPU with DynamoDB stubbed (${options.cpuInvocations} invocations after ${options.cpuWarmup} warm-up, per variant and stub) ...`,
    );
    cpu = await measureCpu(fixture, probe, options);
  }
  let load: LoadResult[] = [];
  if (runs('load')) {
    options.log(`3/3 load against DynamoDB Local (${options.durationS} s per run) ...`);
    load = await measureLoad(fixture, probe, options);
  }
  return { costs, touch, calibration, cpu, load };
}

// ---------------------------------------------------------------------------------------------
// Report

export function formatPaymentsReport(result: PaymentsBenchResult): string {
  const sections = [
    result.costs.length > 0 ? formatCostSection(result) : undefined,
    result.cpu.length > 0 ? formatCpuSection(result.cpu) : undefined,
    result.load.length > 0 ? formatLoadSection(result.load) : undefined,
  ];
  return sections.filter((section) => section !== undefined).join('\n\n');
}

function formatCostSection(result: PaymentsBenchResult): string {
  const out: string[] = [];
  const { costs, touch, calibration } = result;
  out.push(
    '== 1. DynamoDB calls and capacity units per POST /v1/payments (DynamoDB Local, ReturnConsumedCapacity INDEXES) ==',
  );
  out.push(
    table(
      [
        'variant',
        'status',
        'calls',
        'by command',
        'reads beyond key',
        'tx items',
        'RCU rep/model',
        'WCU reported (table + GSIs)',
        'tx WCU model: table 2x/KB',
        '+ GSIs 1x/KB',
        '+ projections',
        'all-in',
        `$ per 1M (on-demand)`,
      ],
      costs.map((c) => [
        c.variant,
        c.status,
        c.calls,
        Object.entries(c.callsByOp)
          .map(([op, n]) => `${op} ${n}${c.failedByOp[op] ? ` (${c.failedByOp[op]} failed)` : ''}`)
          .join(', '),
        c.readsBeyondKey,
        c.transactionItems,
        `${fmt(c.reported.rcu, 1)} / ${fmt(c.modeled.rcu, 1)}`,
        `${fmt(c.reported.wcu, 0)} (${fmt(c.reported.wcuTable, 0)} + ${fmt(
          Object.values(c.reported.wcuGsi).reduce((a, b) => a + b, 0),
          0,
        )})`,
        fmt(c.modeled.wcuTable, 0),
        `${fmt(c.modeled.wcuGsi, 0)} -> tx ${fmt(c.modeled.wcuTable + c.modeled.wcuGsi, 0)}`,
        `${fmt(c.projectionWcu.modeled, 0)} (${c.projections.length} items, reported ${fmt(c.projectionWcu.reported, 0)})`,
        fmt(c.allInWcu, 0),
        `$${fmt(c.usdPerMillion, 2)}`,
      ]),
    ),
  );
  out.push(
    `Targets (issue 9), plain and keyed + daily limit alike: tx WCU <= 8, all-in <= 14, reads beyond the key lookup <= 2, a replay writing nothing. ` +
      `"projections": what the journal projector writes from the table's stream for the payment (audit entry with its index entries, organization payment listings), ` +
      `PutItem at 1 WCU per KB per item and per index entry. "$ per 1M": all-in WCU x $${ON_DEMAND_USD_PER_MILLION.write} + RCU x $${ON_DEMAND_USD_PER_MILLION.read} per million (us-east-1 on-demand).`,
  );
  out.push('');
  out.push(
    `Key lookup: every request reads the API key item (GetItem, consistent, ${touch.apiKeyBytes} B = 1 RCU). The first request of a key in each ${LAST_USED_WRITE_INTERVAL_MS / 1000} s also writes lastUsedAt: ` +
      `${touch.calls} UpdateItem, ${fmt(touch.wcuReported, 0)} WCU reported (model ${touch.wcuModeled}: 1 table + 1 GSI1 entry).`,
  );
  const detailed = costs.find((c) => c.variant.startsWith('idempotency key + daily'));
  if (detailed && calibration) {
    out.push('');
    out.push(
      `Items of the transaction (${detailed.variant}); sizes by DynamoDB's rules, "stored" read back after the payment:`,
    );
    out.push(
      table(
        ['item', 'action', 'bytes sent', 'bytes stored', 'table WCU (tx 2x/KB)', 'GSIs written', 'GSI WCU (1x/KB)'],
        detailed.items.map((item) => [
          item.label,
          item.action,
          item.action === 'Put' ? item.bytes : '-',
          item.storedBytes,
          item.tableWcu,
          item.gsis.join(' ') || '-',
          item.gsiWcu,
        ]),
      ),
    );
    if (detailed.projections.length > 0) {
      out.push('Projected from its journal record by the stream consumer (PutItem each, attribute_not_exists):');
      out.push(
        table(
          ['item', 'bytes', 'table WCU (1x/KB)', 'GSIs written', 'GSI WCU (1x/KB)'],
          detailed.projections.map((item) => [
            item.label,
            item.bytes,
            item.tableWcu,
            item.gsis.join(' ') || '-',
            item.gsiWcu,
          ]),
        ),
      );
    }
    const gsiReported = Object.entries(detailed.reported.wcuGsi)
      .map(([name, units]) => `${name} ${units}`)
      .join(', ');
    out.push(
      `Reported by DynamoDB Local for this transaction: table ${detailed.reported.wcuTable}, indexes ${gsiReported} ` +
        `(model: table ${detailed.modeled.wcuTable}, indexes ${detailed.modeled.wcuGsi} at 1x or ${detailed.modeled.wcuGsiDoubled} at 2x).`,
    );
    out.push('');
    out.push(
      "Cross-check of the model against DynamoDB Local's own accounting, the same items copied and written again:",
    );
    out.push(
      table(
        ['item (copy)', 'bytes', 'GSIs', 'PutItem model table+GSI', 'PutItem reported table+GSI'],
        calibration.items.map((r) => [
          r.label,
          r.bytes,
          r.gsis.join(' ') || '-',
          `${r.modelTable} + ${r.modelGsi}`,
          `${fmt(r.reportedTable, 0)} + ${fmt(r.reportedGsi, 0)}`,
        ]),
      ),
    );
    const t = calibration.transactionAll;
    const o = calibration.transactionOne;
    out.push(
      `PutItem of each copy: model ${calibration.putTotal.model} WCU, reported ${fmt(calibration.putTotal.reported, 0)}. ` +
        `One TransactWriteItems of all ${t.items} copies: model ${t.modelTable} (table, 2x) + ${t.modelGsi} (GSIs, 1x), reported ${fmt(t.reportedTable, 0)} + ${fmt(t.reportedGsi, 0)}. ` +
        `A TransactWriteItems of one copy (${o.label}): model ${o.modelTable} + ${o.modelGsi}, reported ${fmt(o.reportedTable, 0)} + ${fmt(o.reportedGsi, 0)}.`,
    );
    out.push('');
    out.push('Reads of the same payment:');
    out.push(
      table(
        ['read', 'command', 'bytes', 'RCU model', 'RCU reported'],
        detailed.reads.map((r) => [r.label, r.op, r.bytes, fmt(r.rcuModeled, 1), fmt(r.rcuReported, 1)]),
      ),
    );
  }
  return out.join('\n');
}

function formatCpuSection(cpu: CpuResult[]): string {
  const out: string[] = [];
  out.push('== 2. Handler CPU per invocation with DynamoDB stubbed (sequential invocations, process.cpuUsage) ==');
  out.push(
    table(
      [
        'variant',
        'stub at',
        'n',
        'calls/inv',
        'CPU mean us',
        'CPU p50',
        'CPU p99',
        'wall mean ms',
        'wall p50',
        'wall p99',
      ],
      cpu.map((r) => [
        r.variant,
        r.stub,
        r.invocations,
        r.callsPerInvocation,
        fmt(r.cpuUs.mean, 0),
        fmt(r.cpuUs.p50, 0),
        fmt(r.cpuUs.p99, 0),
        fmt(r.wallMs.mean, 3),
        fmt(r.wallMs.p50, 3),
        fmt(r.wallMs.p99, 3),
      ]),
    ),
  );
  out.push(
    '"HTTP transport": the SDK runs in full (marshalling, JSON, SigV4 signing, parsing) with canned responses; "document client": the SDK is skipped.',
  );
  return out.join('\n');
}

function formatLoadSection(load: LoadResult[]): string {
  const out: string[] = [];
  out.push(
    `== 3. Load: N clients in one process, each sending payments of ${AMOUNT} (idempotency key + daily-limit policy) back to back ==`,
  );
  out.push(
    table(
      [
        'scenario',
        'N',
        'req',
        'payments/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        'tx attempts/req',
        'TransactWrite p50 ms',
        'reads p50 ms',
        'node CPU %',
        'DDB Local CPU %',
        'load avg',
        'balances',
        'outcomes',
      ],
      load.map((r) => [
        r.scenario,
        r.clients,
        r.requests,
        fmt(r.paymentsPerS, 1),
        fmt(r.latencyMs.p50, 1),
        fmt(r.latencyMs.p95, 1),
        fmt(r.latencyMs.p99, 1),
        fmt(r.latencyMs.max, 0),
        fmt(r.txAttemptsPerRequest, 2),
        fmt(r.callMs.TransactWriteItems?.p50 ?? Number.NaN, 1),
        `${fmt(r.callMs.GetItem?.p50 ?? Number.NaN, 1)} / ${fmt(r.callMs.Query?.p50 ?? Number.NaN, 1)}`,
        fmt(r.nodeCpuPct, 0),
        r.dynamoCpuPct === undefined ? '-' : fmt(r.dynamoCpuPct, 0),
        fmt(r.loadAverage, 1),
        r.balanceCheck,
        mix(new Map(Object.entries(r.outcomes))),
      ]),
    ),
  );
  out.push(
    `"reads p50" is GetItem / Query. CPU % is of one core (the machine has ${cpus().length}). DynamoDB Local serializes transactions and never answers TransactionConflict; ` +
      `"conflicts simulated" refuses a transaction that touches an item held by another in-flight transaction (DynamoDB's rule; an item counts as held until the transaction ends, ` +
      `at most ${CONFLICT_WINDOW_MS} ms), so the service's retry (${CONFLICT_RETRY_LIMIT} attempts, jittered backoff) runs; exhausted retries answer 409 CONCURRENT_UPDATE.`,
  );
  out.push(
    '',
    'Heat per partition key (bench/lib/ddb-probe.ts heat meter; WCU modelled by DynamoDB rules: a Put by its size, an Update as 1 KB):',
    ...load.map(
      (r) =>
        `  ${r.scenario}, ${r.clients} client(s): all keys ${fmt(r.heatWcuPerPayment, 2)}/payment; ` +
        r.heat
          .map(
            (h) =>
              `${h.key.replace(/([a-z]{3}_[A-Za-z0-9]{4})[A-Za-z0-9]+/g, '$1…')} ${fmt(h.wcuPerPayment, 2)}/payment (${fmt(h.wcuPerS, 0)}/s)`,
          )
          .join(', '),
    ),
  );
  return out.join('\n');
}
