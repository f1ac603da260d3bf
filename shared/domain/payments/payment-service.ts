import { presentApproval } from '../approvals/approval-view.js';
import { assertAccessible, assertPayable, loadAccessibleWallet, scopeOf } from '../access.js';
import { AUDIT } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import { ApiError, toEnvelope } from '../errors.js';
import { fingerprintOf, idempotencyChange, resolveIdempotencyKey, runIdempotent, storedReplay, storeResponse, type IdempotentResponse } from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import { evaluatePolicies } from '../policies/policy-rules.js';
import type { ServiceDeps } from '../ports.js';
import type { WalletSnapshot } from '../wallets/ports.js';
import type { PaymentStore, TransactionFilter } from './ports.js';
import { TRANSACTION_STATES } from './transaction-states.js';
import { canTransition } from '../state-table.js';
import type { OrganizationScope, RequestContext } from '../tenancy.js';
import type { Approval, Page, PageRequest, Transaction, Wallet } from '../types.js';
import { approvalExpiryMs } from '../approvals/approval-rules.js';
import { paymentPostingChanges } from './payment-posting.js';
import { presentPayment, type PaymentView } from './payment-view.js';

export const MERCHANT_PREFIX = 'merchant:';
export const MAX_BATCH_SIZE = 100;

export interface CreatePaymentInput {
  from: string;
  to: string;
  amount: unknown;
  description?: string | undefined;
  idempotencyKey?: string | undefined;
}

export interface BatchItemResult {
  index: number;
  status: number;
  payment?: unknown;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

/** Payments between wallets (interface-spec 4.2, decisions.md section 3). */
export function createPaymentService(deps: ServiceDeps<PaymentStore>) {
  const { store, clock, ids } = deps;

  async function resolvePayee(scope: OrganizationScope, to: string): Promise<{ wallet: Wallet; merchant?: string }> {
    if (!to.startsWith(MERCHANT_PREFIX)) return { wallet: assertPayable(scope, await store.getWallet(to)) };
    const domain = to.slice(MERCHANT_PREFIX.length).toLowerCase();
    const merchant = await store.getMerchant(scope.environment, domain);
    if (!merchant) throw new ApiError('MERCHANT_NOT_FOUND', `No merchant ${domain}.`, { merchant: domain });
    if (merchant.status === 'SUSPENDED') throw new ApiError('MERCHANT_SUSPENDED', `The merchant ${domain} is suspended.`, { merchant: domain });
    if (!merchant.closedLoop) throw new ApiError('CLOSED_LOOP_UNAVAILABLE', `The merchant ${domain} does not accept closed-loop payments.`, { merchant: domain });
    return { wallet: assertPayable(scope, await store.getWallet(merchant.walletId)), merchant: domain };
  }

  /** Reads a payment needs before its transaction; a batch shares them across its items. */
  interface Lookups {
    snapshot(walletId: string): Promise<WalletSnapshot | undefined>;
    payee(scope: OrganizationScope, to: string): Promise<{ wallet: Wallet; merchant?: string }>;
  }

  const freshLookups: Lookups = { snapshot: (walletId) => store.getWalletSnapshot(walletId), payee: resolvePayee };

  /**
   * Within one batch the payer's policies and the payee are read once. That is safe because the
   * posting transaction re-checks everything that can change meanwhile (status, environment,
   * funds, period counters) as conditions.
   */
  function batchLookups(): Lookups {
    const snapshots = new Map<string, Promise<WalletSnapshot | undefined>>();
    const payees = new Map<string, Promise<{ wallet: Wallet; merchant?: string }>>();
    const memo = <T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>) => {
      let value = cache.get(key);
      if (!value) {
        value = load();
        cache.set(key, value);
        value.catch(() => cache.delete(key));
      }
      return value;
    };
    return {
      snapshot: (walletId) => memo(snapshots, walletId, () => store.getWalletSnapshot(walletId)),
      payee: (scope, to) => memo(payees, to, () => resolvePayee(scope, to)),
    };
  }

