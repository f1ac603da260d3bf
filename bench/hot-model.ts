/**
 * `npm run bench -- hot`: the virtual-time model of payments into and out of one wallet (issue 25
 * scope 5). The REAL code runs (the payment service, its lookups, the committer and writers, the
 * conflict retry `retryingConflicts` with its sleep and random injected) against memory-dynamo,
 * wrapped in DynamoDB's timing and limits (bench/lib/dynamo-model.ts: a per-item hold h with
 * TransactionConflict, latencies, a token bucket of 1,000 WCU/s per partition key, per-key meters)
 * and driven by a discrete-event scheduler (bench/lib/virtual-time.ts): modelled seconds cost the
 * CPU the code needs, and a run repeats exactly (seeded jitter and arrivals).
 *
 * Scenarios: closed loop of 10 and 50 clients (hot payee: each client its own payer, one payee;
 * hot payer: one payer, each client its own payee; hot to hot: one payer, one payee) at holds of
 * 5, 10 and 25 ms; open loop 5,000/s into one wallet and 2,000/s out of one wallet at 25 ms.
 * `mode` cold is today's code path (the baseline); in mode hot the payee and the payer are promoted
 * (32 inbox partitions, 8 lanes) and the keeper runs as its stream worker and schedule would.
 * Each client is one Lambda execution environment (one request at a time): its own container and
 * hot routing as the runtime makes it there (core.ts processRouting: sticky lanes); the open loop
 * takes the environment freed last, or a new one (HOT_MODEL_LANES=hash: the local server's routing).
 * Capacity: HOT_MODEL_IN_RATES / HOT_MODEL_OUT_RATES offer other open-loop rates (e.g. 2200,2500) over
 * HOT_MODEL_OPEN_S seconds after HOT_MODEL_WARMUP_S; `done/s` counts the payments answered OK inside
 * the window (by completion time, whenever they started), `posted/s` those started and answered in it.
 */
import Big from 'big.js';
import { authenticate } from '../shared/auth/authenticate.js';
import { loadConfig } from '../shared/config/config.js';
import { ENV } from '../shared/config/env-names.js';
import { AUDIT } from '../shared/domain/audit/actions.js';
import { ApiError } from '../shared/domain/errors.js';
import { hotModeSizing } from '../shared/domain/hot-mode/hot-mode-rules.js';
import { OPERATOR_PERMISSION, type RequestContext } from '../shared/domain/tenancy.js';
import { createJournalProjector } from '../shared/domain/ledger/journal-projector.js';
import { journalChangeOf } from '../shared/persistence/journal-stream.js';
import { createProjectionStore } from '../shared/persistence/projection-store.js';
import { createHotRouting } from '../shared/persistence/hot/hot-cache.js';
import { foldAll } from '../shared/persistence/hot/fold-moves.js';
import { registerHotWallet } from '../shared/persistence/hot/hot-candidates.js';
import { runKeeperOnce } from '../shared/persistence/hot/keeper.js';
import { promote } from '../shared/persistence/hot/promote.js';
import { raiseShards } from '../shared/persistence/org-shards.js';
import { HOT_ORGANIZATION_SHARDS } from '../shared/persistence/entities/shards.js';
import { readExactWallet } from '../shared/persistence/hot/hot-read.js';
import type { TableContext } from '../shared/persistence/table-context.js';
import { createContainer, type Container } from '../shared/runtime/container.js';
import { hotModeService } from '../shared/runtime/services/hot-mode.js';
import { HOT_KEEPER_RATE_MINUTES, WORKERS } from '../shared/workers.js';
import { processRouting } from '../shared/runtime/core.js';
import { HOT_INBOX_ENTITY } from '../shared/persistence/entities/hot-wallet.js';
import { createMemoryDynamo } from '../test/fakes/memory-dynamo/index.js';
import { DEFAULT_MODEL, DynamoModel, type RequestCost } from './lib/dynamo-model.js';
import { fmt, percentile, table } from './lib/stats.js';
import { seededRandom, synchronousDigest, VirtualTime } from './lib/virtual-time.js';

export type Shape = 'hot payee' | 'hot payer' | 'hot to hot';
export type Mode = 'cold' | 'hot';

export interface RunSpec {
  mode: Mode;
  shape: Shape;
  holdMs: number;
  /** Closed loop: this many clients, each paying again as soon as answered. */
  clients?: number;
  /** Open loop: payments started per second, whatever the answers. */
  ratePerS?: number;
  durationS: number;
  warmupS: number;
}

