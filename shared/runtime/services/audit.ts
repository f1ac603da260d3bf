import { createAuditService, type AuditService } from '../../domain/audit/audit-service.js';
import type { AuditStore } from '../../domain/audit/ports.js';
import { createAuditStore } from '../../persistence/audit-store.js';
import type { Core } from '../core.js';

export function auditService(
  core: Core,
  { store = createAuditStore(core.table) }: { store?: AuditStore } = {},
): AuditService {
  return createAuditService({ ...core.deps, store });
}
