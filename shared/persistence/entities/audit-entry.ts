import { createHash } from 'node:crypto';
import type { Environment } from '../../domain/tenancy.js';
import type { AuditEntry } from '../../domain/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';
import { shardedKey } from './shards.js';

export const AUDIT_ENTRY_ENTITY = 'AUDIT_ENTRY';

/** Characters of an index partition key's digest (base62, about 119 bits). */
const INDEX_DIGEST_LENGTH = 20;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The partition of one filter value of one organization environment, e.g. the entries of action
 * `payment.created` of org_X in SANDBOX: a digest of the four, so each of the four index keys of
 * an entry takes 24 bytes rather than 60 to 70, and the entry (written for every audited action)
 * stays under 1 KB: 1 write unit and 1 per index entry instead of 2 each. A query also filters
 * on the organization and environment, so even a digest collision can not show another
 * organization's entry.
 */
function indexPartition(
  kind: 'A' | 'R' | 'K' | 'W',
  organizationId: string,
  environment: Environment,
  value: string,
): string {
  let n = BigInt(`0x${createHash('sha256').update(`${organizationId}|${environment}|${kind}|${value}`).digest('hex')}`);
  let digest = '';
  for (let i = 0; i < INDEX_DIGEST_LENGTH; i++) {
    digest += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return `AU${kind}#${digest}`;
}

/**
 * An organization environment's entries in one partition, and one index per filter of
 * GET /v1/audit-logs, all sorted by `${createdAt}#${id}`: GSI1 by action, GSI2 by resource id,
 * GSI3 by actor, GSI4 by wallet (for wallet-scoped keys).
 */
export const auditEntryKeys = {
  partition: (organizationId: string, environment: Environment) => `AUDIT#${organizationId}#${environment}`,
  primary: (entry: Pick<AuditEntry, 'organizationId' | 'environment' | 'createdAt' | 'id'>): ItemKey => ({
    PK: auditEntryKeys.partition(entry.organizationId, entry.environment),
    SK: auditEntryKeys.sort(entry.createdAt, entry.id),
  }),
  byAction: (organizationId: string, environment: Environment, action: string) =>
    indexPartition('A', organizationId, environment, action),
  byResource: (organizationId: string, environment: Environment, resourceId: string) =>
    indexPartition('R', organizationId, environment, resourceId),
  byActor: (organizationId: string, environment: Environment, actorId: string) =>
    indexPartition('K', organizationId, environment, actorId),
  byWallet: (organizationId: string, environment: Environment, walletId: string) =>
    indexPartition('W', organizationId, environment, walletId),
  sort: (createdAt: string, id: string) => `${createdAt}#${id}`,
  /** Sort keys from an instant on (inclusive). */
  sortFrom: (from: string) => from,
  /** Sort keys up to an instant, that instant included (every id sorts below U+FFFF). */
  sortTo: (to: string) => `${to}#\uffff`,
};

export const auditEntryCodec = {
  /**
   * The entry's item on shard `shard` of its organization environment (entities/shards.ts): the
   * partition and the four index keys all take the shard's suffix; shard 0 is today's keys. The
   * projector shards the entries of movements; entries written in a change's transaction stay on 0.
   */
  toItem(entry: AuditEntry, shard = 0): Item {
    const { organizationId: org, environment: env } = entry;
    const sort = auditEntryKeys.sort(entry.createdAt, entry.id);
    const key = (base: string) => shardedKey(base, shard);
    return {
      PK: key(auditEntryKeys.partition(org, env)),
      SK: sort,
      GSI1PK: key(auditEntryKeys.byAction(org, env, entry.action)),
      GSI1SK: sort,
      GSI2PK: key(auditEntryKeys.byResource(org, env, entry.resourceId)),
      GSI2SK: sort,
      GSI3PK: key(auditEntryKeys.byActor(org, env, entry.actorId)),
      GSI3SK: sort,
      ...(entry.walletId ? { GSI4PK: key(auditEntryKeys.byWallet(org, env, entry.walletId)), GSI4SK: sort } : {}),
      entityType: AUDIT_ENTRY_ENTITY,
      ...entry,
    };
  },
  fromItem(item: Item): AuditEntry {
    return recordOf(item) as unknown as AuditEntry;
  },
};

/** What each index of AUDIT_ENTRY items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const AUDIT_ENTRY_INDEXES = {
  AUDIT_ENTRY: {
    GSI1: 'entries by action',
    GSI2: 'entries by resource id',
    GSI3: 'entries by actor',
    GSI4: 'entries by wallet (wallet-scoped keys)',
  },
} as const satisfies IndexUsage;