export interface RunResult {
  spec: RunSpec;
  /** Execution environments the run used (one per client; open loop: the most in flight at once). */
  environments: number;
  requests: number;
  posted: number;
  sustainedPerS: number;
  /** Payments answered OK inside the measured window, whenever they started, per second (capacity at steady state). */
  completedPerS: number;
  transactionAttempts: number;
  conflictsPerAttempt: number;
  exhaustedPct: number;
  otherErrors: Record<string, number>;
  latencyMs: { p50: number; p99: number };
  txWcuPerPayment: number;
  allInWcuPerPayment: number;
  /** Estimated units of the cancelled attempts per request in the window (2 per item: RequestCost.cancelledItems), not in all-in. */
  cancelledWcuPerPayment: number;
  hottestWriteKeys: { key: string; peakPerS: number }[];
  hottestReadKeys: { key: string; peakPerS: number }[];
  /** The hottest keys counting the cancelled transactions' units too (DynamoModel.billedMeter). */
  hottestBilledKeys: { key: string; peakPerS: number }[];
  /** The busiest credit partition (an inbox key, `#IN#`) of the run, if any. */
  hottestInboxKey: { key: string; peakPerS: number } | undefined;
  /** Hot mode: from a credit's inbox write to the fold that took it in (virtual ms). */
  foldLagMs: { p50: number; p99: number; max: number } | undefined;
  /** Hot mode: the keeper's write units (folds, keeper runs) per payment posted. */
  keeperWcuPerPayment: number;
  throttledWrites: number;
  balanceCheck: string;
  cpuS: number;
}

const AMOUNT = '0.01';
const TABLE = 'bench-hot-model';

interface World {
  mode: Mode;
  table: TableContext;
  clock: { now: () => Date };
  keeper: Keeper;
  app: Container;
  model: DynamoModel;
  time: VirtualTime;
  ctx: RequestContext;
  hotPayer: string;
  hotPayee: string;
  payers: string[];
  payees: string[];
  /** A new execution environment: its own container over the table, with its own hot-routing cache. */
  environment(): Container;
}

