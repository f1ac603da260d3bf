import type { AuditChange } from '../../domain/audit/ports.js';
import { auditEntryCodec } from '../entities/audit-entry.js';
import { outboxEventCodec } from '../entities/outbox-event.js';
import { put, type ChangeWriters } from '../write-builders.js';

export const auditWriters: ChangeWriters<AuditChange> = {
  audit: (tableName, change) => [put(tableName, auditEntryCodec.toItem(change.entry))],
  event: (tableName, change) => [put(tableName, outboxEventCodec.toItem(change.event))],
};
