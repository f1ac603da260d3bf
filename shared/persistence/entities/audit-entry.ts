import type { Environment } from '../../domain/tenancy.js';
import type { AuditEntry } from '../../domain/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';

export const AUDIT_ENTRY_ENTITY = 'AUDIT_ENTRY';

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
  byAction: (organizationId: string, environment: Environment, action: string) => `AUDIT#${organizationId}#${environment}#ACTION#${action}`,
  byResource: (organizationId: string, environment: Environment, resourceId: string) => `AUDIT#${organizationId}#${environment}#RESOURCE#${resourceId}`,
  byActor: (organizationId: string, environment: Environment, actorId: string) => `AUDIT#${organizationId}#${environment}#ACTOR#${actorId}`,
  byWallet: (organizationId: string, environment: Environment, walletId: string) => `AUDIT#${organizationId}#${environment}#WALLET#${walletId}`,
  sort: (createdAt: string, id: string) => `${createdAt}#${id}`,
  /** Sort keys from an instant on (inclusive). */
  sortFrom: (from: string) => from,
  /** Sort keys up to an instant, that instant included (every id sorts below U+FFFF). */
  sortTo: (to: string) => `${to}#\uffff`,
};

export const auditEntryCodec = {
  toItem(entry: AuditEntry): Item {
    const { organizationId: org, environment: env } = entry;
    const sort = auditEntryKeys.sort(entry.createdAt, entry.id);
    return {
      ...auditEntryKeys.primary(entry),
      GSI1PK: auditEntryKeys.byAction(org, env, entry.action),
      GSI1SK: sort,
      GSI2PK: auditEntryKeys.byResource(org, env, entry.resourceId),
      GSI2SK: sort,
      GSI3PK: auditEntryKeys.byActor(org, env, entry.actorId),
      GSI3SK: sort,
      ...(entry.walletId ? { GSI4PK: auditEntryKeys.byWallet(org, env, entry.walletId), GSI4SK: sort } : {}),
      entityType: AUDIT_ENTRY_ENTITY,
      ...entry,
    };
  },
  fromItem(item: Item): AuditEntry {
    return recordOf(item) as unknown as AuditEntry;
  },
};
