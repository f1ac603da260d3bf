/**
 * The card authorization decision path (docs/performance.md "Card authorizations"): what one
 * authorization costs against DynamoDB Local, measured on the same code the card network's
 * function calls (`authorizeForNetwork`): DynamoDB calls and write units per authorization, the
 * Node process's CPU per authorization (service + SDK; DynamoDB Local is another process), and
 * the latency p50/p99, one at a time and under concurrency. Issue 13's target: p99 under 100 ms.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { authenticate } from '../shared/auth/authenticate.js';
import { loadConfig } from '../shared/config/config.js';
import { OPERATOR_PERMISSION, type RequestContext } from '../shared/domain/tenancy.js';
import { GSI } from '../shared/persistence/table-schema.js';
import { createContainer } from '../shared/runtime/container.js';
import { installProbe, type CallRecord } from './lib/ddb-probe.js';
import { docItemSize, writeUnits } from './lib/item-size.js';
import { fmt, mix, summarize, table, type Summary } from './lib/stats.js';
import { AUDIT } from '../shared/domain/audit/actions.js';

export interface CardsBenchResult {
  samples: number;
  dynamoCallsPerAuthorization: number;
  calls: string;
  transactItems: { label: string; bytes: number; tableWcu: number; gsiWcu: number }[];
  modeledWcu: number;
  reportedWcu: number;
  cpuMsPerAuthorization: number;
  sequential: Summary;
  concurrent: Summary & { clients: number };
}

const MERCHANT = { name: 'Bench Cloud', category: '5734', country: 'US' };
const WRITE_OPS = new Set(['TransactWriteItems', 'PutItem', 'UpdateItem']);

function labelOf(pk: string, entityType: unknown): string {
  if (entityType === 'IDEMPOTENCY') return "answer in the network request's idempotency slot";
  if (pk.startsWith('TXN#')) return 'journal record of the hold';
  if (pk.startsWith('WALLET#')) return 'wallet (balances, period spend)';
  if (pk.startsWith('CARD_AUTHORIZATION#')) return 'authorization record';
  if (pk.startsWith('CARD#')) return 'card (interval spend)';
  if (pk.startsWith('AUDIT#')) return 'audit entry';
  if (pk.startsWith('OUTBOX#')) return 'outbox event (card.authorization.approved)';
  return pk.split('#')[0]!;
}

export async function runCardsBench(options: {
  endpoint: string;
  tableName: string;
  samples: number;
  cpuInvocations: number;
  concurrency: number;
  log: (line: string) => void;
}): Promise<CardsBenchResult> {
  const { log } = options;
  const probe = installProbe();
  const config = loadConfig({
    TABLE_NAME: options.tableName,
    DYNAMODB_ENDPOINT: options.endpoint,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
  const app = createContainer(config);
  const operator: RequestContext = {
    principal: {
      kind: 'OPERATOR',
      keyId: 'key_bench',
      organizationId: null,
      environment: null,
      permissions: [OPERATOR_PERMISSION],
      walletId: null,
    },
    actor: { actorType: 'SYSTEM', actorId: 'bench', ipAddress: '127.0.0.1' },
    requestId: 'bench',
  };
  const created = await app.services.organizations.create(operator, AUDIT.organization.create, { name: 'Bench cards' });
  const { principal } = await authenticate(app.core.authKeys, `Bearer ${created.sandboxKey}`, new Date());
  const ctx: RequestContext = {
    principal,
    actor: { actorType: 'API_KEY', actorId: principal.keyId, ipAddress: '127.0.0.1' },
    requestId: 'bench',
  };
  const total = options.samples * 2 + options.cpuInvocations + 50;
  for (let funded = 0; funded < total * 0.01 + 10; funded += 10_000)
    await app.services.wallets.fund(ctx, AUDIT.wallet.fund, created.mainWalletId, '10000.00');
  // A card with every kind of limit and a category allow list, on a wallet with a spend policy: the full decision.
  const card = await app.services.cards.create(ctx, AUDIT.card.create, {
    walletId: created.mainWalletId,
    type: 'PERSISTENT',
    spendingLimits: [
      { amount: '100.00', interval: 'per_authorization' },
      { amount: '1000000.00', interval: 'daily', categories: ['5734', '5812'] },
      { amount: '1000000.00', interval: 'monthly' },
    ],
  });
  await app.services.policies.create(ctx, AUDIT.policy.create, {
    walletId: created.mainWalletId,
    name: 'Bench guardrails',
    maxTransactionAmount: '500.00',
    requireHumanApproval: false,
    dailyLimit: '1000000.00',
    blockedRecipients: ['merchant:casino'],
  });
  let sequence = 0;
  const authorize = () =>
    app.services.cards.authorizeForNetwork(
      AUDIT.card.authorize,
      { cardId: card.id, networkId: `bench-${sequence++}`, amount: '0.01', merchant: MERCHANT },
      'SANDBOX',
    );

  // 1. Cost: the calls of one authorization, and the items its transaction writes.
  log(`cost: ${options.samples} authorizations, each traced`);
  const traces: CallRecord[][] = [];
  for (let i = 0; i < options.samples; i++) {
    const { result, trace } = await probe.traced(authorize);
    if (!result.approved) throw new Error(`bench authorization declined: ${result.reason}`);
    traces.push(trace.calls);
  }
  const last = traces[traces.length - 1]!;
  const counts = new Map<string, number>();
  for (const call of last) counts.set(call.op, (counts.get(call.op) ?? 0) + 1);
  const transaction = last.find((call) => call.op === 'TransactWriteItems');
  const transactItems = [];
  for (const item of transaction?.transactItems ?? []) {
    const stored =
      (await app.core.table.client.send(new GetCommand({ TableName: options.tableName, Key: item.key }))).Item ??
      item.item ??
      {};
    const bytes = docItemSize(stored);
    const gsis = Object.values(GSI).filter((index) => stored[index.partition] !== undefined).length;
    transactItems.push({
      label: labelOf(item.key.PK, stored.entityType),
      bytes,
      tableWcu: writeUnits(bytes, true),
      gsiWcu: gsis * writeUnits(bytes, false),
    });
  }
  const reportedWcu = last
    .filter((call) => WRITE_OPS.has(call.op))
    .reduce((sum, call) => sum + call.consumed.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0), 0);

  // 2. CPU of the Node process per authorization (sequential, probe off).
  probe.requestCapacity = false;
  probe.observing = false;
  log(`cpu: ${options.cpuInvocations} authorizations one after the other`);
  const cpuStart = process.cpuUsage();
  const sequentialMs: number[] = [];
  for (let i = 0; i < options.cpuInvocations; i++) {
    const started = performance.now();
    await authorize();
    sequentialMs.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuMsPerAuthorization = (cpu.user + cpu.system) / 1000 / options.cpuInvocations;

  // 3. Latency under concurrency.
  log(`latency: ${options.samples} authorizations, ${options.concurrency} at a time`);
  const concurrentMs: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.samples) {
        next++;
        const started = performance.now();
        await authorize();
        concurrentMs.push(performance.now() - started);
      }
    }),
  );
  probe.observing = true;
  probe.requestCapacity = true;
  return {
    samples: options.samples,
    dynamoCallsPerAuthorization: last.length,
    calls: mix(counts),
    transactItems,
    modeledWcu: transactItems.reduce((sum, item) => sum + item.tableWcu + item.gsiWcu, 0),
    reportedWcu,
    cpuMsPerAuthorization,
    sequential: summarize(sequentialMs),
    concurrent: { ...summarize(concurrentMs), clients: options.concurrency },
  };
}

export function formatCardsReport(result: CardsBenchResult): string {
  const items = table(
    ['item written by an approved authorization', 'bytes', 'table WCU', 'GSI WCU'],
    result.transactItems.map((item) => [item.label, item.bytes, item.tableWcu, item.gsiWcu]),
  );
  const latency = table(
    ['latency (ms)', 'n', 'p50', 'p95', 'p99', 'max'],
    [
      [
        'one at a time',
        result.sequential.n,
        fmt(result.sequential.p50),
        fmt(result.sequential.p95),
        fmt(result.sequential.p99),
        fmt(result.sequential.max),
      ],
      [
        `${result.concurrent.clients} at a time`,
        result.concurrent.n,
        fmt(result.concurrent.p50),
        fmt(result.concurrent.p95),
        fmt(result.concurrent.p99),
        fmt(result.concurrent.max),
      ],
    ],
  );
  return [
    'Card authorization decision path (authorizeForNetwork, approved)',
    `DynamoDB calls per authorization: ${result.dynamoCallsPerAuthorization} (${result.calls})`,
    `write units per authorization: ${result.modeledWcu} modeled (DynamoDB Local reported ${fmt(result.reportedWcu, 0)})`,
    items,
    `Node CPU per authorization (service + SDK): ${fmt(result.cpuMsPerAuthorization, 2)} ms`,
    latency,
  ].join('\n');
}