/** The world: one organization, a hot payer (funded, with a daily limit), a hot payee, many payers and payees. */
async function buildWorld(options: { mode: Mode; payers: number; payees: number; seed: number }): Promise<World> {
  Object.assign(process.env, {
    [ENV.tableName]: TABLE,
    [ENV.stage]: 'bench',
    [ENV.rateLimitPerSecond]: '100000000',
    [ENV.rateLimitPerMinute]: '6000000000',
    [ENV.walletLimitPerEnvironment]: String(options.payers + options.payees + 10),
    [ENV.cursorSecret]: 'bench-cursor-secret-0123456789abcdef0123456789',
  });
  const time = new VirtualTime();
  const epoch = Date.parse('2026-11-28T12:00:00.000Z');
  const clock = { now: () => new Date(epoch + time.now) };
  const dynamo = createMemoryDynamo({ tables: [TABLE] });
  const model = new DynamoModel(dynamo, time, { ...DEFAULT_MODEL });
  const random = seededRandom(options.seed);
  const table: TableContext = {
    client: model.client,
    tableName: TABLE,
    transact: { sleep: time.sleep, random },
    // Setup and the keeper: a process serving many requests at once, no sticky lane (hot-cache.ts).
    hot: createHotRouting({ now: () => time.now, random, stickyLanes: false }),
  };
  // Each client is a Lambda execution environment (one request at a time): its own container and
  // hot routing as the runtime makes it (core.ts processRouting: a sticky lane per hot wallet, the
  // registry of hot wallets read at its first commit), unless HOT_MODEL_LANES=hash (the local
  // server's routing: every debit's lane from its id's hash, a hot wallet learnt from a cold route).
  const lambda = (process.env.HOT_MODEL_LANES ?? 'sticky') !== 'hash';
  let environments = 0;
  const environment = () => {
    const hot = processRouting(table, lambda, {
      now: () => time.now,
      random: seededRandom(options.seed * 1000 + ++environments),
    });
    return createContainer(loadConfig(), { clock, table: { ...table, hot } });
  };
  const keeper = new Keeper(table, time, model, clock);
  const app = createContainer(loadConfig(), { clock, table });
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
  const org = await app.services.organizations.create(operator, AUDIT.organization.create, { name: 'Hot model' });
  const { principal } = await authenticate(app.core.authKeys, `Bearer ${org.sandboxKey}`, app.clock.now());
  const ctx: RequestContext = {
    principal,
    actor: { actorType: 'API_KEY', actorId: principal.keyId, ipAddress: '127.0.0.1' },
    requestId: 'bench-hot-model',
  };
  const services = app.services;
  async function wallet(name: string, fund?: string, limits?: Record<string, string>): Promise<string> {
    const created = await services.wallets.create(ctx, AUDIT.wallet.create, { name });
    if (fund) await services.wallets.fund(ctx, AUDIT.wallet.fund, created.id, fund);
    if (limits)
      await services.policies.create(ctx, AUDIT.policy.create, {
        walletId: created.id,
        name: `${name} limits`,
        maxTransactionAmount: '1000.00',
        requireHumanApproval: false,
        ...limits,
      });
    return created.id;
  }
  // The journal projector as the table's stream runs it (the audit entry, the event, the payment list).
  const projector = createJournalProjector({
    store: createProjectionStore(table),
    publisher: { publish: async () => undefined },
  });
  model.streamConsumers.push(async (change) => {
    const journal = journalChangeOf({
      eventName: change.oldImage ? 'MODIFY' : 'INSERT',
      dynamodb: { NewImage: change.newImage, OldImage: change.oldImage },
    });
    if (journal) await projector.project([journal]);
  });
  // The keeper's stream worker: a credit into an inbox is a record of the fold worker's next batch.
  keeper.foldPartitions = (pairs) => hotModeService(app.core).foldPartitions(pairs);
  model.streamConsumers.push(async (change) => {
    if (!change.oldImage && change.newImage?.entityType?.S === HOT_INBOX_ENTITY)
      keeper.credited(change.newImage.walletId!.S!, Number(change.PK.split('#').pop()));
    if (change.oldImage?.entityType?.S === HOT_INBOX_ENTITY && !change.newImage)
      keeper.folded(change.oldImage.createdAt!.S!, change.at);
  });
  const hotPayer = await wallet('Hot payer', '10000.00', { dailyLimit: '100000.00' });
  const hotPayee = await wallet('Hot payee');
  const payers: string[] = [];
  for (let i = 0; i < options.payers; i++) payers.push(await wallet(`Payer ${i}`, '1000.00'));
  const payees: string[] = [];
  for (let i = 0; i < options.payees; i++) payees.push(await wallet(`Payee ${i}`));
  if (options.mode === 'hot') {
    // Hot mode on the payee (credits into inboxes) and on the payer (debits from lanes), each
    // registered for the keeper first, as ops' hot-mode store does (hot-mode-store.ts promote).
    for (const walletId of [hotPayee, hotPayer])
      await registerHotWallet(table, { walletId, registeredAt: clock.now().toISOString() });
    await promote(table, hotPayee, HOT_SHAPE, clock);
    await promote(table, hotPayer, HOT_PAYER_SHAPE, clock);
    // The keeper's schedule before any load: the payer's lanes get their funds and limit quota.
    await runKeeperOnce(table, hotPayer, clock);
    // What a promotion does: the organization's projected keys in HOT_ORGANIZATION_SHARDS shards.
    await raiseShards(table, principal.organizationId!, principal.environment!, HOT_ORGANIZATION_SHARDS, {
      delayMs: 0,
      now: clock.now(),
    });
  }
  return {
    mode: options.mode,
    table,
    clock,
    keeper,
    app,
    model,
    time,
    ctx,
    hotPayer,
    hotPayee,
    payers,
    payees,
    environment,
  };
}

/** The payee promoted as the operator's switch and automatic promotion do (hotModeSizing: 64 partitions), with 8 lanes. */
const HOT_SHAPE = { partitions: hotModeSizing().partitions, lanes: 8 };
/**
 * The hot payer: 2,000 debits/s at h = 25 ms keep 50 lane transactions in flight, so it needs more
 * than 50 lanes (a lane takes one transaction at a time): the most a wallet may have (MAX_HOT_LANES).
 */
const HOT_PAYER_SHAPE = { partitions: 32, lanes: 64 };

/** Lambda polls a stream shard four times a second (no batching window: shared/workers.ts `hot-fold`). */
const STREAM_POLL_MS = 250;
/** Records per invocation of the fold worker (its trigger's batchSize). */
const FOLD_RECORDS = (WORKERS.find((worker) => worker.name === 'hot-fold')?.trigger as { batchSize: number }).batchSize;

