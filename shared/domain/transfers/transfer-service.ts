import Big from 'big.js';
import { assertAccessible, scopeOf } from '../access.js';
import { AUDIT, type AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import type { ChangeOf } from '../change-committer.js';
import { ApiError, notFound, validationError } from '../errors.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import { claimOf, fingerprintOf, runIdempotent, answerChange, type IdempotentResponse, type KeyClaim } from '../idempotency/idempotency.js';
import { formatAmount, parseAmount } from '../money.js';
import { spendOf } from '../policies/spend.js';
import { evaluatePolicies } from '../policies/policy-rules.js';
import { DEFAULT_USDC_CHAIN, usdcChainNamed } from '../usdc/addresses.js';
import type { ServiceDeps } from '../ports.js';
import type { Sealer } from '../sealing.js';
import { canTransition } from '../state-table.js';
import type { Actor, Environment, OrganizationScope, RequestContext } from '../tenancy.js';
import type { Page, PageRequest, Wallet } from '../types.js';
import { accessibleBankAccount } from '../bank-accounts/access.js';
import { isValidRoutingNumber } from '../bank-accounts/bank-account-rules.js';
import { sealingContexts } from '../bank-accounts/types.js';
import type { RailTransfer, TransferFilter, TransferRail, TransferStepInput, TransferStepOutput, TransferStore, TransferWorkflows } from './ports.js';
import { depositCredit, clearingRelease, internalPosting, withdrawalCapture, withdrawalHold, withdrawalVoid } from './transfer-postings.js';
import { ACH_CLEARING_MS, assertDepositAmount, assertRailCurrency, RAIL_SETTLEMENT_MS, scaledMs, transferFeeOf, usdcCounterparty, withdrawalRecipientOf } from './transfer-rules.js';
import { TRANSFER_STATES, type TransferTrigger } from './transfer-states.js';
import { netAmountOf, presentTransfer, type TransferView } from './transfer-view.js';
import type { Counterparty, ExternalRail, Transfer, TransferCurrency, TransferStatus } from './types.js';

/** A deposit's source or a withdrawal's destination as the request gives it (interface-spec 4.5). */
export interface CounterpartyInput {
  type: ExternalRail;
  bankAccountId?: string | undefined;
  routingNumber?: string | undefined;
  accountNumber?: string | undefined;
  address?: string | undefined;
  chain?: string | undefined;
}

export interface ExternalTransferInput {
  walletId: string;
  amount: string;
  currency: TransferCurrency;
  /** `source` of a deposit, `destination` of a withdrawal. */
  counterparty?: CounterpartyInput | undefined;
  bankAccountId?: string | undefined;
}

export interface InternalTransferInput {
  fromWalletId: string;
  toWalletId: string;
  amount: string;
  description?: string | undefined;
}

export interface TransferServiceOptions {
  /** The settlement rail of each environment (the sandbox rail; production's provider, or a rail that refuses). */
  rails: Record<Environment, TransferRail>;
  sealer: Sealer;
  /** Starts the transfer workflow after a deposit or withdrawal commits. */
  workflows?: TransferWorkflows | undefined;
  /** Schedules the end of an ACH deposit's clearing. */
  expiries?: ExpiryScheduler | undefined;
  log?: Pick<Console, 'error'>;
}

const LINKED_ACCOUNT_PREFIX = 'ba_';
const FORCED_REASON = 'FAILED_BY_TEST_HELPER';
/** The recipient of a withdrawal to a bank given by numbers, for the policy rules that name none. */
const UNLISTED_RECIPIENT = 'bank:unlisted';

/** A counterparty as the idempotency fingerprint compares it: the default chain filled in, a chain named in any case canonical. */
function normalizedCounterparty(counterparty: CounterpartyInput | undefined): CounterpartyInput | undefined {
  if (counterparty?.type !== 'USDC') return counterparty;
  const chain = counterparty.chain ?? DEFAULT_USDC_CHAIN;
  return { ...counterparty, chain: usdcChainNamed(chain) ?? chain };
}

/** The test helper's next move toward a target state, from each state it may leave. */
const ADVANCE_MOVES: Record<'PENDING' | 'COMPLETED' | 'FAILED', Partial<Record<'INITIATED' | 'PENDING', 'submit' | 'complete' | 'reject' | 'fail'>>> = {
  PENDING: { INITIATED: 'submit' },
  COMPLETED: { INITIATED: 'submit', PENDING: 'complete' },
  FAILED: { INITIATED: 'reject', PENDING: 'fail' },
};
const MAX_ADVANCE_ROUNDS = 4;
/** How long past its due time a transfer's work may be late before the reconciler does it (real time: 5 minutes). */
const RECONCILE_GRACE_MS = 5 * 60_000;
/** Transfers one reconciler call handles (the sweep calls again while there are more). */
export const RECONCILE_BATCH_SIZE = 25;

/** What a transition writes besides the transfer's own state change. */
interface TransitionWrites {
  movement?: ChangeOf<TransferStore>;
  events: AuditChange[];
  audit?: { actor: Actor; action: AuditAction };
}

/**
 * Transfers (interface-spec 4.5, 3.3; decisions.md sections 2-4): deposits and withdrawals through
 * a rail, driven by the transfer workflow (submit, wait, settle), and internal transfers posted at
 * once. Each state change is one transaction with its movement, its event and (for a client's
 * action) its audit entry, conditioned on the state table, so a step that runs twice, a cancel
 * racing a settlement or a test helper advancing a transfer change it at most once.
 */
export function createTransferService(deps: ServiceDeps<TransferStore>, options: TransferServiceOptions) {
  const { store, clock, ids } = deps;
  const log = options.log ?? console;

  // ---- Reads and access -------------------------------------------------------------------------

  /** A transfer the caller may see: another organization's, or another wallet's for a scoped key, answers as absent. */
  async function loadTransfer(ctx: RequestContext, transferId: string): Promise<Transfer> {
    const scope = scopeOf(ctx.principal);
    const transfer = await store.getTransfer(transferId);
    if (!transfer || transfer.organizationId !== scope.organizationId) throw notFound('TRANSFER_NOT_FOUND', transferId);
    const own = ctx.principal.walletId;
    if (own !== null && transfer.walletId !== own && transfer.toWalletId !== own) throw notFound('TRANSFER_NOT_FOUND', transferId);
    if (transfer.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return transfer;
  }

  async function get(ctx: RequestContext, transferId: string): Promise<Transfer> {
    return loadTransfer(ctx, transferId);
  }

  async function list(ctx: RequestContext, filter: TransferFilter & { walletId?: string | undefined }, page: PageRequest): Promise<Page<Transfer>> {
    const scope = scopeOf(ctx.principal);
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    const narrowed = { direction: filter.direction, status: filter.status };
    if (walletId === undefined) return store.listTransfers(scope, narrowed, page);
    const wallet = assertAccessible(ctx.principal, await store.getWallet(walletId), walletId);
    return store.listWalletTransfers(scope, wallet.id, narrowed, page);
  }

  // ---- Counterparties ---------------------------------------------------------------------------

  interface ResolvedCounterparty {
    rail: ExternalRail;
    stored: Counterparty;
  }

  /**
   * The outside end of a deposit or withdrawal: a verified linked bank account (`bankAccountId`),
   * or the `source`/`destination` object (bank numbers, a provider's counterparty id, or a USDC
   * address). An account number given in the request is kept only sealed, bound to the transfer.
   */
  async function resolveCounterparty(scope: OrganizationScope, transferId: string, field: 'source' | 'destination', input: ExternalTransferInput): Promise<ResolvedCounterparty> {
    const given = input.counterparty;
    if (given && input.bankAccountId !== undefined) throw validationError(field, `give either ${field} or bankAccountId, not both`);
    if (!given && input.bankAccountId === undefined) throw validationError(field, `${field} or bankAccountId is required`);
    const linkedId = input.bankAccountId ?? (given?.bankAccountId?.startsWith(LINKED_ACCOUNT_PREFIX) ? given.bankAccountId : undefined);
    const rail: ExternalRail = given?.type ?? 'ACH';
    assertRailCurrency(rail, input.currency, field);

    if (rail === 'USDC') {
      if (!given?.address) throw validationError(`${field}.address`, 'is required for USDC');
      if (given.bankAccountId !== undefined || given.routingNumber !== undefined || given.accountNumber !== undefined) throw validationError(field, 'a USDC address takes no bank fields');
      return { rail, stored: usdcCounterparty(field, given.address, given.chain) };
    }
    if (given?.address !== undefined || given?.chain !== undefined) throw validationError(field, `${rail} takes bank fields, not an address`);

    if (linkedId !== undefined) {
      if (given?.routingNumber !== undefined || given?.accountNumber !== undefined) throw validationError(field, 'give a linked bank account or account numbers, not both');
      const account = accessibleBankAccount(scope, await store.getBankAccount(scope, linkedId), linkedId, input.bankAccountId !== undefined ? 'bankAccountId' : `${field}.bankAccountId`);
      if (account.status !== 'VERIFIED') throw new ApiError('BANK_ACCOUNT_NOT_VERIFIED', undefined, { bankAccountId: linkedId, status: account.status });
      return { rail, stored: { type: rail as Exclude<ExternalRail, 'USDC'>, bankAccountId: account.id, routingNumber: account.routingNumber, last4: account.last4 } };
    }
    if (given?.bankAccountId !== undefined) {
      if (given.routingNumber !== undefined || given.accountNumber !== undefined) throw validationError(field, 'give a counterparty id or account numbers, not both');
      return { rail, stored: { type: rail as Exclude<ExternalRail, 'USDC'>, counterpartyId: given.bankAccountId } };
    }
    if (given?.routingNumber === undefined) throw validationError(`${field}.routingNumber`, `is required for ${rail} without a bankAccountId`);
    if (given.accountNumber === undefined) throw validationError(`${field}.accountNumber`, `is required for ${rail} without a bankAccountId`);
    if (!isValidRoutingNumber(given.routingNumber)) throw validationError(`${field}.routingNumber`, 'is not a valid ABA routing number');
    return {
      rail,
      stored: {
        type: rail as Exclude<ExternalRail, 'USDC'>,
        routingNumber: given.routingNumber,
        last4: given.accountNumber.slice(-4),
        accountNumberSealed: await options.sealer.seal(given.accountNumber, transferId),
      },
    };
  }

  /**
   * What the rail is told. Only a submission opens the account number from its seal (one read
   * and, in AWS, one KMS Decrypt); settlement and cancel go by the rail's reference and get the
   * last 4 digits only, as does a submission whose linked account was deleted since.
   */
  async function railTransferOf(transfer: Transfer, purpose: 'submit' | 'follow-up'): Promise<RailTransfer> {
    const counterparty = (transfer.direction === 'DEPOSIT' ? transfer.source : transfer.destination)!;
    const head = { id: transfer.id, environment: transfer.environment, direction: transfer.direction as 'DEPOSIT' | 'WITHDRAWAL', rail: transfer.rail as ExternalRail, amount: transfer.amount, currency: transfer.currency };
    if (counterparty.type === 'USDC') return { ...head, counterparty: { kind: 'usdc', address: counterparty.address, chain: counterparty.chain } };
    if (counterparty.counterpartyId) return { ...head, counterparty: { kind: 'bank', counterpartyId: counterparty.counterpartyId } };
    const bank = { kind: 'bank' as const, ...(counterparty.routingNumber ? { routingNumber: counterparty.routingNumber } : {}), ...(counterparty.last4 ? { last4: counterparty.last4 } : {}) };
    if (purpose === 'follow-up') return { ...head, counterparty: bank };
    if (counterparty.bankAccountId) {
      const account = await store.getBankAccount(transfer, counterparty.bankAccountId);
      const accountNumber = account?.accountNumberSealed ? await options.sealer.open(account.accountNumberSealed, sealingContexts.accountNumber(account.id)) : undefined;
      return { ...head, counterparty: { ...bank, ...(accountNumber ? { accountNumber } : {}) } };
    }
    const accountNumber = counterparty.accountNumberSealed ? await options.sealer.open(counterparty.accountNumberSealed, transfer.id) : undefined;
    return { ...head, counterparty: { ...bank, ...(accountNumber ? { accountNumber } : {}) } };
  }

  const submittedOf = async (transfer: Transfer) => ({ ...(await railTransferOf(transfer, 'follow-up')), reference: transfer.railReference ?? transfer.id, settleAt: transfer.settleAt ?? transfer.createdAt });

  // ---- Creation ---------------------------------------------------------------------------------

  /** The wallet's spend policies apply to money leaving it: deny rules and period limits; a transfer can not wait for an approval. */
  function policyCheck(snapshot: Awaited<ReturnType<TransferStore['getWalletSnapshot']>>, to: string | undefined, amount: Big, at: Date) {
    if (to === undefined) {
      // A bank given by numbers or a provider's id has no name a recipient list can hold for sure:
      // where the wallet's policies list recipients, withdrawals go to linked accounts (or USDC) only.
      const listing = snapshot!.policies.find((policy) => policy.status === 'ACTIVE' && ((policy.allowedRecipients?.length ?? 0) > 0 || (policy.blockedRecipients?.length ?? 0) > 0));
      if (listing) {
        const rule = (listing.allowedRecipients?.length ?? 0) > 0 ? 'allowedRecipients' : 'blockedRecipients';
        throw new ApiError('POLICY_DENIED', `The policy "${listing.name}" lists recipients: withdraw to a linked bank account (bankAccountId) or a USDC address.`, { rule, policyId: listing.id });
      }
    }
    const decision = evaluatePolicies(snapshot!.policies, snapshot!.counters, { walletId: snapshot!.wallet.id, to: to ?? UNLISTED_RECIPIENT, amount, at });
    if (decision.kind === 'APPROVAL') {
      throw new ApiError('POLICY_DENIED', 'A policy of this wallet requires human approval for this amount; transfers can not wait for an approval.', { rule: decision.reason });
    }
    return spendOf(snapshot!.wallet.id, amount, at, decision.periodLimits, snapshot!.counters);
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
  async function idempotent(ctx: RequestContext, operation: string, params: Record<string, unknown>, idempotencyKey: string | undefined, execute: (claim: { slotId: string; claim: KeyClaim } | undefined) => Promise<IdempotentResponse>): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const claim = idempotencyKey === undefined ? undefined : await claimOf(scope, idempotencyKey, fingerprintOf(operation, { ...params, scope: ctx.principal.walletId ?? 'organization' }));
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

  const answerOf = (slot: { slotId: string; claim: KeyClaim } | undefined, status: number, body: TransferView, now: Date) => (slot ? [answerChange(slot.slotId, slot.claim, status, body, now)] : []);

  const auditOf = (ctx: RequestContext, transfer: Transfer, action: AuditAction, at: string) =>
    auditChange(
      { organizationId: transfer.organizationId, environment: transfer.environment, actor: ctx.actor, action, resource: 'transfer', resourceId: transfer.id, walletId: transfer.walletId, metadata: { direction: transfer.direction, rail: transfer.rail, amount: transfer.amount, fee: transfer.fee, currency: transfer.currency, status: transfer.status }, createdAt: at },
      ids,
    );

  function parseTransferAmount(input: unknown, currency: TransferCurrency): Big {
    return parseAmount(input, { currency, allowNumber: false });
  }

  async function deposit(ctx: RequestContext, input: ExternalTransferInput, idempotencyKey?: string): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseTransferAmount(input.amount, input.currency);
    assertDepositAmount(amount);
    const params = { walletId: input.walletId, amount: amount.toFixed(), currency: input.currency, source: normalizedCounterparty(input.counterparty), bankAccountId: input.bankAccountId };
    return idempotent(ctx, 'transfer.deposit', params, idempotencyKey, async (slot) => {
      const now = clock.now();
      const at = now.toISOString();
      const id = ids('transfer');
      const { rail, stored } = await resolveCounterparty(scope, id, 'source', input);
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
        reconcileAt: reconcileAfter(scope.environment, now),
        createdAt: at,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      };
      const body = presentTransfer(transfer);
      await store.commit([{ type: 'putTransfer', transfer }, auditOf(ctx, transfer, AUDIT.transfer.deposit, at), ...answerOf(slot, 202, body, now)]);
      await startWorkflow(transfer);
      return { status: 202, body, replayed: false };
    });
  }

  async function withdraw(ctx: RequestContext, input: ExternalTransferInput, idempotencyKey?: string): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseTransferAmount(input.amount, input.currency);
    const fee = transferFeeOf('WITHDRAWAL', amount);
    const params = { walletId: input.walletId, amount: amount.toFixed(), currency: input.currency, destination: normalizedCounterparty(input.counterparty), bankAccountId: input.bankAccountId };
    return idempotent(ctx, 'transfer.withdraw', params, idempotencyKey, async (slot) => {
      const now = clock.now();
      const at = now.toISOString();
      const id = ids('transfer');
      const { rail, stored } = await resolveCounterparty(scope, id, 'destination', input);
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
        reconcileAt: reconcileAfter(scope.environment, now),
        createdAt: at,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      };
      const body = presentTransfer(transfer);
      await store.commit([withdrawalHold(transfer, holdId, at, spend), { type: 'putTransfer', transfer }, auditOf(ctx, transfer, AUDIT.transfer.withdraw, at), ...answerOf(slot, 201, body, now)]);
      await startWorkflow(transfer);
      return { status: 201, body, replayed: false };
    });
  }

  async function internal(ctx: RequestContext, input: InternalTransferInput, idempotencyKey?: string): Promise<IdempotentResponse> {
    const scope = scopeOf(ctx.principal);
    const amount = parseTransferAmount(input.amount, 'USD');
    const params = { fromWalletId: input.fromWalletId, toWalletId: input.toWalletId, amount: amount.toFixed(), description: input.description };
    return idempotent(ctx, 'transfer.internal', params, idempotencyKey, async (slot) => {
      if (input.fromWalletId === input.toWalletId) throw new ApiError('SELF_PAYMENT', 'An internal transfer needs two different wallets.');
      const now = clock.now();
      const at = now.toISOString();
      const [snapshot, payee] = await Promise.all([store.getWalletSnapshot(input.fromWalletId), store.getWallet(input.toWalletId)]);
      const payer = assertAccessible(ctx.principal, snapshot?.wallet, input.fromWalletId);
      // Same organization only; the caller's own wallet in the other environment says so.
      if (!payee || payee.organizationId !== scope.organizationId) throw new ApiError('WALLET_NOT_FOUND', undefined, { field: 'toWalletId' });
      if (payee.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH', undefined, { field: 'toWalletId' });
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
      const body = presentTransfer(transfer);
      await store.commit([internalPosting(transfer, transactionId, at, spend), { type: 'putTransfer', transfer }, auditOf(ctx, transfer, AUDIT.transfer.internal, at), ...answerOf(slot, 201, body, now)]);
      return { status: 201, body, replayed: false };
    });
  }

  // ---- Transitions ------------------------------------------------------------------------------

  const EVENT_OF = {
    DEPOSIT: { submit: 'deposit.initiated', complete: 'deposit.completed', fail: 'deposit.failed', reject: 'deposit.failed', cancel: 'deposit.cancelled' },
    WITHDRAWAL: { submit: 'withdrawal.initiated', complete: 'withdrawal.completed', fail: 'withdrawal.failed', reject: 'withdrawal.failed', cancel: 'withdrawal.cancelled' },
  } as const;

  /**
   * Commits one transition with its movement, its event and its audit entry. Answers the transfer
   * after it; `undefined` when the transfer was no longer in a `from` state (another step, a cancel
   * or a test helper changed it first): the caller reads it again.
   */
  async function transition(transfer: Transfer, trigger: TransferTrigger, set: Partial<Transfer>, writes: TransitionWrites): Promise<Transfer | undefined> {
    const after: Transfer = { ...transfer, ...set, status: TRANSFER_STATES[trigger].to };
    const at = clock.now().toISOString();
    const direction = transfer.direction as 'DEPOSIT' | 'WITHDRAWAL';
    const changes: ChangeOf<TransferStore>[] = [
      { type: 'transitionTransfer', transferId: transfer.id, trigger, set },
      ...(writes.movement ? [writes.movement] : []),
      eventChange({ organizationId: transfer.organizationId, environment: transfer.environment, type: EVENT_OF[direction][trigger], data: presentTransfer(after), createdAt: at }, ids),
      ...writes.events,
    ];
    if (writes.audit) {
      changes.push(
        auditChange({ organizationId: transfer.organizationId, environment: transfer.environment, actor: writes.audit.actor, action: writes.audit.action, resource: 'transfer', resourceId: transfer.id, walletId: transfer.walletId, metadata: { from: transfer.status, to: after.status }, createdAt: at }, ids),
      );
    }
    try {
      await store.commit(changes);
      return after;
    } catch (error) {
      // Raced: the transfer left the trigger's `from` states meanwhile. Any other INVALID_STATE (a
      // closed wallet, a hold already settled) is the caller's to handle.
      if (error instanceof ApiError && error.code === 'INVALID_STATE') {
        const now = await store.getTransfer(transfer.id);
        if (!now || !canTransition(TRANSFER_STATES, now.status, trigger)) return undefined;
      }
      throw error;
    }
  }

  async function submitted(transfer: Transfer, forced: boolean, audit?: TransitionWrites['audit']): Promise<Transfer | undefined> {
    if (forced) {
      const settleAt = new Date(clock.now().getTime() + scaledMs(transfer.environment, RAIL_SETTLEMENT_MS[transfer.rail as ExternalRail], deps.timeScale)).toISOString();
      return transition(transfer, 'submit', { submittedAt: clock.now().toISOString(), settleAt, railReference: `forced_${transfer.id}`, reconcileAt: reconcileAfter(transfer.environment, new Date(settleAt)) }, { events: [], ...(audit ? { audit } : {}) });
    }
    const told = await railTransferOf(transfer, 'submit');
    // A linked bank account deleted before submission: nothing to send the money to or take it from.
    if (told.counterparty.kind === 'bank' && !told.counterparty.accountNumber && !told.counterparty.counterpartyId) return failed(transfer, 'reject', 'BANK_ACCOUNT_DELETED', audit);
    const result = await options.rails[transfer.environment].submit(told);
    if (!result.accepted) return failed(transfer, 'reject', result.reason, audit);
    return transition(transfer, 'submit', { submittedAt: clock.now().toISOString(), settleAt: result.settleAt, railReference: result.reference, reconcileAt: reconcileAfter(transfer.environment, new Date(result.settleAt)) }, { events: [], ...(audit ? { audit } : {}) });
  }

  async function failed(transfer: Transfer, trigger: 'reject' | 'fail' | 'cancel', reason: string | undefined, audit?: TransitionWrites['audit']): Promise<Transfer | undefined> {
    const at = clock.now().toISOString();
    const set: Partial<Transfer> = trigger === 'cancel' ? { cancelledAt: at } : { failedAt: at, failureReason: reason ?? 'FAILED' };
    const movement = transfer.direction === 'WITHDRAWAL' ? withdrawalVoid(transfer, ids('transaction'), at) : undefined;
    return transition(transfer, trigger, set, { ...(movement ? { movement } : {}), events: [], ...(audit ? { audit } : {}) });
  }

  async function completed(transfer: Transfer, audit?: TransitionWrites['audit']): Promise<Transfer | undefined> {
    const now = clock.now();
    const at = now.toISOString();
    const transactionId = ids('transaction');
    if (transfer.direction === 'WITHDRAWAL') {
      return transition(transfer, 'complete', { completedAt: at, transactionId }, { movement: withdrawalCapture(transfer, transactionId, at), events: [], ...(audit ? { audit } : {}) });
    }
    const clears = transfer.rail === 'ACH';
    const availableAt = clears ? new Date(now.getTime() + scaledMs(transfer.environment, ACH_CLEARING_MS[transfer.environment], deps.timeScale)).toISOString() : undefined;
    const net = netAmountOf(transfer);
    const fundsPending = clears
      ? [eventChange({ organizationId: transfer.organizationId, environment: transfer.environment, type: 'wallet.funds_pending', data: { walletId: transfer.walletId, transferId: transfer.id, amount: formatAmount(net), availableAt: availableAt! }, createdAt: at }, ids)]
      : [];
    try {
      const after = await transition(transfer, 'complete', { completedAt: at, transactionId, ...(clears ? { clearing: 'PENDING' as const, availableAt, reconcileAt: reconcileAfter(transfer.environment, new Date(availableAt!)) } : {}) }, { movement: depositCredit(transfer, transactionId, at, clears), events: fundsPending, ...(audit ? { audit } : {}) });
      if (after?.clearing === 'PENDING') await scheduleClearing(after);
      return after;
    } catch (error) {
      // The wallet can not take the money any more (closed: agent deletion waits for open transfers, so
      // only a wallet gone another way): the deposit fails and the rail returns it. A paused wallet takes it.
      if (error instanceof ApiError && (error.code === 'INVALID_STATE' || error.code === 'WALLET_NOT_FOUND')) return failed(transfer, 'fail', error.code === 'INVALID_STATE' ? 'WALLET_CLOSED' : error.code, audit);
      throw error;
    }
  }

  /**
   * When the reconciler looks at a transfer whose next step is due at `due` (now for a submission,
   * the settlement time, the end of the clearing) if the workflow or the expiry has not done it:
   * a grace period later, long enough for the workflow's own retries (sandbox: divided by TIME_SCALE).
   */
  function reconcileAfter(environment: Environment, due: Date): string {
    return new Date(due.getTime() + scaledMs(environment, RECONCILE_GRACE_MS, deps.timeScale)).toISOString();
  }

  /**
   * The reconciler (the `expiry-sweep` worker): transfers whose work is overdue (a workflow that
   * never started or died, an expiry schedule that was lost, a local run restarted) get it done
   * here, by the same idempotent steps: submit, settle, release the clearing. One still where it
   * was afterwards (the rail not answering, not settled yet) is looked at again a grace period later.
   */
  async function reconcileDue(): Promise<number> {
    const now = clock.now();
    const due = await store.listDueTransfers(now, RECONCILE_BATCH_SIZE);
    for (const transfer of due) {
      try {
        if (transfer.status === 'INITIATED') await runStep({ step: 'submit', transferId: transfer.id });
        else if (transfer.status === 'PENDING') await runStep({ step: 'settle', transferId: transfer.id });
        else if (transfer.clearing === 'PENDING') await releaseClearing(transfer.id);
      } catch (error) {
        log.error(`reconciling ${transfer.id} failed; it is looked at again later`, error);
      }
      try {
        const after = await store.getTransfer(transfer.id);
        if (after?.reconcileAt && after.reconcileAt === transfer.reconcileAt) {
          await store.commit([{ type: 'deferReconcile', transferId: after.id, status: after.status, reconcileAt: reconcileAfter(after.environment, clock.now()) }]);
        }
      } catch (error) {
        // Moved meanwhile (INVALID_STATE): nothing to defer. Anything else: logged; the next run sees it again.
        if (!(error instanceof ApiError && error.code === 'INVALID_STATE')) log.error(`deferring ${transfer.id} failed`, error);
      }
    }
    return due.length;
  }

  /** Scheduled after the commit; a step that finds the deposit completed schedules it again (one schedule per transfer). */
  async function scheduleClearing(transfer: Transfer): Promise<void> {
    if (!options.expiries || !transfer.availableAt) return;
    await options.expiries.schedule({ kind: 'clearing', id: transfer.id }, transfer.availableAt);
  }

  const outputOf = (transfer: Transfer): TransferStepOutput => ({ transferId: transfer.id, status: transfer.status, ...(transfer.status === 'PENDING' && transfer.settleAt ? { settleAt: transfer.settleAt } : {}) });

  async function reload(transferId: string): Promise<Transfer> {
    const transfer = await store.getTransfer(transferId);
    if (!transfer) throw notFound('TRANSFER_NOT_FOUND', transferId);
    return transfer;
  }

  /**
   * One step of the transfer workflow. Idempotent: a step finding its work done (a retry, a test
   * helper, a cancel that won) answers the status as it is, and the workflow ends.
   */
  async function runStep(input: TransferStepInput): Promise<TransferStepOutput> {
    const transfer = await reload(input.transferId);
    if (input.step === 'submit') {
      if (transfer.status !== 'INITIATED') return outputOf(transfer);
      return outputOf((await submitted(transfer, false)) ?? (await reload(transfer.id)));
    }
    if (transfer.status !== 'PENDING') {
      if (transfer.clearing === 'PENDING') await scheduleClearing(transfer);
      return outputOf(transfer);
    }
    const settlement = await options.rails[transfer.environment].settlement(await submittedOf(transfer));
    if (settlement.outcome === 'PENDING') return { transferId: transfer.id, status: 'PENDING', settleAt: settlement.settleAt };
    const after = settlement.outcome === 'FAILED' ? await failed(transfer, 'fail', settlement.reason) : await completed(transfer);
    return outputOf(after ?? (await reload(transfer.id)));
  }

  /** Cancels a PENDING transfer before it settles: a withdrawal's amount and fee return to available. */
  async function cancel(ctx: RequestContext, transferId: string): Promise<Transfer> {
    const transfer = await loadTransfer(ctx, transferId);
    if (transfer.direction === 'INTERNAL' || !canTransition(TRANSFER_STATES, transfer.status, 'cancel')) {
      throw new ApiError('INVALID_STATE', `A ${transfer.status} transfer can not be cancelled.`, { status: transfer.status });
    }
    // The rail first: once it has confirmed, its settlement fails; if it is too late, nothing changes here.
    const stopped = await options.rails[transfer.environment].cancel(await submittedOf(transfer));
    if (!stopped.cancelled) throw new ApiError('INVALID_STATE', 'The rail is settling the transfer: it can no longer be cancelled.', { status: transfer.status, reason: stopped.reason });
    const after = await failed(transfer, 'cancel', undefined, { actor: ctx.actor, action: AUDIT.transfer.cancel });
    if (!after) {
      const now = await reload(transferId);
      throw new ApiError('INVALID_STATE', `A ${now.status} transfer can not be cancelled.`, { status: now.status });
    }
    return after;
  }

  /**
   * Sandbox test helper: moves a transfer to PENDING, COMPLETED or FAILED through the same
   * transitions and movements as the workflow (the workflow then finds the work done).
   */
  async function advance(ctx: RequestContext, transferId: string, to: Extract<TransferStatus, 'PENDING' | 'COMPLETED' | 'FAILED'>): Promise<Transfer> {
    let transfer = await loadTransfer(ctx, transferId);
    const audit = { actor: ctx.actor, action: AUDIT.transfer.advance };
    const refuse = (current: Transfer): never => {
      throw new ApiError('INVALID_STATE', `A ${current.status} transfer can not move to ${to}.`, { status: current.status, to });
    };
    if (transfer.direction === 'INTERNAL' || transfer.status === to) return refuse(transfer);
    // One move at a time; a move lost to the workflow (or a cancel) is decided again from the state it left.
    for (let round = 0; round < MAX_ADVANCE_ROUNDS; round++) {
      if (transfer.status === to) return transfer;
      const move = ADVANCE_MOVES[to][transfer.status as 'INITIATED' | 'PENDING'];
      if (!move) return refuse(transfer);
      const current = transfer;
      const after = move === 'submit' ? await submitted(current, true, audit) : move === 'complete' ? await completed(current, audit) : await failed(current, move, FORCED_REASON, audit);
      transfer = after ?? (await reload(transferId));
    }
    return transfer.status === to ? transfer : refuse(transfer);
  }

  /** The end of an ACH deposit's clearing (the `expiry` worker): pending -> available, once. */
  async function releaseClearing(transferId: string): Promise<'released' | 'done' | 'not-due'> {
    const transfer = await store.getTransfer(transferId);
    if (!transfer || transfer.clearing !== 'PENDING' || !transfer.availableAt) return 'done';
    const now = clock.now();
    if (now.getTime() < Date.parse(transfer.availableAt)) return 'not-due';
    const at = now.toISOString();
    const net = netAmountOf(transfer);
    try {
      await store.commit([
        { type: 'releaseClearing', transferId },
        clearingRelease(transfer, ids('transaction'), at, net),
        eventChange({ organizationId: transfer.organizationId, environment: transfer.environment, type: 'wallet.funds_available', data: { walletId: transfer.walletId, transferId, amount: formatAmount(net) }, createdAt: at }, ids),
      ]);
      return 'released';
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_STATE') return 'done';
      throw error;
    }
  }

  return { deposit, withdraw, internal, get, list, cancel, advance, runStep, releaseClearing, reconcileDue };
}

export type TransferService = ReturnType<typeof createTransferService>;
