import { NumberValue } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { fnv1a } from '../../shared/domain/ledger/hot/hot-routing.js';
import type { JournalRecord } from '../../shared/domain/ledger/journal.js';
import type { AuditEntry, OutboxEvent } from '../../shared/domain/types.js';
import { auditEntryCodec } from '../../shared/persistence/entities/audit-entry.js';
import { paymentListingCodec } from '../../shared/persistence/entities/payment-listing.js';
import {
  COLD_TXN_SHARDS,
  grownTxnShards,
  maxShardCount,
  orgShardOf,
  shardCountAt,
  shardedKey,
  shardedKeys,
  shardOfId,
  shardStepsOf,
  txnShardsOf,
} from '../../shared/persistence/entities/shards.js';
import { storedEventCodec } from '../../shared/persistence/entities/stored-event.js';
import { journalCodec } from '../../shared/persistence/entities/transaction.js';
import { walletJournalSources } from '../../shared/persistence/wallet-journal.js';

const W1 = 'wal_aaaa00000000000000000001';
const W2 = 'wal_bbbb00000000000000000002';

const record = (extra: Record<string, unknown> = {}): JournalRecord =>
  ({
    id: 'txn_1',
    type: 'PAYMENT',
    status: 'POSTED',
    organizationId: 'org_1',
    environment: 'SANDBOX',
    from: W1,
    to: W2,
    amount: '1.00',
    currency: 'USD',
    createdAt: '2026-11-28T00:00:00.000Z',
    postedAt: '2026-11-28T00:00:00.000Z',
    ...extra,
  }) as unknown as JournalRecord;

describe('sharded keys', () => {
  it('keeps the base key for shard 0 and suffixes the others', () => {
    expect(shardedKey('PAYMENTS#org_1#SANDBOX', 0)).toBe('PAYMENTS#org_1#SANDBOX');
    expect(shardedKey('PAYMENTS#org_1#SANDBOX', 7)).toBe('PAYMENTS#org_1#SANDBOX#7');
    expect(shardedKeys('K', 1)).toEqual(['K']);
    expect(shardedKeys('K', 3)).toEqual(['K', 'K#1', 'K#2']);
  });

  it('hashes an id to the same shard every time, within the count, spread over all of them', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    const counts = new Array(8).fill(0);
    for (let n = 0; n < 8000; n++) {
      const shard = shardOfId(`txn_${n}`, 8);
      expect(shard).toBe(shardOfId(`txn_${n}`, 8));
      counts[shard]++;
    }
    for (const count of counts) expect(count).toBeGreaterThan(800);
    expect(shardOfId('txn_anything', 1)).toBe(0);
  });
});

describe('organization shard steps', () => {
  const steps = shardStepsOf({
    shardSteps: [
      { count: new NumberValue('16'), from: '2026-11-28T02:00:00.000Z' },
      { count: 8, from: '2026-11-28T01:00:00.000Z' },
    ],
  });

  it('reads the steps in time order (numbers as written or read back)', () => {
    expect(steps).toEqual([
      { count: 8, from: '2026-11-28T01:00:00.000Z' },
      { count: 16, from: '2026-11-28T02:00:00.000Z' },
    ]);
    expect(shardStepsOf(undefined)).toEqual([]);
    expect(shardStepsOf({ mainWalletId: W1 })).toEqual([]);
  });

  it('gives an item the count in force at its instant: 1 before the first step', () => {
    expect(shardCountAt(steps, '2026-11-28T00:59:59.999Z#aud_1')).toBe(1);
    expect(shardCountAt(steps, '2026-11-28T01:00:00.000Z')).toBe(8);
    expect(shardCountAt(steps, '2026-11-28T03:00:00.000Z')).toBe(16);
    expect(maxShardCount(steps)).toBe(16);
    expect(maxShardCount([])).toBe(1);
    expect(orgShardOf(steps, 'aud_1', '2026-11-28T00:00:00.000Z')).toBe(0);
    expect(orgShardOf(steps, 'aud_1', '2026-11-28T01:30:00.000Z')).toBe(shardOfId('aud_1', 8));
  });
});

describe("a wallet's transaction list shards", () => {
  it('are one of each for a cold wallet, and the larger of txnShards and hot for a hot one', () => {
    expect(txnShardsOf(undefined)).toEqual(COLD_TXN_SHARDS);
    expect(txnShardsOf({ balance: new NumberValue('1') })).toEqual(COLD_TXN_SHARDS);
    expect(txnShardsOf({ txnShards: { in: new NumberValue('4'), out: new NumberValue('8') } })).toEqual({
      in: 4,
      out: 8,
    });
    expect(
      txnShardsOf({ txnShards: { in: 4, out: 8 }, hot: { state: 'HOT', partitions: 32, lanes: 2, since: 'x' } }),
    ).toEqual({ in: 32, out: 8 });
  });

  it('only grow', () => {
    expect(grownTxnShards(undefined, { partitions: 32, lanes: 64 })).toEqual({ in: 32, out: 64 });
    expect(grownTxnShards({ in: 32, out: 64 }, { partitions: 8, lanes: 4 })).toEqual({ in: 32, out: 64 });
  });

  it('are read from today two partitions for a cold wallet, then one more per lane and partition', () => {
    expect(walletJournalSources(W1).map((source) => [source.index.name, source.partition])).toEqual([
      ['GSI2', `WALLET#${W1}#TXNS`],
      ['GSI3', `WALLET#${W1}#TXNS_IN`],
    ]);
    const hot = walletJournalSources(W1, { in: 3, out: 2 }).map((source) => [source.index.name, source.partition]);
    expect(hot).toEqual([
      ['GSI2', `WALLET#${W1}#TXNS`],
      ['GSI3', `WALLET#${W1}#TXNS_IN`],
      ['GSI2', `WALLET#${W1}#TXNS#1`],
      ['GSI3', `WALLET#${W1}#TXNS_IN#1`],
      ['GSI3', `WALLET#${W1}#TXNS_IN#2`],
    ]);
  });
});

