import type { DashboardAnswer, DashboardRequest, DashboardRoute } from '../../context.js';
import { agentAction } from './agent-actions.js';
import { agentDetail } from './agent-detail.js';
import { agentsList, createAgent, newAgentPage } from './agents.js';
import { approvalDetail, decideApproval } from './approval-detail.js';
import { approvalsInbox, approvalsPoll } from './approvals.js';
import { overviewPage } from './overview.js';
import { walletDetail, walletsList, walletStatementCsv } from './wallets.js';
import { bulkApprove } from './approvals-bulk.js';

type Handler = (request: DashboardRequest, params: string[]) => Promise<DashboardAnswer>;

/** A route answering GET and POST by their handlers (405 for other methods). */
function route(pattern: RegExp, handlers: { GET?: Handler; POST?: Handler }): DashboardRoute {
  return {
    pattern,
    serve(request, params) {
      const handler = handlers[request.method as 'GET' | 'POST'];
      if (handler) return handler(request, params);
      return Promise.resolve({
        status: 405,
        contentType: 'text/plain; charset=utf-8',
        body: 'Method not allowed',
        headers: { Allow: Object.keys(handlers).join(', ') },
      });
    },
  };
}

const ID = '([A-Za-z0-9_]{1,80})';

/** The work pages' routes (see shared/dashboard/route-table.ts): overview, approvals, agents, wallets. */
export const WORK_ROUTES: readonly DashboardRoute[] = [
  route(/^\/dashboard\/?$/, { GET: overviewPage }),
  route(/^\/dashboard\/approvals$/, { GET: approvalsInbox }),
  route(/^\/dashboard\/approvals\/poll$/, { GET: approvalsPoll }),
  route(/^\/dashboard\/approvals\/bulk$/, { POST: bulkApprove }),
  route(new RegExp(`^/dashboard/approvals/${ID}$`), {
    GET: (request, [id]) => approvalDetail(request, id!),
    POST: (request, [id]) => decideApproval(request, id!),
  }),
  route(/^\/dashboard\/agents$/, { GET: agentsList }),
  route(/^\/dashboard\/agents\/new$/, { GET: (request) => newAgentPage(request), POST: createAgent }),
  route(new RegExp(`^/dashboard/agents/${ID}$`), {
    GET: (request, [id]) => agentDetail(request, id!),
    POST: (request, [id]) => agentAction(request, id!),
  }),
  route(/^\/dashboard\/wallets$/, { GET: walletsList }),
  route(new RegExp(`^/dashboard/wallets/${ID}$`), { GET: (request, [id]) => walletDetail(request, id!) }),
  route(new RegExp(`^/dashboard/wallets/${ID}/statement\\.csv$`), {
    GET: (request, [id]) => walletStatementCsv(request, id!),
  }),
];
