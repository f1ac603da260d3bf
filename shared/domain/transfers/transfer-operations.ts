import Big from 'big.js';
import { assertAccessible, scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import { ApiError, notFound } from '../errors.js';
import type { PostingChange } from '../ledger/posting.js';
import {
  claimOf,
  fingerprintOf,
  runIdempotent,
  answerChange,
  type IdempotentResponse,
  type KeyClaim,
} from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import { canTransition } from '../state-table.js';
import type { Environment, RequestContext } from '../tenancy.js';
import type { Page, PageRequest, Wallet } from '../types.js';
import type { TransferFilter, TransferRail, TransferStore, TransferWorkflows } from './ports.js';
import {
  normalizedCounterparty,
  type ExternalTransferInput,
  type TransferCounterparties,
} from './transfer-counterparties.js';
import { internalPosting, withdrawalHold } from './transfer-postings.js';
import { assertDepositAmount, reconcileAfter, transferFeeOf, withdrawalRecipientOf } from './transfer-rules.js';
import { policyCheck } from './transfer-policy.js';
import { TRANSFER_STATES } from './transfer-states.js';
import { reloadTransfer, type TransferTransitions } from './transfer-transitions.js';
import { presentTransfer, type TransferView } from './transfer-view.js';
import type { Transfer, TransferCurrency } from './types.js';

export interface InternalTransferInput {
  fromWalletId: string;
  toWalletId: string;
  amount: string;
  description?: string | undefined;
}

export interface TransferOperationsOptions {
  rails: Record<Environment, TransferRail>;
  counterparties: TransferCounterparties;
  transitions: TransferTransitions;
  /** Starts the transfer workflow after a deposit or withdrawal commits. */
  workflows?: TransferWorkflows | undefined;
  log: Pick<Console, 'error'>;
}

/**
 * What clients do with transfers (interface-spec 4.5): read and list them, deposit and withdraw
 * through a rail (the transfer workflow takes it from there), move money between two wallets at
 * once, and cancel a PENDING deposit or withdrawal.
 */
export function createTransferOperations(deps: ServiceDeps<TransferStore>, options: TransferOperationsOptions) {
  const { store, clock, ids } = deps;
  const { rails, counterparties, transitions, log } = options;

  /** A transfer the caller may see: another organization's, or another wallet's for a scoped key, answers as absent. */
  async function get(ctx: RequestContext, transferId: string): Promise<Transfer> {
    const scope = scopeOf(ctx.principal);
    const transfer = await store.getTransfer(transferId);
    if (!transfer || transfer.organizationId !== scope.organizationId) throw notFound('TRANSFER_NOT_FOUND', transferId);
    const own = ctx.principal.walletId;
    if (own !== null && transfer.walletId !== own && transfer.toWalletId !== own)
      throw notFound('TRANSFER_NOT_FOUND', transferId);
    if (transfer.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return transfer;
  }

  async function list(
    ctx: RequestContext,
    filter: TransferFilter & { walletId?: string | undefined },
    page: PageRequest,
  ): Promise<Page<Transfer>> {
    const scope = scopeOf(ctx.principal);
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    const narrowed = { direction: filter.direction, status: filter.status };
    if (walletId === undefined) return store.listTransfers(scope, narrowed, page);
    const wallet = assertAccessible(ctx.principal, await store.getWallet(walletId), walletId);
    return store.listWalletTransfers(scope, wallet.id, narrowed, page);
  }

  function assertActive(wallet: Wallet): void {
    if (wallet.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId: wallet.id });
  }

  async function startWorkflow(transfer: Pick<Transfer, 'id' | 'organizationId' | 'environment'>): Promise<void> {
    if (!options.workflows) return;
    try {
      await options.workflows.start(transfer);
    } catch (error) {
      // The transfer is committed (INITIATED); a retry of the request with its idempotency key starts it again.
      log.error(`could not start the workflow of ${transfer.id}`, error);
    }
  }

  /** Runs a creation under its idempotency key: the first answer is stored with the transfer, in its transaction. */
  async function idempotent(
    ctx: RequestContext,
    operation: string,
    params: Record<string, unknown>,
    idempotencyKey: string | undefined,
    execute: (claim: { slotId: string; claim: KeyClaim } | undefined) => Promise<IdempotentResponse>,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const claim =
      idempotencyKey === undefined
        ? undefined
        : await claimOf(
            scope,
            idempotencyKey,
            fingerprintOf(operation, { ...params, scope: ctx.principal.walletId ?? 'organization' }),
          );
    const response = await runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      execute: (slotId, keyClaim) => execute(keyClaim ? { slotId, claim: keyClaim } : undefined),
    });
    if (response.replayed) {
      // The first request may have died before starting its workflow: starting it again is harmless.
      const first = response.body as Partial<TransferView> | undefined;
      if (first?.id && first.status === 'INITIATED') {
        const transfer = await store.getTransfer(first.id);
        if (transfer?.status === 'INITIATED') await startWorkflow(transfer);
      }
    }
    return response;
  }

  const answerOf = (
    slot: { slotId: string; claim: KeyClaim } | undefined,
    status: number,
    body: TransferView,
    now: Date,
  ) => (slot ? [answerChange(slot.slotId, slot.claim, status, body, now)] : []);

  const auditOf = (ctx: RequestContext, transfer: Transfer, action: AuditAction, at: string) =>
    auditChange(
      {
        organizationId: transfer.organizationId,
        environment: transfer.environment,
        actor: ctx.actor,
        action,
        resource: 'transfer',
        resourceId: transfer.id,
        walletId: transfer.walletId,
        metadata: {
          direction: transfer.direction,
          rail: transfer.rail,
          amount: transfer.amount,
          fee: transfer.fee,
          currency: transfer.currency,
          status: transfer.status,
        },
        createdAt: at,
      },
      ids,
    );

  /**
   * Commits a new transfer in one transaction: its money movement (none for a deposit), the
   * transfer, its audit entry and the key's answer; answers what the key will replay.
   */
  async function commitNew(
    ctx: RequestContext,
    action: AuditAction,
    slot: { slotId: string; claim: KeyClaim } | undefined,
    transfer: Transfer,
    movement: PostingChange | undefined,
    status: 201 | 202,
    now: Date,
  ): Promise<IdempotentResponse> {
    const at = now.toISOString();
    const body = presentTransfer(transfer);
    await store.commit([
      ...(movement ? [movement] : []),
      { type: 'putTransfer', transfer },
      auditOf(ctx, transfer, action, at),
      ...answerOf(slot, status, body, now),
    ]);
    return { status, body, replayed: false };
  }

  function parseTransferAmount(input: unknown, currency: TransferCurrency): Big {
    return parseAmount(input, { currency, allowNumber: false });
  }

  async function deposit(
    ctx: RequestContext,
    action: AuditAction,
    input: ExternalTransferInput,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseTransferAmount(input.amount, input.currency);
    assertDepositAmount(amount);
    const params = {
      walletId: input.walletId,
      amount: amount.toFixed(),
      currency: input.currency,
      source: normalizedCounterparty(input.counterparty),
      bankAccountId: input.bankAccountId,
    };
    return idempotent(ctx, 'transfer.deposit', params, idempotencyKey, async (slot) => {
      const now = clock.now();
      const at = now.toISOString();
      const id = ids('transfer');
      const { rail, stored } = await counterparties.resolve(scope, id, 'source', input);
      const wallet = assertAccessible(ctx.principal, await store.getWallet(input.walletId), input.walletId);
      assertActive(wallet);
      const transfer: Transfer = {
        id,
        ...scope,
        walletId: wallet.id,
        direction: 'DEPOSIT',
        rail,
        currency: input.currency,
        amount: amount.toFixed(),
        fee: formatAmount(transferFeeOf('DEPOSIT', amount)),
        status: 'INITIATED',
        source: stored,
        reconcileAt: reconcileAfter(scope.environment, now, deps.timeScale),
        createdAt: at,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      };
      const response = await commitNew(ctx, action, slot, transfer, undefined, 202, now);
      await startWorkflow(transfer);
      return response;
    });
  }

  async function withdraw(
    ctx: RequestContext,
    action: AuditAction,
    input: ExternalTransferInput,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseTransferAmount(input.amount, input.currency);
    const fee = transferFeeOf('WITHDRAWAL', amount);
    const params = {
      walletId: input.walletId,
      amount: amount.toFixed(),
      currency: input.currency,
      destination: normalizedCounterparty(input.counterparty),
      bankAccountId: input.bankAccountId,
    };
    return idempotent(ctx, 'transfer.withdraw', params, idempotencyKey, async (slot) => {
      const now = clock.now();
      const at = now.toISOString();
      const id = ids('transfer');
      const { rail, stored } = await counterparties.resolve(scope, id, 'destination', input);
      const snapshot = await store.getWalletSnapshot(input.walletId);
      const wallet = assertAccessible(ctx.principal, snapshot?.wallet, input.walletId);
      assertActive(wallet);
      const total = amount.plus(fee);
      const spend = policyCheck(snapshot, withdrawalRecipientOf(stored), total, now);
      const holdId = ids('transaction');
      const transfer: Transfer = {
        id,
        ...scope,
        walletId: wallet.id,
        direction: 'WITHDRAWAL',
        rail,
        currency: input.currency,
        amount: amount.toFixed(),
        fee: formatAmount(fee),
        status: 'INITIATED',
        destination: stored,
        holdId,
        reconcileAt: reconcileAfter(scope.environment, now, deps.timeScale),
        createdAt: at,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      };
      const response = await commitNew(
        ctx,
        action,
        slot,
        transfer,
        withdrawalHold(transfer, holdId, at, spend),
        201,
        now,
      );
      await startWorkflow(transfer);
      return response;
    });
  }

  async function internal(
    ctx: RequestContext,
    action: AuditAction,
    input: InternalTransferInput,
    idempotencyKey?: string,
  ): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseTransferAmount(input.amount, 'USD');
    const params = {
      fromWalletId: input.fromWalletId,
      toWalletId: input.toWalletId,
      amount: amount.toFixed(),
      description: input.description,
    };
    return idempotent(ctx, 'transfer.internal', params, idempotencyKey, async (slot) => {
      if (input.fromWalletId === input.toWalletId)
        throw new ApiError('SELF_PAYMENT', 'An internal transfer needs two different wallets.');
      const now = clock.now();
      const at = now.toISOString();
      const [snapshot, payee] = await Promise.all([
        store.getWalletSnapshot(input.fromWalletId),
        store.getWallet(input.toWalletId),
      ]);
      const payer = assertAccessible(ctx.principal, snapshot?.wallet, input.fromWalletId);
      // Same organization only; the caller's own wallet in the other environment says so.
      if (!payee || payee.organizationId !== scope.organizationId)
        throw new ApiError('WALLET_NOT_FOUND', undefined, { field: 'toWalletId' });
      if (payee.environment !== scope.environment)
        throw new ApiError('ENVIRONMENT_MISMATCH', undefined, { field: 'toWalletId' });
      assertActive(payer);
      assertActive(payee);
      const spend = policyCheck(snapshot, payee.id, amount, now);
      const transactionId = ids('transaction');
      const transfer: Transfer = {
        id: ids('transfer'),
        ...scope,
        walletId: payer.id,
        toWalletId: payee.id,
        direction: 'INTERNAL',
        rail: 'INTERNAL',
        currency: 'USD',
        amount: amount.toFixed(),
        fee: '0.00',
        status: 'COMPLETED',
        transactionId,
        createdAt: at,
        completedAt: at,
        ...(input.description ? { description: input.description } : {}),
        ...(idempotencyKey ? { idempotencyKey } : {}),
      };
      return commitNew(ctx, action, slot, transfer, internalPosting(transfer, transactionId, at, spend), 201, now);
    });
  }

  /** Cancels a PENDING transfer before it settles: a withdrawal's amount and fee return to available. */
  async function cancel(ctx: RequestContext, action: AuditAction, transferId: string): Promise<Transfer> {
    const transfer = await get(ctx, transferId);
    if (transfer.direction === 'INTERNAL' || !canTransition(TRANSFER_STATES, transfer.status, 'cancel')) {
      throw new ApiError('INVALID_STATE', `A ${transfer.status} transfer can not be cancelled.`, {
        status: transfer.status,
      });
    }
    // The rail first: once it has confirmed, its settlement fails; if it is too late, nothing changes here.
    const stopped = await rails[transfer.environment].cancel(counterparties.submittedOf(transfer));
    if (!stopped.cancelled)
      throw new ApiError('INVALID_STATE', 'The rail is settling the transfer: it can no longer be cancelled.', {
        status: transfer.status,
        reason: stopped.reason,
      });
    const after = await transitions.cancel(transfer, { actor: ctx.actor, action });
    if (!after) {
      const now = await reloadTransfer(store, transferId);
      throw new ApiError('INVALID_STATE', `A ${now.status} transfer can not be cancelled.`, { status: now.status });
    }
    return after;
  }

  return { get, list, deposit, withdraw, internal, cancel };
}