/**
 * The keeper as the stream worker and the schedule run it: the `hot-fold` worker's code
 * (hotModeService.foldPartitions -> keeper-binding foldInbox: each partition of a batch folded
 * once when due, FOLD_MIN_BATCH credits or one FOLD_MAX_WAIT_MS old, then into main) on batches of
 * the stream's inbox records, one batch at a time (one shard), polled every STREAM_POLL_MS; and
 * runKeeperOnce on a schedule while the load runs. Its write units are its own (not any
 * payment's), reported per payment posted. Fold lag: from a credit's creation to its inbox item's
 * Delete (the stream's delete records).
 */
class Keeper {
  readonly cost: RequestCost;
  private records: { walletId: string; partition: number }[] = [];
  private polling = false;
  foldPartitions: (pairs: { walletId: string; partition: number }[]) => Promise<unknown> = async () => undefined;
  foldLags: number[] = [];
  /** Fold lags are measured until the load ends (the folds after it are the minute keeper's). */
  lagUntil = Number.POSITIVE_INFINITY;
  batches = 0;

  constructor(
    private readonly table: TableContext,
    private readonly time: VirtualTime,
    private readonly model: DynamoModel,
    private readonly clock: { now: () => Date },
  ) {
    this.cost = model.newCost();
  }

  reset(): void {
    Object.assign(this.cost, this.model.newCost());
    this.foldLags = [];
    this.batches = 0;
  }

  credited(walletId: string, partition: number): void {
    this.records.push({ walletId, partition });
    if (this.polling) return;
    this.polling = true;
    void this.model.costs.run(this.cost, () => this.poll());
  }

  /** An inbox item deleted (folded) at `at`, created at `createdAt` (the clock's ISO time). */
  folded(createdAt: string, at: number): void {
    if (at <= this.lagUntil)
      this.foldLags.push(at - (Date.parse(createdAt) - this.clock.now().getTime() + this.time.now));
  }

  private async poll() {
    while (this.records.length > 0) {
      await this.time.sleep(STREAM_POLL_MS);
      while (this.records.length > 0) {
        this.batches++;
        try {
          await this.foldPartitions(this.records.splice(0, FOLD_RECORDS));
        } catch {
          // A failed batch: its records come again in the stream (the next credit folds them too).
        }
      }
    }
    this.polling = false;
  }

  /**
   * The scheduled keeper's folds after the load (`at`, the stream drained): what the stream worker
   * left waiting for a batch is folded (foldAll), so every credit's fold is in the keeper's units.
   */
  async last(walletId: string, at: number): Promise<void> {
    await this.model.costs.run(this.cost, async () => {
      await this.time.sleep(at - this.time.now);
      await foldAll(this.table, walletId);
    });
  }

  /** The schedule: runKeeperOnce on the wallet every `everyMs` until `until`. */
  async schedule(walletId: string, until: number, everyMs = 1000): Promise<void> {
    await this.model.costs.run(this.cost, async () => {
      while (this.time.now < until) {
        await this.time.sleep(everyMs);
        try {
          await runKeeperOnce(this.table, walletId, this.clock);
        } catch {
          // A keeper run that failed is tried again at the next tick.
        }
      }
    });
  }
}

/** The wallet's exact available balance (keeper's readExactWallet: main, folds, inboxes and lanes of a hot wallet). */
async function balanceOf(world: World, walletId: string): Promise<Big> {
  const wallet = await readExactWallet(world.table, walletId);
  return wallet!.balance;
}

let runCounter = 0;

