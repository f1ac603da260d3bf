import { presentAuditEntry } from '../../shared/http/presenters.js';
import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { pageRequestOf } from '../../shared/http/pagination.js';
import { ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { listAuditLogsQuery } from './schemas.js';

export const handler = createHttpHandler(
  'audit-logs',
  {
    listAuditLogs: operation({
      query: listAuditLogsQuery,
      run: async ({ auth, query, routeKey }) => {
        const cursors = await container().cursors();
        const { limit: _limit, cursor: _cursor, ...filters } = query;
        const binding = `${routeKey}|${auth.principal.keyId}|${JSON.stringify(filters)}`;
        const page = await container().services.audit.list(auth, filters, pageRequestOf(cursors, query, binding));
        // Audit logs answer `data` and `nextCursor` (absent at the end), interface-spec 4.10.
        return ok({ data: page.items.map(presentAuditEntry), ...(page.lastKey ? { nextCursor: cursors.encode(page.lastKey, binding) } : {}) });
      },
    }),
  },
  container,
);