  async function create(ctx: RequestContext, input: CreatePaymentInput, lookups: Lookups = freshLookups): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseAmount(input.amount);
    const amountText = formatAmount(amount);
    // The caller's wallet scope is part of the parameters: one agent's key never replays another's payment.
    const fingerprint = fingerprintOf('payment.create', { from: input.from, to: input.to, amount: amountText, description: input.description, scope: ctx.principal.walletId ?? 'organization' });
    return runIdempotent(store, scope, input.idempotencyKey, fingerprint, clock.now(), async () => {
      if (input.from === input.to) throw new ApiError('SELF_PAYMENT', 'A payment needs two different wallets.');
      const snapshot = await lookups.snapshot(input.from);
      const payer = assertAccessible(ctx.principal, snapshot?.wallet);
      const payee = await lookups.payee(scope, input.to);
      if (payee.wallet.id === payer.id) throw new ApiError('SELF_PAYMENT', 'A payment needs two different wallets.');
      // Evaluation order (decisions.md section 3): frozen -> deny rules -> approval -> funds.
      if (payer.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId: payer.id });
      if (payee.wallet.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId: payee.wallet.id });
      const now = clock.now();
      const decision = evaluatePolicies(snapshot!.policies, snapshot!.counters, { walletId: payer.id, to: payee.wallet.id, toAliases: [input.to], amount, at: now });
      const createdAt = now.toISOString();
      const transaction: Transaction = {
        id: ids('transaction'),
        type: 'PAYMENT',
        ...scope,
        from: payer.id,
        to: payee.wallet.id,
        payeeOrganizationId: payee.wallet.organizationId,
        amount: amountText,
        fee: '0.00',
        currency: 'USD',
        status: 'POSTED',
        createdAt,
        requestedByKeyId: ctx.principal.keyId,
        ...(input.description ? { description: input.description } : {}),
        ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
        ...(payee.merchant ? { merchant: payee.merchant } : {}),
      };
      const keyChange = (status: number, body: unknown) =>
        input.idempotencyKey ? [idempotencyChange(scope, input.idempotencyKey, fingerprint, status, body, now)] : [];

      if (decision.kind === 'APPROVAL') {
        const approval: Approval = {
          id: ids('approval'),
          ...scope,
          walletId: payer.id,
          status: 'PENDING',
          payment: { from: payer.id, to: payee.wallet.id, amount: amountText, ...(input.description ? { description: input.description } : {}), ...(payee.merchant ? { merchant: payee.merchant } : {}) },
          transactionId: transaction.id,
          reason: decision.reason,
          requestedByKeyId: ctx.principal.keyId,
          createdAt,
          expiresAt: new Date(now.getTime() + approvalExpiryMs(scope.environment, deps.timeScale)).toISOString(),
        };
        const queued: Transaction = { ...transaction, status: 'QUEUED', approvalId: approval.id };
        const body = {
          error: {
            code: 'APPROVAL_REQUIRED',
            message: 'A spend policy requires human approval; the payment is queued and posts once approved.',
            details: { approvalId: approval.id, transactionId: queued.id, expiresAt: approval.expiresAt },
          },
        };
        await store.commit([
          { type: 'createTransaction', transaction: queued },
          { type: 'createApproval', approval },
          ...keyChange(202, body),
          auditChange({ ...scope, actor: ctx.actor, action: AUDIT.payment.create, resource: 'payment', resourceId: queued.id, walletId: payer.id, metadata: { transactionId: queued.id, amount: amountText, currency: 'USD', recipientWalletId: payee.wallet.id, status: 'QUEUED', approvalId: approval.id }, createdAt }, ids),
          eventChange({ ...scope, type: 'approval.requested', data: presentApproval(approval), createdAt }, ids),
        ]);
        return { status: 202, body, replayed: false };
      }

