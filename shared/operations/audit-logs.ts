import * as z from 'zod/mini';
import type { AuditService } from '../domain/audit/audit-service.js';
import { presentAuditEntry } from '../domain/audit/audit-view.js';
import { HINTS, defineGroup } from './define.js';
import { text } from './fields.js';
import { listOperation } from './list.js';

export interface AuditLogsServices {
  audit: AuditService;
}

const list = listOperation<AuditLogsServices>();
const filter = (max: number, description: string) => z.optional(text(max, description, { min: 1 }));
const instant = (description: string) =>
  z.optional(text(64, `${description} ISO 8601 date or date-time (Z or an offset).`));

export const AUDIT_LOGS = defineGroup<AuditLogsServices>()('audit-logs', {}, [
  list({
    name: 'listAuditLogs',
    summary: 'Query the audit log',
    description:
      "The organization's immutable audit log, newest first: who did what to which resource, from which IP. An agent key sees only its wallet's entries.",
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/audit-logs', status: 200 },
    mcp: { tool: 'query_audit_logs', hints: HINTS.read },
    filters: () => ({
      action: filter(100, 'Only entries of this action, e.g. payment.created.'),
      resource: filter(300, 'Only entries about this resource id.'),
      actorId: filter(300, 'Only entries by this actor (an API key id).'),
      from: instant('Only entries at or after this time.'),
      to: instant('Only entries at or before this time (a date includes the whole day).'),
    }),
    pageShape: 'standard-and-next-cursor',
    output: 'auditLogPageView',
    errors: [],
    list: ({ services, auth, query }, page) => services.audit.list(auth, query, page),
    present: presentAuditEntry,
  }),
]);