describe('the journal record index keys', () => {
  it("list a cold movement under today's keys", () => {
    const item = journalCodec.toItem(record());
    expect(item.GSI2PK).toBe(`WALLET#${W1}#TXNS`);
    expect(item.GSI3PK).toBe(`WALLET#${W2}#TXNS_IN`);
  });

  it('list a hot movement on the shard of its debit lane and of its credit partition', () => {
    const item = journalCodec.toItem(record({ debitLane: 5, creditPartition: 3 }));
    expect(item.GSI2PK).toBe(`WALLET#${W1}#TXNS#5`);
    expect(item.GSI3PK).toBe(`WALLET#${W2}#TXNS_IN#3`);
    expect(item.GSI2SK).toBe(item.GSI3SK);
    // Lane or partition 0 is shard 0: today's key.
    const zero = journalCodec.toItem(record({ debitLane: 0, creditPartition: 0 }));
    expect([zero.GSI2PK, zero.GSI3PK]).toEqual([`WALLET#${W1}#TXNS`, `WALLET#${W2}#TXNS_IN`]);
  });

  it('keeps the shards of a record read back and written again', () => {
    const again = journalCodec.toItem(
      journalCodec.fromItem({ ...journalCodec.toItem(record({ debitLane: 2 })), debitLane: new NumberValue('2') }),
    );
    expect(again.GSI2PK).toBe(`WALLET#${W1}#TXNS#2`);
  });
});

describe('projected items of an organization environment', () => {
  const entry: AuditEntry = {
    id: 'aud_1',
    organizationId: 'org_1',
    environment: 'SANDBOX',
    actorType: 'API_KEY',
    actorId: 'key_1',
    action: 'payment.create',
    resource: 'payment',
    resourceId: 'txn_1',
    metadata: { amount: new Big(1).toFixed(2) },
    ipAddress: '127.0.0.1',
    createdAt: '2026-11-28T00:00:00.000Z',
    walletId: W1,
  } as AuditEntry;

  it("are today's items on shard 0", () => {
    const item = auditEntryCodec.toItem(entry);
    expect(auditEntryCodec.toItem(entry, 0)).toEqual(item);
    expect(item.PK).toBe('AUDIT#org_1#SANDBOX');
    expect(String(item.GSI1PK)).toMatch(/^AUA#[0-9A-Za-z]{20}$/);
  });

  it('take the suffix of their shard on the partition and every index key', () => {
    const cold = auditEntryCodec.toItem(entry);
    const item = auditEntryCodec.toItem(entry, 3);
    expect(item.PK).toBe('AUDIT#org_1#SANDBOX#3');
    expect(item.SK).toBe(cold.SK);
    for (const index of ['GSI1PK', 'GSI2PK', 'GSI3PK', 'GSI4PK']) expect(item[index]).toBe(`${String(cold[index])}#3`);

    const listing = {
      organizationId: 'org_1',
      environment: 'SANDBOX' as const,
      transactionId: 'txn_1',
      createdAt: 'T',
    };
    expect(paymentListingCodec.toItem(listing).PK).toBe('PAYMENTS#org_1#SANDBOX');
    expect(paymentListingCodec.toItem(listing, 5).PK).toBe('PAYMENTS#org_1#SANDBOX#5');

    const event: OutboxEvent = {
      id: 'evt_1',
      type: 'payment.posted',
      organizationId: 'org_1',
      environment: 'SANDBOX',
      createdAt: '2026-11-28T00:00:00.000Z',
      data: { from: W1, to: W2 },
    };
    const stored = storedEventCodec.toItem(event, '2026-11-28T00:00:01.000Z', 2);
    const coldEvent = storedEventCodec.toItem(event, '2026-11-28T00:00:01.000Z');
    expect(stored.PK).toBe(coldEvent.PK);
    for (const index of ['GSI1PK', 'GSI2PK', 'GSI3PK', 'GSI4PK'])
      if (coldEvent[index] !== undefined) expect(stored[index]).toBe(`${String(coldEvent[index])}#2`);
    expect(coldEvent.GSI1PK).toBe('EVENTS#org_1#SANDBOX');
  });
});