/** One run in virtual time: the load, then everything in flight drains; figures over the measured window. */
async function run(world: World, spec: RunSpec): Promise<RunResult> {
  const { model, time } = world;
  const runId = `r${++runCounter}`;
  const payerOf = (i: number) => (spec.shape === 'hot payee' ? world.payers[i % world.payers.length]! : world.hotPayer);
  const payeeOf = (i: number) => (spec.shape === 'hot payer' ? world.payees[i % world.payees.length]! : world.hotPayee);
  const watched = spec.shape === 'hot payee' ? world.hotPayee : world.hotPayer;
  const before = await balanceOf(world, watched);

  model.options.holdMs = spec.holdMs;
  const start = time.now;
  const measureFrom = start + spec.warmupS * 1000;
  const end = measureFrom + spec.durationS * 1000;
  model.resetMeters(measureFrom);
  model.enabled = true;
  world.keeper.reset();
  world.keeper.lagUntil = end;

  const outcomes = new Map<string, number>();
  const latencies: number[] = [];
  const okCosts: RequestCost[] = [];
  let requests = 0;
  let postedInWindow = 0;
  let completedInWindow = 0;
  let postedAll = 0;
  let attempts = 0;
  let conflicts = 0;
  let cancelledItems = 0;

  async function pay(env: Container, i: number, seq: number): Promise<void> {
    const t0 = time.now;
    const cost = model.newCost();
    let outcome = 'OK';
    try {
      await model.costs.run(cost, () =>
        env.services.payments.create(world.ctx, AUDIT.payment.create, {
          from: payerOf(i),
          to: payeeOf(i),
          amount: AMOUNT,
          idempotencyKey: `${runId}-${i}-${seq}`,
        }),
      );
    } catch (error) {
      outcome = error instanceof ApiError ? error.code : `${(error as Error).name}: ${(error as Error).message}`;
    }
    if (outcome === 'OK') postedAll++;
    if (outcome === 'OK' && time.now >= measureFrom && time.now < end) completedInWindow++;
    if (t0 < measureFrom || t0 >= end) return;
    requests++;
    attempts += cost.transactionAttempts;
    conflicts += cost.conflicts;
    cancelledItems += cost.cancelledItems;
    latencies.push(time.now - t0);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (outcome === 'OK') {
      okCosts.push(cost);
      if (time.now < end) postedInWindow++;
    }
  }

  const cpuBefore = process.cpuUsage();
  const load: Promise<void>[] = [];
  if (world.mode === 'hot') {
    // The keeper's schedule on both hot wallets (about every modelled second) while the load runs.
    // The payee's keeper as scheduled (every HOT_KEEPER_RATE_MINUTES); a run shorter than that
    // leaves its credits to the stream's fold worker alone.
    const keeperEveryMs = HOT_KEEPER_RATE_MINUTES * 60_000;
    if (end - start > keeperEveryMs) load.push(world.keeper.schedule(world.hotPayee, end, keeperEveryMs));
    if (spec.shape !== 'hot payer') load.push(world.keeper.last(world.hotPayee, end + 2000));
    if (spec.shape !== 'hot payee') load.push(world.keeper.schedule(world.hotPayer, end));
  }
  // Execution environments as Lambda keeps them: a request takes the environment freed last, or a new one.
  const idle: Container[] = [];
  let environments = 0;
  async function payIn(i: number, seq: number): Promise<void> {
    const env = idle.pop() ?? (environments++, world.environment());
    try {
      await pay(env, i, seq);
    } finally {
      idle.push(env);
    }
  }
  if (spec.clients !== undefined) {
    for (let i = 0; i < spec.clients; i++) {
      load.push(
        (async () => {
          // Each client its own environment; clients start spread over the first 100 ms.
          const env = world.environment();
          environments++;
          await time.sleep((i * 100) / spec.clients!);
          for (let seq = 0; time.now < end; seq++) await pay(env, i, seq);
        })(),
      );
    }
  } else {
    const rate = spec.ratePerS!;
    const arrivals = seededRandom(runCounter);
    load.push(
      (async () => {
        const inFlight: Promise<void>[] = [];
        for (let seq = 0; time.now < end; seq++) {
          inFlight.push(payIn(seq, 0));
          // Poisson arrivals at `rate`.
          await time.sleep((-Math.log(1 - arrivals()) * 1000) / rate);
        }
        await Promise.all(inFlight);
      })(),
    );
  }
  let finished = false;
  const loaded = Promise.all(load).finally(() => (finished = true));
  await time.run();
  if (!finished) throw new Error(`the ${spec.shape} run stalled: a payment waits on something outside virtual time`);
  await loaded;
  model.enabled = false;
  const cpu = process.cpuUsage(cpuBefore);

  const after = await balanceOf(world, watched);
  const moved = spec.shape === 'hot payee' ? after.minus(before) : before.minus(after);
  const expected = new Big(AMOUNT).times(postedAll);
  const exhausted = outcomes.get('CONCURRENT_UPDATE') ?? 0;
  const other = Object.fromEntries(
    [...outcomes.entries()].filter(([code]) => code !== 'OK' && code !== 'CONCURRENT_UPDATE'),
  );
  const meanOf = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN);
  return {
    spec,
    environments,
    requests,
    posted: postedInWindow,
    sustainedPerS: postedInWindow / spec.durationS,
    completedPerS: completedInWindow / spec.durationS,
    transactionAttempts: attempts,
    conflictsPerAttempt: attempts ? conflicts / attempts : 0,
    exhaustedPct: requests ? (exhausted / requests) * 100 : 0,
    otherErrors: other,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    txWcuPerPayment: meanOf(okCosts.map((c) => c.txUnits)),
    allInWcuPerPayment:
      meanOf(okCosts.map((c) => c.allInUnits)) + world.keeper.cost.allInUnits / Math.max(1, postedAll),
    cancelledWcuPerPayment: requests ? (2 * cancelledItems) / requests : 0,
    foldLagMs: world.keeper.foldLags.length
      ? {
          p50: percentile(world.keeper.foldLags, 50),
          p99: percentile(world.keeper.foldLags, 99),
          max: Math.max(...world.keeper.foldLags),
        }
      : undefined,
    keeperWcuPerPayment: world.keeper.cost.allInUnits / Math.max(1, postedAll),
    hottestWriteKeys: model.hottest(model.writeMeter, 5),
    hottestReadKeys: model.hottest(model.readMeter, 3),
    hottestBilledKeys: model.hottest(model.billedMeter, 3),
    hottestInboxKey: model.hottest(new Map([...model.writeMeter].filter(([key]) => key.includes('#IN#'))), 1)[0],
    throttledWrites: model.totals.throttledWrites,
    balanceCheck: moved.eq(expected) ? 'ok' : `MISMATCH: moved ${moved.toFixed(2)}, posted ${expected.toFixed(2)}`,
    cpuS: (cpu.user + cpu.system) / 1e6,
  };
}