      const posted: Transaction = { ...transaction, postedAt: createdAt };
      const body = presentPayment(posted);
      await store.commit([
        ...paymentPostingChanges({ transaction: posted, periodLimits: decision.periodLimits, record: 'create', actor: ctx.actor, ids, auditAction: AUDIT.payment.create }),
        ...keyChange(200, body),
      ]);
      return { status: 200, body, replayed: false };
    });
  }

  /** Visible to the paying organization and to the receiving one. */
  async function get(ctx: RequestContext, transactionId: string): Promise<Transaction> {
    const scope = scopeOf(ctx.principal);
    const transaction = await store.getTransaction(transactionId);
    const visible =
      transaction &&
      (transaction.organizationId === scope.organizationId || transaction.payeeOrganizationId === scope.organizationId) &&
      (ctx.principal.walletId === null || ctx.principal.walletId === transaction.from || ctx.principal.walletId === transaction.to);
    if (!visible) throw new ApiError('TRANSACTION_NOT_FOUND');
    if (transaction.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return transaction;
  }

  async function list(ctx: RequestContext, filter: TransactionFilter, page: PageRequest): Promise<Page<Transaction>> {
    const scope = scopeOf(ctx.principal);
    // A wallet filter names a wallet the key may see (other organizations' wallets answer 404).
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    if (walletId !== undefined && walletId !== ctx.principal.walletId) await loadAccessibleWallet(store, ctx.principal, walletId);
    return store.listTransactions(scope.organizationId, scope.environment, { ...filter, walletId }, page);
  }

  /**
   * Posts the mirror transaction; the original becomes REVERSED in the same transaction, so a
   * second reversal finds it no longer POSTED (REVERSAL_NOT_ALLOWED) and nothing moves twice.
   */
  async function reverse(ctx: RequestContext, transactionId: string, idempotencyKey: string | undefined): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const fingerprint = fingerprintOf('payment.reverse', { transactionId, scope: ctx.principal.walletId ?? 'organization' });
    return runIdempotent(store, scope, idempotencyKey, fingerprint, clock.now(), async () => {
      const original = await get(ctx, transactionId);
      const receiving = original.payeeOrganizationId === scope.organizationId;
      const payingOwnsBoth = original.organizationId === scope.organizationId && original.payeeOrganizationId === scope.organizationId;
      // A wallet-scoped key only ever gives back money its own wallet received.
      const scopedToPayee = ctx.principal.walletId === null || ctx.principal.walletId === original.to;
      if ((!receiving && !payingOwnsBoth) || !scopedToPayee) {
        throw new ApiError('REVERSAL_NOT_ALLOWED', 'Only the receiving organization can reverse this payment.');
      }
      if (original.type !== 'PAYMENT' || !canTransition(TRANSACTION_STATES, original.status, 'reverse')) {
        throw new ApiError('REVERSAL_NOT_ALLOWED', `A ${original.status} ${original.type.toLowerCase()} cannot be reversed.`, { status: original.status });
      }
      const now = clock.now();
      const at = now.toISOString();
      const reversal: Transaction = {
        id: ids('transaction'),
        type: 'REVERSAL',
        organizationId: original.payeeOrganizationId ?? original.organizationId,
        environment: original.environment,
        from: original.to,
        to: original.from,
        payeeOrganizationId: original.organizationId,
        amount: original.amount,
        fee: '0.00',
        currency: 'USD',
        status: 'POSTED',
        reversalOf: original.id,
        createdAt: at,
        postedAt: at,
        requestedByKeyId: ctx.principal.keyId,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      };
      const body = presentPayment(reversal);
      await store.commit([
        { type: 'setTransactionStatus', transactionId: original.id, trigger: 'reverse', fields: { reversedBy: reversal.id }, onMismatch: 'REVERSAL_NOT_ALLOWED' },
        ...paymentPostingChanges({ transaction: reversal, periodLimits: [], record: 'create', actor: ctx.actor, ids, auditAction: AUDIT.payment.reverse, auditResource: { resource: 'payment', resourceId: original.id } }),
        ...(idempotencyKey ? [idempotencyChange(scope, idempotencyKey, fingerprint, 200, body, now)] : []),
      ]);
      return { status: 200, body, replayed: false };
    });
  }

  /**
   * Each item runs on its own, with its own idempotency key (its own, or `<batch key>#<index>`).
   * With a batch key the whole answer is kept too: the same batch answers the same way again, and
   * the key with other items is IDEMPOTENCY_KEY_REUSE.
   */
  async function batch(ctx: RequestContext, items: CreatePaymentInput[], batchKey: string | undefined): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const now = clock.now();
    const fingerprint = fingerprintOf('payment.batch', { items: items.map(normalizedItem), scope: ctx.principal.walletId ?? 'organization' });
    const replay = batchKey ? await storedReplay(store, scope, batchKey, fingerprint, now) : undefined;
    if (replay) return replay;
    const results = await runBatch(ctx, items, batchKey);
    const response = batchResponse(results);
    return batchKey ? storeResponse(store, scope, batchKey, fingerprint, response, now) : response;
  }

  async function runBatch(ctx: RequestContext, items: CreatePaymentInput[], batchKey: string | undefined): Promise<BatchItemResult[]> {
    const results: BatchItemResult[] = [];
    const lookups = batchLookups();
    for (const [index, item] of items.entries()) {
      try {
        const idempotencyKey = resolveIdempotencyKey(item.idempotencyKey, undefined) ?? (batchKey ? `${batchKey}#${index}` : undefined);
        const response = await create(ctx, { ...item, idempotencyKey }, lookups);
        results.push({ index, status: response.status, ...(response.status === 200 ? { payment: response.body } : { error: (response.body as { error: BatchItemResult['error'] }).error }) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({ index, status: error.status, error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } });
      }
    }
    return results;
  }

  return { create, get, list, reverse, batch };
}

function normalizedItem(item: CreatePaymentInput) {
  let amount: string;
  try {
    amount = formatAmount(parseAmount(item.amount));
  } catch {
    amount = JSON.stringify(item.amount);
  }
  return { from: item.from, to: item.to, amount, description: item.description ?? null, idempotencyKey: item.idempotencyKey ?? null };
}

/** All posted: 200 with the payments; otherwise 207 BATCH_PARTIAL_FAILURE with every item's result. */
function batchResponse(results: BatchItemResult[]): IdempotentResponse {
  if (results.every((r) => r.status === 200)) return { status: 200, body: { data: results.map((r) => r.payment) }, replayed: false };
  const failed = results.filter((r) => r.status !== 200).length;
  const error = new ApiError('BATCH_PARTIAL_FAILURE', `${failed} of ${results.length} payments did not post.`, { results });
  return { status: error.status, body: toEnvelope(error), replayed: false };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
export type { PaymentView };
