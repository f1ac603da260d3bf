import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import type { JournalRecord } from '../../shared/domain/ledger/journal.js';
import { projectionsOf, type JournalProjections } from '../../shared/domain/ledger/journal-projection.js';
import type { Environment } from '../../shared/domain/tenancy.js';
import type { OutboxEvent, Page, PageRequest, Wallet } from '../../shared/domain/types.js';
import { createAuditStore } from '../../shared/persistence/audit-store.js';
import { organizationEnvironmentCodec } from '../../shared/persistence/entities/organization-environment.js';
import { shardedKeys } from '../../shared/persistence/entities/shards.js';
import { journalCodec } from '../../shared/persistence/entities/transaction.js';
import { walletCodec, walletKeys } from '../../shared/persistence/entities/wallet.js';
import { createEventStore } from '../../shared/persistence/event-store.js';
import { orgShardCount, raiseShards } from '../../shared/persistence/org-shards.js';
import { createPaymentStore } from '../../shared/persistence/payment-store.js';
import { createProjectionStore } from '../../shared/persistence/projection-store.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { createWalletStore } from '../../shared/persistence/wallet-store.js';
import { readTxnShards } from '../../shared/persistence/wallet-journal.js';
import { promote } from '../../shared/persistence/hot/promote.js';
import { createTestTable } from '../fixtures/table.js';

const ENV: Environment = 'SANDBOX';
const ORG = 'org_shrd0000000000000001';
const HOT = 'wal_hott00000000000000000001';
const PAYER = 'wal_payr00000000000000000001';
const PAYEE = 'wal_paye00000000000000000001';
const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const at = (n: number) => new Date(T0 + n * 1000).toISOString();
/** Records from this one on are projected after the raise took effect (the first ones stay on shard 0). */
const RAISED_AT = 30;

const actor = { actorType: 'API_KEY' as const, actorId: 'key_shrd', ipAddress: '127.0.0.1' };

function payment(n: number, fields: Partial<JournalRecord> & Record<string, unknown>): JournalRecord {
  return {
    id: `txn_shrd${String(n).padStart(16, '0')}`,
    type: 'PAYMENT',
    status: 'POSTED',
    organizationId: ORG,
    environment: ENV,
    from: PAYER,
    to: PAYEE,
    amount: '1.00',
    currency: 'USD',
    createdAt: at(n),
    postedAt: at(n),
    audit: { action: AUDIT.payment.create, actor },
    ...fields,
  } as JournalRecord;
}

/** Every page of a list, following its cursor: the items in the order given. */
async function allPages<T>(read: (page: PageRequest) => Promise<Page<T>>, limit: number): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const page = await read({ limit, ...(startKey ? { startKey } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    // Exact pages: a cursor only when more follows, and never a short page before the end.
    if (!page.lastKey) return items;
    expect(page.items.length).toBe(limit);
    startKey = JSON.parse(JSON.stringify(page.lastKey)) as Record<string, unknown>;
  }
  throw new Error('the list did not end');
}

const newestFirst = <T>(items: T[], sortOf: (item: T) => string) =>
  [...items].sort((a, b) => (sortOf(a) < sortOf(b) ? 1 : sortOf(a) > sortOf(b) ? -1 : 0));

async function partitionSizes(table: TableContext, keys: string[], index?: string): Promise<number[]> {
  return Promise.all(
    keys.map(async (key) => {
      const output = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          ...(index ? { IndexName: index } : {}),
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index ? `${index}PK` : 'PK' },
          ExpressionAttributeValues: { ':pk': key },
        }),
      );
      return output.Count ?? 0;
    }),
  );
}

/** The mechanism at a count of its own (a promotion raises to HOT_ORGANIZATION_SHARDS). */
const SHARDS = 8;

