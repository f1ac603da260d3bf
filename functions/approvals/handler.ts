import { presentApproval } from '../../shared/http/presenters.js';
import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { pageRequestOf, pageResponse } from '../../shared/http/pagination.js';
import { ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { approveBody, listApprovalsQuery, rejectBody } from './schemas.js';

const approvals = () => container().services.approvals;

export const handler = createHttpHandler(
  'approvals',
  {
    listApprovals: operation({
      query: listApprovalsQuery,
      run: async ({ auth, query, routeKey }) => {
        const cursors = await container().cursors();
        const binding = `${routeKey}|${auth.principal.keyId}|${query.status ?? ''}|${query.walletId ?? ''}`;
        const page = await approvals().list(auth, { status: query.status, walletId: query.walletId }, pageRequestOf(cursors, query, binding));
        return ok(pageResponse(cursors, page, binding, presentApproval));
      },
    }),
    getApproval: operation({ run: async ({ auth, params }) => ok(presentApproval(await approvals().get(auth, params.id!))) }),
    approveApproval: operation({ body: approveBody, run: async ({ auth, params, body }) => ok(presentApproval(await approvals().approve(auth, params.id!, body.note))) }),
    rejectApproval: operation({ body: rejectBody, run: async ({ auth, params, body }) => ok(presentApproval(await approvals().reject(auth, params.id!, body.reason))) }),
  },
  container,
);