export interface HotModelOptions {
  quick: boolean;
  log: (line: string) => void;
  modes?: Mode[];
}

export interface HotModelResult {
  runs: RunResult[];
}

/** Every run of the bench (cold: today's path; hot: both wallets promoted). */
export function plannedRuns(quick: boolean, modes: Mode[]): RunSpec[] {
  const durationS = quick ? 1 : 4;
  const warmupS = quick ? 0.5 : 1;
  const specs: RunSpec[] = [];
  for (const mode of modes) {
    for (const shape of ['hot payee', 'hot payer', 'hot to hot'] as const)
      for (const holdMs of [5, 10, 25])
        for (const clients of [10, 50]) specs.push({ mode, shape, holdMs, clients, durationS, warmupS });
    // Open loop: HOT_MODEL_IN_RATES / HOT_MODEL_OUT_RATES (comma-separated payments/s; default 5000 and 2000)
    // offer more than a target to measure capacity; HOT_MODEL_OPEN_S and HOT_MODEL_WARMUP_S set its window.
    const openS = Number(process.env.HOT_MODEL_OPEN_S ?? (quick ? 1 : 2));
    const openWarmupS = Number(process.env.HOT_MODEL_WARMUP_S ?? warmupS);
    for (const ratePerS of ratesOf('HOT_MODEL_IN_RATES', 5000))
      specs.push({ mode, shape: 'hot payee', holdMs: 25, ratePerS, durationS: openS, warmupS: openWarmupS });
    for (const ratePerS of ratesOf('HOT_MODEL_OUT_RATES', 2000))
      specs.push({ mode, shape: 'hot payer', holdMs: 25, ratePerS, durationS: openS, warmupS: openWarmupS });
  }
  return specs;
}

function ratesOf(name: string, fallback: number): number[] {
  const rates = (process.env[name] ?? String(fallback)).split(',').filter(Boolean).map(Number);
  if (rates.some((rate) => !(rate > 0))) throw new Error(`${name} takes positive payments/s, e.g. 2200,2500`);
  return rates;
}

