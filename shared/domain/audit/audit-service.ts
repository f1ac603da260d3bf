import { scopeOf } from '../access.js';
import { validationError } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import type { AuditQuery, AuditStore } from './ports.js';
import type { RequestContext } from '../tenancy.js';
import type { AuditEntry, Page, PageRequest } from '../types.js';

export interface AuditFilters {
  action?: string | undefined;
  resource?: string | undefined;
  actorId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * ISO 8601 date or date-time (with Z or an offset), normalized to the stored form (UTC with
 * milliseconds). A day or time that does not exist (2026-02-30, 25:00) is refused, not rolled over.
 */
function instant(value: string | undefined, field: string, endOfDay = false): string | undefined {
  if (value === undefined) return undefined;
  const invalid = () => validationError(field, 'must be an ISO 8601 date or date-time such as 2026-11-21T10:00:00Z');
  const match = ISO_INSTANT.exec(value);
  if (!match) throw invalid();
  const [, year, month, day, hour = '0', minute = '0', second = '0'] = match.map((part) => part ?? undefined);
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const calendar = new Date(Date.UTC(y, m - 1, d));
  const realDay = calendar.getUTCFullYear() === y && calendar.getUTCMonth() === m - 1 && calendar.getUTCDate() === d;
  if (!realDay || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) throw invalid();
  if (match[4] === undefined)
    return endOfDay ? `${year}-${month}-${day}T23:59:59.999Z` : `${year}-${month}-${day}T00:00:00.000Z`;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalid();
  return new Date(time).toISOString();
}

/** The audit log (interface-spec 4.10): newest first; wallet-scoped keys see only their wallet's entries. */
export function createAuditService(deps: ServiceDeps<AuditStore>) {
  async function list(ctx: RequestContext, filters: AuditFilters, page: PageRequest): Promise<Page<AuditEntry>> {
    const scope = scopeOf(ctx.principal);
    const from = instant(filters.from, 'from');
    // A date-only upper bound covers that whole day.
    const to = instant(filters.to, 'to', true);
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
