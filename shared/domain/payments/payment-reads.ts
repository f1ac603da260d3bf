import { loadAccessibleWallet, scopeOf } from '../access.js';
import { ApiError, notFound } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest, Transaction } from '../types.js';
import type { PaymentStore, TransactionFilter } from './ports.js';

/**
 * The receiving organization (of another organization's payment) sees it once money moved:
 * POSTED or REVERSED. The payer's approval workflow (QUEUED, REJECTED) and failures stay the payer's.
 */
const visibleToPayee = (transaction: Transaction, organizationId: string) =>
  transaction.organizationId === organizationId || transaction.status === 'POSTED' || transaction.status === 'REVERSED';

/** Reading payments: one payment (`get`, as either side sees it) and a page of them (`list`). */
export function createPaymentReads({ store }: ServiceDeps<PaymentStore>) {
  /** Visible to the paying organization and to the receiving one. */
  async function get(ctx: RequestContext, transactionId: string): Promise<Transaction> {
    const scope = scopeOf(ctx.principal);
    const transaction = await store.getTransaction(transactionId);
    const visible =
      transaction &&
      (transaction.organizationId === scope.organizationId ||
        transaction.payeeOrganizationId === scope.organizationId) &&
      visibleToPayee(transaction, scope.organizationId) &&
      (ctx.principal.walletId === null ||
        ctx.principal.walletId === transaction.from ||
        ctx.principal.walletId === transaction.to);
    if (!visible) throw notFound('TRANSACTION_NOT_FOUND', transactionId);
    if (transaction.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return transaction;
  }

  async function list(ctx: RequestContext, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>> {
    const scope = scopeOf(ctx.principal);
    // A wallet filter names a wallet the key may see (other organizations' wallets answer 404).
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    if (walletId !== undefined && walletId !== ctx.principal.walletId)
      await loadAccessibleWallet(store, ctx.principal, walletId);
    const found = await store.listTransactions(scope.organizationId, scope.environment, { ...filter, walletId }, page);
    return { ...found, items: found.items.filter((transaction) => visibleToPayee(transaction, scope.organizationId)) };
  }

  return { get, list };
}

export type PaymentReads = ReturnType<typeof createPaymentReads>;
