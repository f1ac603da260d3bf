import * as z from 'zod/mini';
import type { AuditActorType, AuditEntry } from '../types.js';
import { AUDIT_ACTIONS } from './actions.js';
import { enumOf, id, lazy, nextCursorPageOf, record, text, timestamp, view } from '../views.js';
import { everyOf } from '../enums.js';

export const AUDIT_ACTOR_TYPES = everyOf<AuditActorType>()(['API_KEY', 'USER', 'SYSTEM']);

export const auditEntryView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('auditLog', 'Audit entry id.'),
      organizationId: id('organization', 'Organization the entry belongs to.'),
      actorType: enumOf(
        AUDIT_ACTOR_TYPES,
        'Who acted: API_KEY (a request made with a key), USER, or SYSTEM (a scheduled job, e.g. approval expiry).',
      ),
      actorId: text(
        'Id of the actor: the API key id (`key_...`) for API_KEY, the job name (e.g. `approval-expiry`) for SYSTEM.',
      ),
      action: text(`What happened, as \`<resource>.<verb>\`: one of ${AUDIT_ACTIONS.join(', ')}.`),
      resource: text(
        'Kind of the resource acted on, e.g. `wallet`, `payment`, `policy`, `approval`, `api-key`, `organization`, `merchant`.',
      ),
      resourceId: text('Id of the resource acted on (a merchant domain for `merchant`).'),
      metadata: record(
        'Facts of the action, depending on `action` (e.g. `amount`, `currency`, `transactionId`, `recipientWalletId` for payments and fundings). Never contains secrets.',
      ),
      ipAddress: text('IP address the request came from.'),
      createdAt: timestamp('When the action happened (same transaction as the action itself).'),
    },
    'One entry of the audit log: an action that changed something, written in the same transaction as the change and never modified afterwards.',
    {
      id: 'log_lwcQr0IeyvOJ7TXxLxe02rdh',
      organizationId: 'org_ipK5yfL5D6aVwx00GZAMdBz0',
      actorType: 'API_KEY',
      actorId: 'key_8Ej03yTwZN6jwUC3a19fdOHK',
      action: 'wallet.fund',
      resource: 'wallet',
      resourceId: 'wal_sbdFwe1fHYc4MU7IrQ3n5lUz',
      metadata: { amount: '100.00', currency: 'USD', transactionId: 'txn_2wHYq8yGFiJin01BVhz8nQja' },
      ipAddress: '203.0.113.24',
      createdAt: '2026-03-14T09:41:07.318Z',
    },
  ),
);
export type AuditEntryView = z.infer<typeof auditEntryView>;

/** Wire shape of interface-spec 2.11 (the wallet index attribute stays inside). */
export function presentAuditEntry(entry: AuditEntry): AuditEntryView {
  return {
    id: entry.id,
    organizationId: entry.organizationId,
    actorType: entry.actorType,
    actorId: entry.actorId,
    action: entry.action,
    resource: entry.resource,
    resourceId: entry.resourceId,
    metadata: entry.metadata,
    ipAddress: entry.ipAddress,
    createdAt: entry.createdAt,
  };
}

export const auditLogPageView = /* @__PURE__ */ lazy(() =>
  nextCursorPageOf(
    auditEntryView,
    'A page of the audit log, newest first, shaped like every list (`cursor` null on the last page); `nextCursor` repeats the cursor for older clients and is deprecated.',
  ),
);
