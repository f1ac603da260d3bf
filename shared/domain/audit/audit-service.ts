import { scopeOf } from '../access.js';
import { validationError } from '../errors.js';
import type { AuditQuery, ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import type { AuditEntry, Page, PageRequest } from '../types.js';

export interface AuditFilters {
  action?: string | undefined;
  resource?: string | undefined;
  actorId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** ISO 8601 date or date-time, normalized to the stored form (UTC with milliseconds). */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
  const time = Date.parse(value);
  if (!iso.test(value) || Number.isNaN(time)) throw validationError(field, 'must be an ISO 8601 date or date-time such as 2026-11-21T10:00:00Z');
  return new Date(time).toISOString();
}

/** The audit log (interface-spec 4.10): newest first; wallet-scoped keys see only their wallet's entries. */
export function createAuditService(deps: ServiceDeps) {
  async function list(ctx: RequestContext, filters: AuditFilters, page: PageRequest): Promise<Page<AuditEntry>> {
    const scope = scopeOf(ctx.principal);
    const from = instant(filters.from, 'from');
    // A date-only upper bound covers that whole day.
    const to = filters.to !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(filters.to) ? `${filters.to}T23:59:59.999Z` : instant(filters.to, 'to');
    if (from !== undefined && to !== undefined && from > to) throw validationError('from', 'must not be after to');
    const query: AuditQuery = {
      action: filters.action,
      resourceId: filters.resource,
      actorId: filters.actorId,
      walletId: ctx.principal.walletId ?? undefined,
      from,
      to,
    };
    return deps.store.listAuditEntries(scope.organizationId, scope.environment, query, page);
  }

  return { list };
}

export type AuditService = ReturnType<typeof createAuditService>;
