/**
 * npm run bench -- webhooks: the event path, against DynamoDB Local.
 *
 * 1. The projector's cost per event: payments committed with no worker running, then their journal
 *    records handed to the projector (the stream consumer of functions/journal-projector) in
 *    batches of 100, as the table's stream would, with a DynamoDB client that counts its calls
 *    and an EventBridge client stub that counts PutEvents calls. Run twice: first delivery, then a
 *    redelivery of the same records (which stores and delivers nothing new).
 * 2. The local end-to-end latency from commit (the payment's answer) to delivery (a signed POST
 *    received on 127.0.0.1), over N payments, with the local workers (stream poller, in-process
 *    bus and queue) as `npm start` runs them.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { ensureOperatorKey } from '../bin/local/bootstrap.js';
import { createLocalServer } from '../bin/local/server.js';
import { startLocalWorkers } from '../bin/local/workers.js';
import { ENV } from '../shared/config/env-names.js';
import { eventBridgePublisher } from '../shared/events/publishers.js';
import { createContainer } from '../shared/runtime/container.js';
import { createCore } from '../shared/runtime/core.js';
import { journalProjector } from '../shared/runtime/event-bus.js';
import { WORKERS } from '../shared/workers.js';
import { fmt, mix, summarize, table, type Summary } from './lib/stats.js';

export interface WebhooksBenchResult {
  costEvents: number;
  firstDelivery: { dynamoCallsPerEvent: number; dynamoCalls: string; putEventsCallsPerEvent: number };
  redelivery: { dynamoCallsPerEvent: number; dynamoCalls: string; putEventsCallsPerEvent: number };
  latency: Summary & { events: number; concurrency: number };
}

export function webhooksBenchEnvironment(endpoint: string, tableName: string): Record<string, string> {
  return {
    [ENV.dynamodbEndpoint]: endpoint,
    [ENV.tableName]: tableName,
    [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
    [ENV.rateLimitPerSecond]: '100000',
    [ENV.rateLimitPerMinute]: '10000000',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
}

function countingClient(client: DynamoDBDocumentClient, counts: Map<string, number>): DynamoDBDocumentClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string } }, ...rest: unknown[]) => {
        const name = command.constructor.name.replace(/Command$/, '');
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return (target.send as (...args: unknown[]) => unknown)(command, ...rest);
      };
    },
  });
}

export async function runWebhooksBench(options: {
  endpoint: string;
  tableName: string;
  costEvents: number;
  latencyEvents: number;
  concurrency: number;
  log: (line: string) => void;
}): Promise<WebhooksBenchResult> {
  const { log } = options;
  const app = createContainer();
  const adminKey = await ensureOperatorKey(app, undefined);
  const server = createLocalServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as any;
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const org = await call('POST', '/v1/internal/organizations', adminKey, { name: 'Bench hooks' });
  const key = org.sandboxKey as string;
  const payer = (await call('POST', '/v1/wallets', key, { name: 'Payer' })).id as string;
  const payee = (await call('POST', '/v1/wallets', key, { name: 'Payee' })).id as string;
  for (let i = 0; i < Math.ceil((options.costEvents + options.latencyEvents) / 9000) + 1; i += 1)
    await call('POST', `/v1/wallets/${payer}/fund`, key, { amount: '10000.00' });
  const pay = async () => {
    const started = performance.now();
    const payment = await call('POST', '/v1/payments', key, { from: payer, to: payee, amount: '0.01' });
    return { id: payment.id as string, committedAt: performance.now(), started };
  };

  // 1. Projector cost per event (no worker running yet).
  log(`projector cost: ${options.costEvents} payments, then their journal records through the projector`);
  const ids: string[] = [];
  for (let i = 0; i < options.costEvents; i += 1) ids.push((await pay()).id);
  const records: { eventName: 'INSERT'; dynamodb: { NewImage: Record<string, unknown>; SequenceNumber: string } }[] =
    [];
  for (const [i, id] of ids.entries()) {
    const item = (
      await app.core.table.client.send(
        new GetCommand({ TableName: options.tableName, Key: { PK: `TXN#${id}`, SK: 'TXN' } }),
      )
    ).Item!;
    records.push({
      eventName: 'INSERT' as const,
      dynamodb: {
        NewImage: marshall(item, { removeUndefinedValues: true }) as Record<string, unknown>,
        SequenceNumber: String(i + 1),
      },
    });
  }
  const measure = async () => {
    const counts = new Map<string, number>();
    const core = createCore(app.config, {
      table: { client: countingClient(app.core.table.client, counts), tableName: options.tableName },
    });
    let putEvents = 0;
    const bus = eventBridgePublisher(
      { send: async () => ((putEvents += 1), { FailedEntryCount: 0, Entries: [] }) } as never,
      'bench-bus',
    );
    const consumer = journalProjector(core, bus);
    for (let start = 0; start < records.length; start += 100) await consumer.handle(records.slice(start, start + 100));
    const dynamo = [...counts.values()].reduce((a, b) => a + b, 0);
    return {
      dynamoCallsPerEvent: dynamo / records.length,
      dynamoCalls: mix(counts),
      putEventsCallsPerEvent: putEvents / records.length,
    };
  };
  const firstDelivery = await measure();
  const redelivery = await measure();

  // 2. Commit-to-delivery latency with the local workers.
  const workers = startLocalWorkers({
    workers: WORKERS.filter((w) => w.trigger.kind !== 'schedule'),
    table: { endpoint: options.endpoint, tableName: options.tableName },
  });
  await workers.streamsDrained();
  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { data: { id: string } };
      if (!arrivals.has(parsed.data.id)) arrivals.set(parsed.data.id, performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  await call('POST', '/v1/webhooks', key, {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ['payment.posted'],
  });
  log(
    `end-to-end: ${options.latencyEvents} payments, ${options.concurrency} at a time, commit -> signed POST received`,
  );
  const commits = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.latencyEvents) {
        next += 1;
        const { id, committedAt } = await pay();
        commits.set(id, committedAt);
      }
    }),
  );
  const deadline = Date.now() + 30_000;
  while ([...commits.keys()].some((id) => !arrivals.has(id)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const latencies = [...commits]
    .filter(([id]) => arrivals.has(id))
    .map(([id, at]) => Math.max(0, arrivals.get(id)! - at));
  await workers.stop();
  server.closeAllConnections();
  server.close();
  receiver.close();
  return {
    costEvents: records.length,
    firstDelivery,
    redelivery,
    latency: { ...summarize(latencies), events: latencies.length, concurrency: options.concurrency },
  };
}

export function formatWebhooksReport(result: WebhooksBenchResult): string {
  return [
    `Projector cost per event (${result.costEvents} payment.posted events, batches of 100; EventBridge stubbed and counted):`,
    table(
      ['delivery', 'DynamoDB calls/event', 'PutEvents calls/event', 'DynamoDB calls'],
      [
        [
          'first',
          fmt(result.firstDelivery.dynamoCallsPerEvent, 2),
          fmt(result.firstDelivery.putEventsCallsPerEvent, 2),
          result.firstDelivery.dynamoCalls,
        ],
        [
          'redelivered',
          fmt(result.redelivery.dynamoCallsPerEvent, 2),
          fmt(result.redelivery.putEventsCallsPerEvent, 2),
          result.redelivery.dynamoCalls,
        ],
      ],
    ),
    '',
    `Local end-to-end latency, commit -> delivery (${result.latency.events} events, ${result.latency.concurrency} clients), ms:`,
    table(
      ['median', 'p95', 'p99', 'max'],
      [[fmt(result.latency.p50), fmt(result.latency.p95), fmt(result.latency.p99), fmt(result.latency.max)]],
    ),
  ].join('\n');
}