export async function runHotModel(options: HotModelOptions): Promise<HotModelResult> {
  synchronousDigest();
  const modes = options.modes ?? ['cold', 'hot'];
  // HOT_MODEL_ONLY=text[,text...]: only the runs whose label contains one of them (e.g. "hot hot payer,5000/s").
  const only = process.env.HOT_MODEL_ONLY?.split(',').filter(Boolean);
  const specs = plannedRuns(options.quick, modes).filter(
    (spec) => !only?.length || only.some((text) => labelOf(spec).includes(text)),
  );
  const runs: RunResult[] = [];
  for (const mode of modes) {
    if (!specs.some((s) => s.mode === mode)) continue;
    // Payees as many as payers: 2,000/s out of the hot payer spread over them (each cold payee ~7/s).
    const wallets = options.quick ? 300 : 1000;
    const world = await buildWorld({ mode, payers: wallets, payees: wallets, seed: 25 });
    for (const spec of specs.filter((s) => s.mode === mode)) {
      const result = await run(world, spec);
      options.log(
        `${labelOf(spec)}: ` +
          `${fmt(result.sustainedPerS, 0)}/s (answered in window ${fmt(result.completedPerS, 0)}/s), exhausted ${fmt(result.exhaustedPct)}%, ` +
          `${fmt(result.conflictsPerAttempt, 2)} confl/att, ${result.environments} envs, cpu ${fmt(result.cpuS)} s`,
      );
      runs.push(result);
    }
  }
  return { runs };
}

export function formatHotModelReport(result: HotModelResult): string {
  const rows = result.runs.map((r) => [
    `${r.spec.mode} ${r.spec.shape}`,
    r.spec.clients !== undefined ? `${r.spec.clients} cl` : `${r.spec.ratePerS}/s`,
    r.spec.holdMs,
    r.environments,
    fmt(r.sustainedPerS, 0),
    fmt(r.completedPerS, 0),
    fmt(r.conflictsPerAttempt, 2),
    fmt(r.exhaustedPct, 1),
    fmt(r.latencyMs.p50, 0),
    fmt(r.latencyMs.p99, 0),
    `${fmt(r.hottestWriteKeys[0]?.peakPerS ?? 0, 0)} ${shortKey(r.hottestWriteKeys[0]?.key ?? '')}`,
    fmt(r.txWcuPerPayment, 1),
    fmt(r.allInWcuPerPayment, 1),
    fmt(r.cancelledWcuPerPayment, 1),
    r.balanceCheck,
  ]);
  return [
    'Hot wallets, virtual-time model (bench/hot-model.ts): real payment code on memory-dynamo, per-item hold h, 1,000 WCU/s per key',
    table(
      [
        'scenario',
        'load',
        'h ms',
        'envs',
        'posted/s',
        'done/s',
        'confl/att',
        'exhausted %',
        'p50 ms',
        'p99 ms',
        'max WCU/s on one key',
        'tx WCU',
        'all-in WCU',
        'cancelled WCU',
        'balance',
      ],
      rows,
    ),
    '',
    'Hottest write keys per run (peak WCU in one second):',
    ...result.runs.map(
      (r) =>
        `  ${r.spec.mode} ${r.spec.shape} ${r.spec.clients !== undefined ? `${r.spec.clients} cl` : `${r.spec.ratePerS}/s`} h=${r.spec.holdMs}: ` +
        r.hottestWriteKeys.map((k) => `${shortKey(k.key)} ${fmt(k.peakPerS, 0)}`).join(', ') +
        `; with cancelled attempts: ${r.hottestBilledKeys.map((k) => `${shortKey(k.key)} ${fmt(k.peakPerS, 0)}`).join(', ')}` +
        (r.hottestInboxKey
          ? `; busiest inbox ${shortKey(r.hottestInboxKey.key)} ${fmt(r.hottestInboxKey.peakPerS, 0)}`
          : '') +
        (r.spec.mode === 'hot' ? `; keeper ${fmt(r.keeperWcuPerPayment, 2)} WCU/payment` : '') +
        (r.foldLagMs ? `, fold lag p50/p99 ${fmt(r.foldLagMs.p50, 0)}/${fmt(r.foldLagMs.p99, 0)} ms` : '') +
        (Object.keys(r.otherErrors).length ? `; other answers ${JSON.stringify(r.otherErrors)}` : ''),
    ),
  ].join('\n');
}

function labelOf(spec: RunSpec): string {
  return `${spec.mode} ${spec.shape} ${spec.clients !== undefined ? `${spec.clients} cl` : `${spec.ratePerS}/s`} h=${spec.holdMs}`;
}

/** A key with its ids shortened (wal_abc... -> wal_abc…) so the table stays readable. */
function shortKey(key: string): string {
  return key.replace(/([a-z]{3}_[A-Za-z0-9]{4})[A-Za-z0-9]+/g, '$1…');
}
