import type { Bucket, JournalAudit, TransactionType } from '../../domain/ledger/posting.js';
import type { JournalLeg, JournalRecord } from '../../domain/ledger/journal.js';
import { transactionOf } from '../../domain/payments/payment-posting.js';
import { ID_PREFIX } from '../../domain/ids.js';
import type { Environment } from '../../domain/tenancy.js';
import type { Transaction } from '../../domain/types.js';
import { readBig, readInt, toNumberAttribute } from '../client.js';
import { recordOf, str, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';
import { correlationAttribute, CORRELATION_ATTRIBUTE } from './correlation.js';
import { shardedKey } from './shards.js';

export const TRANSACTION_ENTITY = 'TRANSACTION';

/** The fields of a transaction record as a queued payment writes them. */
export type TransactionRecord = Record<string, unknown> & {
  id: string;
  type: string;
  organizationId: string;
  environment: Environment;
  createdAt: string;
  from: string;
  to: string;
  payeeOrganizationId?: string;
};

/**
 * The journal record of a movement (shared/domain/ledger/journal.ts), one item per movement in its
 * own partition: its id is the key's slot when the movement was made with an idempotency key.
 * Two index entries, one per wallet it moves money of, each sorted by `${createdAt}#${id}`:
 * GSI2 the paying (debited) wallet, GSI3 the receiving (credited) wallet. Statements and the
 * payments of one wallet read both; the organization-wide payment lists are projections
 * (payment-listing.ts). Wallet items are not indexed by balance-carrying attributes at all.
 */
export const transactionKeys = {
  primary: (transactionId: string): ItemKey => ({ PK: `TXN#${transactionId}`, SK: 'TXN' }),
  /** GSI2: shard `lane` of the paying wallet's list (shard 0, every cold wallet's record: `WALLET#<id>#TXNS`). */
  fromWallet: (walletId: string, lane = 0) => shardedKey(`WALLET#${walletId}#TXNS`, lane),
  /** GSI3: shard `partition` of the receiving wallet's list (shard 0: `WALLET#<id>#TXNS_IN`). */
  toWallet: (walletId: string, partition = 0) => shardedKey(`WALLET#${walletId}#TXNS_IN`, partition),
  listSort: (createdAt: string, transactionId: string) => `${createdAt}#${transactionId}`,
};

/** How a leg's bucket is stored (one letter). */
const BUCKET_CODE: Record<Bucket, string> = { available: 'A', held: 'H', pending: 'P' };
const bucketOfCode = (code: unknown): Bucket => (code === 'H' ? 'held' : code === 'P' ? 'pending' : 'available');

const isWallet = (account: string | undefined) => typeof account === 'string' && account.startsWith(ID_PREFIX.wallet);

const encodeActor = (actor: JournalAudit['actor']) => `${actor.actorType}|${actor.actorId}|${actor.ipAddress}`;
function decodeActor(text: string): JournalAudit['actor'] {
  const [actorType, actorId, ...ip] = text.split('|');
  return {
    actorType: actorType as JournalAudit['actor']['actorType'],
    actorId: actorId ?? '',
    ipAddress: ip.join('|'),
  };
}

/**
 * The sub-items a hot wallet's movement went through (contract of issue 25): `debitLane` the lane
 * of the paying wallet it was taken from, `creditPartition` the credit partition of the receiving
 * wallet it landed in. Each picks the shard of that wallet's list; absent (every cold movement,
 * and a hot wallet's movements through main): shard 0.
 */
interface HotRouting {
  debitLane?: unknown;
  creditPartition?: unknown;
}
function shardNumber(value: unknown): number {
  // A number as the writer made it, or a NumberValue as a record read back (wrapNumbers) carries it.
  const n = typeof value === 'number' ? value : value !== undefined && value !== null ? readInt(value) : 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export const journalCodec = {
  toItem(record: JournalRecord): Item {
    // Listed at the time the money moved (an approved payment moves when it is approved).
    const sort = transactionKeys.listSort(record.postedAt ?? record.createdAt, record.id);
    const { legs, audit, idempotencyFingerprint, ...fields } = record;
    const routing = record as JournalRecord & HotRouting;
    return {
      ...transactionKeys.primary(record.id),
      ...(isWallet(record.from)
        ? { GSI2PK: transactionKeys.fromWallet(record.from, shardNumber(routing.debitLane)), GSI2SK: sort }
        : {}),
      ...(isWallet(record.to) && record.to !== record.from
        ? { GSI3PK: transactionKeys.toWallet(record.to, shardNumber(routing.creditPartition)), GSI3SK: sort }
        : {}),
      entityType: TRANSACTION_ENTITY,
      ...fields,
      ...(legs
        ? {
            legs: legs.map((leg) => ({ a: leg.account, b: BUCKET_CODE[leg.bucket], d: toNumberAttribute(leg.amount) })),
          }
        : {}),
      ...(audit
        ? {
            auditAction: audit.action,
            actor: encodeActor(audit.actor),
            ...(audit.resourceId ? { auditResourceId: audit.resourceId } : {}),
          }
        : {}),
      ...(idempotencyFingerprint ? { keyDigest: idempotencyFingerprint } : {}),
      ...correlationAttribute(),
    };
  },
  isJournalRecord: (item: Item | undefined): boolean => item?.entityType === TRANSACTION_ENTITY,
  fromItem(item: Item): JournalRecord {
    // creditPartition / debitLane: where a hot wallet's leg was written. Kept (as numbers) so a record
    // read back and written again stays on its wallets' list shards; no view shows them.
    const {
      legs,
      auditAction,
      actor,
      auditResourceId,
      keyDigest,
      creditPartition,
      debitLane,
      [CORRELATION_ATTRIBUTE]: _correlation,
      ...fields
    } = recordOf(item);
    return {
      ...(fields as unknown as JournalRecord),
      ...(creditPartition !== undefined ? { creditPartition: readInt(creditPartition) } : {}),
      ...(debitLane !== undefined ? { debitLane: readInt(debitLane) } : {}),
      type: str(item.type) as TransactionType,
      ...(Array.isArray(legs)
        ? {
            legs: (legs as Item[]).map((leg): JournalLeg => ({
              account: str(leg.a),
              bucket: bucketOfCode(leg.b),
              amount: readBig(leg.d),
            })),
          }
        : {}),
      ...(typeof auditAction === 'string' && typeof actor === 'string'
        ? {
            audit: {
              action: auditAction as JournalAudit['action'],
              actor: decodeActor(actor),
              ...(typeof auditResourceId === 'string' ? { resourceId: auditResourceId } : {}),
            },
          }
        : {}),
      ...(typeof keyDigest === 'string' ? { idempotencyFingerprint: keyDigest } : {}),
    };
  },
};

export const transactionCodec = {
  toItem(record: TransactionRecord): Item {
    return journalCodec.toItem(record as unknown as JournalRecord);
  },
  /** The payment a journal record holds; undefined for another entity in the slot (a stored answer). */
  fromItem(item: Item): Transaction {
    return transactionOf(journalCodec.fromItem(item));
  },
};

/** What each index of TRANSACTION items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const TRANSACTION_INDEXES = {
  TRANSACTION: {
    GSI2: 'journal records by paying (debited) wallet: statements and payments of a wallet',
    GSI3: 'journal records by receiving (credited) wallet: statements and payments of a wallet',
  },
} as const satisfies IndexUsage;
