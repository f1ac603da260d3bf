import type { DisputeChange } from '../../shared/domain/disputes/changes.js';
import { DISPUTE_STATES } from '../../shared/domain/disputes/dispute-states.js';
import type { DisputeListFilter, DisputeStore } from '../../shared/domain/disputes/ports.js';
import type { Dispute, FundsRefusals } from '../../shared/domain/disputes/types.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { OrganizationScope } from '../../shared/domain/tenancy.js';
import { createMemoryMoneyTable, newestFirst } from './memory-money-table.js';
import { createMemoryPaymentStore } from './memory-payment-store.js';

const DISPUTE_CHANGES: readonly string[] = [
  'putDispute',
  'transitionDispute',
  'countFundsRefusal',
] satisfies DisputeChange['type'][];

/**
 * An in-memory DisputeStore over the shared money table (memory-money-table.ts), with the conditions
 * of dispute-writers.ts; test/contracts/dispute-store-contract.ts holds it to the DynamoDB store.
 * Main wallets are seeded by the test (`setMainWallet`: the organization area writes them).
 */
export function createMemoryDisputeStore() {
  const table = createMemoryMoneyTable({
    disputes: new Map<string, Dispute>(),
    fundsRefusals: new Map<string, FundsRefusals>(),
  });
  const payments = createMemoryPaymentStore(table);
  const mainWallets = new Map<string, string>();
  type Next = typeof table.items;

  function apply(next: Next, change: DisputeChange): void {
    if (change.type === 'countFundsRefusal') {
      const old = next.fundsRefusals.get(change.transactionId);
      if (old?.count !== change.previous?.count || old?.since !== change.previous?.since)
        throw new ApiError('CONCURRENT_UPDATE', 'Another opening of this payment was refused meanwhile; retry.');
      next.fundsRefusals.set(change.transactionId, change.refusals);
      return;
    }
    if (change.type === 'putDispute') {
      const { dispute } = change;
      if (next.disputes.has(dispute.id)) throw new Error(`DISPUTE#${dispute.id} already exists`);
      const payment = next.journal.get(dispute.transactionId);
      if (payment?.disputeId !== undefined)
        throw new ApiError('DISPUTE_EXISTS', undefined, { disputeId: payment.disputeId });
      if (!payment || payment.status !== 'POSTED' || payment.type !== 'PAYMENT')
        throw new ApiError('INVALID_STATE', `The payment is ${String(payment?.status ?? 'unknown')}.`, {
          status: payment?.status,
        });
      next.journal.set(payment.id, { ...payment, disputeId: dispute.id });
      next.disputes.set(dispute.id, dispute);
      return;
    }
    const old = next.disputes.get(change.disputeId);
    const transition = DISPUTE_STATES[change.trigger];
    if (!old) throw new ApiError('DISPUTE_NOT_FOUND');
    if (
      !(transition.from as readonly string[]).includes(old.status) ||
      (change.read !== undefined && change.read !== old.status)
    )
      throw new ApiError('INVALID_STATE', `The dispute is ${old.status}.`, { status: old.status });
    const { status: _ignored, ...fields } = change.set;
    next.disputes.set(old.id, { ...old, ...fields, status: transition.to });
  }

  const matches = (scope: OrganizationScope, filter: DisputeListFilter) => (dispute: Dispute) =>
    dispute.environment === scope.environment &&
    (filter.status === undefined || dispute.status === filter.status) &&
    ((dispute.organizationId === scope.organizationId &&
      (filter.walletId === undefined || dispute.payerWalletId === filter.walletId)) ||
      (dispute.respondentOrgId === scope.organizationId &&
        (filter.walletId === undefined || dispute.receivingWalletId === filter.walletId)));

  const store: DisputeStore = {
    getWallet: table.getWallet,
    getTransaction: payments.store.getTransaction,
    getIdempotencySlot: table.getIdempotencySlot,
    getMainWalletId: async (organizationId, environment) => mainWallets.get(`${organizationId}#${environment}`),
    commit: (changes) =>
      table.commit(changes, (next, change) => {
        if (!DISPUTE_CHANGES.includes(change.type)) return false;
        apply(next, change as DisputeChange);
        return true;
      }),
    getDispute: async (disputeId) => table.items.disputes.get(disputeId),
    getFundsRefusals: async (transactionId) => table.items.fundsRefusals.get(transactionId),
    listDisputes: async (scope, filter, count) =>
      [...table.items.disputes.values()].filter(matches(scope, filter)).sort(newestFirst).slice(0, count),
  };
  return {
    store,
    table,
    payments,
    setMainWallet: (scope: OrganizationScope, walletId: string) =>
      mainWallets.set(`${scope.organizationId}#${scope.environment}`, walletId),
  };
}
