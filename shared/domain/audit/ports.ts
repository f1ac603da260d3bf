import type { Environment } from '../tenancy.js';
import type { AuditEntry, OutboxEvent, Page, PageRequest } from '../types.js';

export type AuditChange =
  | { type: 'audit'; entry: AuditEntry }
  /** An outbox event, published from the table's stream. */
  | { type: 'event'; event: OutboxEvent };

/** Filters of GET /v1/audit-logs; each combination is served by one index query. */
export interface AuditQuery {
  action?: string | undefined;
  resourceId?: string | undefined;
  actorId?: string | undefined;
  /** Set for wallet-scoped keys: only entries of that wallet. */
  walletId?: string | undefined;
  /** Inclusive ISO 8601 bounds. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface AuditStore {
  listAuditEntries(
    organizationId: string,
    environment: Environment,
    query: AuditQuery,
    page: PageRequest,
  ): Promise<Page<AuditEntry>>;
}
