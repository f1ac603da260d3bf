import { createHttpHandler } from '../../shared/http/middleware.js';
import { AUDIT_LOGS } from '../../shared/operations/audit-logs.js';
import { core } from '../../shared/runtime/core.js';
import { auditService } from '../../shared/runtime/services/audit.js';

export const handler = createHttpHandler(AUDIT_LOGS, core, () => ({ audit: auditService(core()) }));
