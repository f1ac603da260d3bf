import type { ApprovalStore } from '../../shared/domain/approvals/ports.js';
import { codeUnitOrder, newestFirst, pageOf, type MemoryMoneyTable } from './memory-money-table.js';
import type { createMemoryPaymentStore } from './memory-payment-store.js';

/**
 * An in-memory ApprovalStore over the memory payment store's table (its transactions, wallet
 * snapshots and approvals). `commit` defaults to the money table's; a test whose approvals decide
 * another area's thing (an invoice, a payment link) passes one that also applies that area's transition.
 */
export function createMemoryApprovalStore(
  memory: ReturnType<typeof createMemoryPaymentStore>,
  commit: ApprovalStore['commit'] = (changes) => memory.table.commit(changes),
): ApprovalStore {
  const table: MemoryMoneyTable = memory.table;
  const approvals = () => [...table.items.approvals.values()];
  return {
    getTransaction: memory.store.getTransaction,
    getWalletSnapshot: memory.store.getWalletSnapshot,
    commit,
    getApproval: async (approvalId) => table.items.approvals.get(approvalId),
    async listApprovals(organizationId, environment, filter, page) {
      const found = approvals()
        .filter((approval) => approval.organizationId === organizationId && approval.environment === environment)
        .filter((approval) => filter.status === undefined || approval.status === filter.status)
        .filter((approval) => filter.walletId === undefined || approval.walletId === filter.walletId)
        .sort(newestFirst);
      return pageOf(found, page);
    },
    async listExpiredApprovals(now, limit) {
      return approvals()
        .filter((approval) => approval.status === 'PENDING' && approval.expiresAt < now.toISOString())
        .sort((a, b) => codeUnitOrder(a.expiresAt, b.expiresAt))
        .slice(0, limit);
    },
  };
}