describe('the lists of an organization environment of 8 shards', () => {
  let table: TableContext;
  const records: JournalRecord[] = [];
  let projections: JournalProjections[];
  let events: OutboxEvent[];

  beforeAll(async () => {
    table = await createTestTable();
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: organizationEnvironmentCodec.toItem({
          organizationId: ORG,
          environment: ENV,
          mainWalletId: PAYER,
          walletCount: 3,
        }),
      }),
    );
    // The raise takes effect at record RAISED_AT: the records before it are projected on shard 0.
    expect(await raiseShards(table, ORG, ENV, SHARDS, { now: new Date(at(RAISED_AT)), delayMs: 0 })).toBe(8);
    for (let n = 0; n < 90; n++) {
      const reversed = n % 10 === 3;
      const toOther = n % 4 === 1;
      records.push(
        payment(n, {
          status: reversed ? 'REVERSED' : 'POSTED',
          ...(toOther ? { to: HOT } : {}),
          ...(n % 5 === 2
            ? {
                type: 'FUNDING',
                from: 'acc_SANDBOX_FUNDING',
                to: PAYER,
                audit: { action: AUDIT.wallet.fund, actor },
              }
            : {}),
        }),
      );
    }
    for (const record of records)
      await table.client.send(new PutCommand({ TableName: table.tableName, Item: journalCodec.toItem(record) }));
    projections = await Promise.all(records.map(projectionsOf));
    const written = await createProjectionStore(table).writeProjections(projections, { checkFirst: false });
    expect(written.present).toBe(0);
    events = projections.flatMap((projection) => projection.events);
    // Stamped at their own instants (the clock is before them all).
    const stored = await createEventStore(table, { clock: fixedClock(new Date(T0 - 60_000)) }).storeEvents(events);
    expect(stored).toHaveLength(events.length);
  });

  it('spreads the projected items over the 8 shards from the raise on, and keeps the earlier ones on shard 0', async () => {
    const listingKeys = shardedKeys(`PAYMENTS#${ORG}#${ENV}`, 8);
    const sizes = await partitionSizes(table, listingKeys);
    const listed = projections.flatMap((projection) => projection.listings);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(listed.length);
    for (const size of sizes) expect(size).toBeGreaterThan(0);
    const early = listed.filter((listing) => listing.createdAt < at(RAISED_AT)).length;
    expect(sizes[0]).toBeGreaterThanOrEqual(early);
    const auditSizes = await partitionSizes(table, shardedKeys(`AUDIT#${ORG}#${ENV}`, 8));
    expect(auditSizes.reduce((a, b) => a + b, 0)).toBe(projections.filter((p) => p.audit).length);
    for (const size of auditSizes) expect(size).toBeGreaterThan(0);
    const eventSizes = await partitionSizes(table, shardedKeys(`EVENTS#${ORG}#${ENV}`, 8), 'GSI1');
    expect(eventSizes.reduce((a, b) => a + b, 0)).toBe(events.length);
    expect(await orgShardCount(table, ORG, ENV)).toBe(8);
  });

  it('projects every item on the same shard again (a redelivered batch or a replay writes nothing)', async () => {
    const again = await createProjectionStore(table).writeProjections(projections, { checkFirst: false });
    expect(again.written).toBe(0);
    const checked = await createProjectionStore(table).writeProjections(projections, { checkFirst: true });
    expect(checked.written).toBe(0);
  });

  it("lists the organization's payments from every shard, newest first, each once, through the cursors, status filter applied", async () => {
    const store = createPaymentStore(table);
    const expected = newestFirst(
      records.filter((record) => record.type === 'PAYMENT'),
      (record) => `${record.createdAt}#${record.id}`,
    );
    for (const limit of [4, 100]) {
      const listed = await allPages((page) => store.listTransactions(ORG, ENV, {}, page), limit);
      expect(listed.map((transaction) => transaction.id)).toEqual(expected.map((record) => record.id));
    }
    const reversed = await allPages((page) => store.listTransactions(ORG, ENV, { status: 'REVERSED' }, page), 4);
    expect(reversed.map((transaction) => transaction.id)).toEqual(
      expected.filter((record) => record.status === 'REVERSED').map((record) => record.id),
    );
  });

  it('lists the audit entries from every shard, with each filter and a time range', async () => {
    const store = createAuditStore(table);
    const entries = newestFirst(
      projections.flatMap((projection) => (projection.audit ? [projection.audit] : [])),
      (entry) => `${entry.createdAt}#${entry.id}`,
    );
    const ids = (list: { id: string }[]) => list.map((entry) => entry.id);
    expect(ids(await allPages((page) => store.listAuditEntries(ORG, ENV, {}, page), 9))).toEqual(ids(entries));
    const funds = entries.filter((entry) => entry.action === AUDIT.wallet.fund);
    expect(
      ids(await allPages((page) => store.listAuditEntries(ORG, ENV, { action: AUDIT.wallet.fund }, page), 5)),
    ).toEqual(ids(funds));
    expect(ids(await allPages((page) => store.listAuditEntries(ORG, ENV, { walletId: PAYER }, page), 6))).toEqual(
      ids(entries.filter((entry) => entry.walletId === PAYER)),
    );
    const from = at(20);
    const to = at(70);
    const ranged = entries.filter((entry) => entry.createdAt >= from && entry.createdAt <= to);
    expect(
      ids(
        await allPages((page) => store.listAuditEntries(ORG, ENV, { from, to, action: AUDIT.payment.create }, page), 8),
      ),
    ).toEqual(ids(ranged.filter((entry) => entry.action === AUDIT.payment.create)));
    const one = entries[10]!;
    expect(
      ids(await allPages((page) => store.listAuditEntries(ORG, ENV, { resourceId: one.resourceId }, page), 3)),
    ).toEqual([one.id]);
  });

  it('lists the events from every shard, of the organization and of one wallet, and polls the feed in visible order', async () => {
    const store = createEventStore(table);
    const expected = newestFirst(events, (event) => `${event.createdAt}#${event.id}`);
    const ids = (list: { id: string }[]) => list.map((event) => event.id);
    expect(ids(await allPages((page) => store.listEvents(ORG, ENV, {}, page), 11))).toEqual(ids(expected));
    const ofHot = expected.filter((event) => JSON.stringify(event.data).includes(HOT));
    expect(ofHot.length).toBeGreaterThan(0);
    expect(ids(await allPages((page) => store.listEvents(ORG, ENV, { walletId: HOT }, page), 4))).toEqual(ids(ofHot));
    expect(ids(await allPages((page) => store.listEvents(ORG, ENV, { type: 'wallet.funded' }, page), 6))).toEqual(
      ids(expected.filter((event) => event.type === 'wallet.funded')),
    );

    // The feed: oldest first by visible stamp, each once, following the position.
    const until = at(1000);
    const fed: OutboxEvent[] = [];
    let after: string | undefined;
    for (let polls = 0; polls < 100; polls++) {
      const page = await store.listVisibleEvents(ORG, ENV, {}, { ...(after ? { after } : {}), until }, 13);
      fed.push(...page.items);
      after = page.position;
      if (!page.more) break;
    }
    expect(ids(fed)).toEqual(ids([...expected].reverse()));
    const hotFed: OutboxEvent[] = [];
    after = undefined;
    for (let polls = 0; polls < 100; polls++) {
      const page = await store.listVisibleEvents(
        ORG,
        ENV,
        { walletId: HOT },
        { ...(after ? { after } : {}), until },
        3,
      );
      hotFed.push(...page.items);
      after = page.position;
      if (!page.more) break;
    }
    expect(ids(hotFed)).toEqual(ids([...ofHot].reverse()));
  });

  it('only grows the shard count', async () => {
    expect(await raiseShards(table, ORG, ENV, 4, { delayMs: 0 })).toBe(8);
    await expect(raiseShards(table, ORG, ENV, 0)).rejects.toThrow();
    await expect(raiseShards(table, 'org_none', ENV, 8)).rejects.toThrow(/not found/);
  });
});

