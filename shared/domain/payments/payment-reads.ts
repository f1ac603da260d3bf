import { loadAccessibleWallet, scopeOf } from '../access.js';
import { ApiError, notFound, type ErrorDetails } from '../errors.js';
import type { ServiceDeps } from '../ports.js';
import type { Principal, RequestContext } from '../tenancy.js';
import type { Page, PageRequest, Transaction } from '../types.js';
import type { PaymentStore, TransactionFilter } from './ports.js';

/**
 * The receiving organization (of another organization's payment) sees it once money moved:
 * POSTED or REVERSED. The payer's approval workflow (QUEUED, REJECTED) and failures stay the payer's.
 */
const visibleToPayee = (transaction: Transaction, organizationId: string) =>
  transaction.organizationId === organizationId || transaction.status === 'POSTED' || transaction.status === 'REVERSED';

/**
 * A payment as a key may read it (also what a dispute's opening looks up): the paying or the
 * receiving organization's (the receiving one once money moved), for an agent key one of its
 * wallet's; else TRANSACTION_NOT_FOUND. The caller's own in the other environment: ENVIRONMENT_MISMATCH.
 */
export function visiblePayment(
  principal: Principal,
  transaction: Transaction | undefined,
  transactionId: string,
  details?: ErrorDetails,
): Transaction {
  const scope = scopeOf(principal);
  const visible =
    transaction &&
    (transaction.organizationId === scope.organizationId || transaction.payeeOrganizationId === scope.organizationId) &&
    visibleToPayee(transaction, scope.organizationId) &&
    (principal.walletId === null || principal.walletId === transaction.from || principal.walletId === transaction.to);
  if (!visible) throw notFound('TRANSACTION_NOT_FOUND', transactionId, details);
  if (transaction.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
  return transaction;
}

/** Reading payments: one payment (`get`, as either side sees it) and a page of them (`list`). */
export function createPaymentReads({ store }: ServiceDeps<PaymentStore>) {
  /** Visible to the paying organization and to the receiving one. */
  async function get(ctx: RequestContext, transactionId: string): Promise<Transaction> {
    return visiblePayment(ctx.principal, await store.getTransaction(transactionId), transactionId);
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