describe("a hot wallet's transaction lists (8 debit lanes, 4 credit partitions)", () => {
  let table: TableContext;
  const records: JournalRecord[] = [];

  beforeAll(async () => {
    table = await createTestTable();
    const wallet: Wallet = {
      id: HOT,
      organizationId: ORG,
      environment: ENV,
      name: 'Hot',
      walletType: 'ORG',
      isMain: false,
      status: 'ACTIVE',
      balance: new Big('1000'),
      pendingBalance: new Big(0),
      heldBalance: new Big(0),
      currency: 'USD',
      createdAt: at(-1),
    };
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...walletCodec.toItem(wallet), txnShards: { in: 4, out: 8 } },
      }),
    );
    for (let n = 0; n < 90; n++) {
      const out = n % 2 === 0;
      const cold = n % 7 === 0;
      const queued = n % 11 === 5;
      records.push(
        payment(n, {
          ...(out ? { from: HOT, to: PAYEE } : { from: PAYER, to: HOT }),
          ...(cold ? {} : out ? { debitLane: (n / 2) % 8 } : { creditPartition: ((n - 1) / 2) % 4 }),
          ...(n % 9 === 4 ? { status: 'REVERSED' } : {}),
          ...(queued ? { status: 'QUEUED', postedAt: undefined } : {}),
        }),
      );
    }
    // One more in another organization's wallet: never in the hot wallet's lists.
    records.push(payment(500, { from: PAYER, to: PAYEE }));
    for (const record of records)
      await table.client.send(new PutCommand({ TableName: table.tableName, Item: journalCodec.toItem(record) }));
  });

  const ofHot = () =>
    newestFirst(
      records.filter((record) => record.from === HOT || record.to === HOT),
      (record) => `${record.postedAt ?? record.createdAt}#${record.id}`,
    );

  it('writes each record on the shard of its lane or partition', async () => {
    const out = await partitionSizes(table, shardedKeys(`WALLET#${HOT}#TXNS`, 8), 'GSI2');
    const into = await partitionSizes(table, shardedKeys(`WALLET#${HOT}#TXNS_IN`, 4), 'GSI3');
    for (const size of [...out, ...into]) expect(size).toBeGreaterThan(0);
    expect(out.reduce((a, b) => a + b, 0) + into.reduce((a, b) => a + b, 0)).toBe(ofHot().length);
  });

  it("lists the wallet's payments from every shard, newest first, each once, through the cursors, filters applied", async () => {
    const store = createPaymentStore(table);
    for (const limit of [6, 100]) {
      const listed = await allPages((page) => store.listTransactions(ORG, ENV, { walletId: HOT }, page), limit);
      expect(listed.map((transaction) => transaction.id)).toEqual(ofHot().map((record) => record.id));
    }
    const reversed = await allPages(
      (page) => store.listTransactions(ORG, ENV, { walletId: HOT, status: 'REVERSED' }, page),
      5,
    );
    expect(reversed.map((transaction) => transaction.id)).toEqual(
      ofHot()
        .filter((record) => record.status === 'REVERSED')
        .map((record) => record.id),
    );
  });

  it('gives the statement of every record that moved money, with running balances, across pages', async () => {
    const store = createWalletStore(table);
    const moved = ofHot().filter((record) => record.postedAt !== undefined);
    const lines = await allPages((page) => store.getStatement(HOT, page), 8);
    expect(lines.map((line) => line.transactionId)).toEqual(moved.map((record) => record.id));
    let balance = new Big('1000');
    for (const [i, line] of lines.entries()) {
      expect(line.balanceAfter.eq(balance)).toBe(true);
      expect(line.amount.eq(moved[i]!.from === HOT ? -1 : 1)).toBe(true);
      balance = balance.minus(line.amount);
    }
  });

  it('goes on with the shards of its first page when the wallet grows more of them (the new ones hold only newer records)', async () => {
    const store = createPaymentStore(table);
    const first = await store.listTransactions(ORG, ENV, { walletId: HOT }, { limit: 10 });
    const cursor = JSON.parse(JSON.stringify(first.lastKey)) as Record<string, unknown>;
    expect(cursor.shards).toEqual([8, 4]);
    // The wallet grows to 16 lanes and pays out of lane 12, after the first page was read.
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: walletKeys.primary(HOT),
        UpdateExpression: 'SET txnShards = :shards',
        ExpressionAttributeValues: { ':shards': { in: 4, out: 16 } },
      }),
    );
    const newer = payment(1000, { from: HOT, to: PAYEE, debitLane: 12 });
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: journalCodec.toItem(newer) }));
    const rest = await allPages(
      (page) =>
        store.listTransactions(ORG, ENV, { walletId: HOT }, page.startKey ? page : { ...page, startKey: cursor }),
      10,
    );
    expect([...first.items, ...rest].map((transaction) => transaction.id)).toEqual(ofHot().map((record) => record.id));
    const fresh = await store.listTransactions(ORG, ENV, { walletId: HOT }, { limit: 3 });
    expect(fresh.items[0]!.id).toBe(newer.id);
    expect((JSON.parse(JSON.stringify(fresh.lastKey)) as Record<string, unknown>).shards).toEqual([16, 4]);
  });

  it('keeps every shard after promotion and demotion: promotion grows txnShards, which stays when hot goes', async () => {
    const config = await promote(table, HOT, { partitions: 2, lanes: 32 });
    expect(config.lanes).toBe(32);
    expect(await readTxnShards(table, HOT)).toEqual({ in: 4, out: 32 });
    // The end of a demotion removes hot; the lists keep their shards.
    await table.client.send(
      new UpdateCommand({ TableName: table.tableName, Key: walletKeys.primary(HOT), UpdateExpression: 'REMOVE hot' }),
    );
    expect(await readTxnShards(table, HOT)).toEqual({ in: 4, out: 32 });
    const listed = await allPages(
      (page) => createPaymentStore(table).listTransactions(ORG, ENV, { walletId: HOT }, page),
      100,
    );
    expect(listed).toHaveLength(ofHot().length + 1);
  });
});
