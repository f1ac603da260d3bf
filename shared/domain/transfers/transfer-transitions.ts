import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import type { ChangeOf } from '../change-committer.js';
import { ApiError, notFound } from '../errors.js';
import type { PostingChange } from '../ledger/posting.js';
import { formatAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import { canTransition } from '../state-table.js';
import type { Actor } from '../tenancy.js';
import type { TransferStore } from './ports.js';
import { linkOf, NO_LINK_RIDER, type LinkRiderChange, type TransferLinkRider } from './transfer-link-rider.js';
import { depositCredit, withdrawalCapture, withdrawalVoid } from './transfer-postings.js';
import { ACH_CLEARING_MS, reconcileAfter, scaledMs } from './transfer-rules.js';
import { TRANSFER_STATES, type TransferTrigger } from './transfer-states.js';
import { netAmountOf, presentTransfer } from './transfer-view.js';
import type { Transfer } from './types.js';

/** The audit entry of a transition a client asked for (a cancel, the test helper); the workflow's own steps write none. */
export interface TransitionAudit {
  actor: Actor;
  action: AuditAction;
}

/** The rail's acceptance of a submission: its reference and when it settles. */
export interface RailAcceptance {
  reference: string;
  settleAt: string;
}

/** What the transfer store commits (its port's change types). */

/** What a transition writes besides the transfer's own state change. */
interface TransitionWrites {
  movement?: PostingChange;
  events: AuditChange[];
  audit?: TransitionAudit | undefined;
  /** A link transfer's: the payment link's side of the same transaction (transfer-link-rider.ts). */
  link?: LinkRiderChange[];
}

export interface TransferTransitionsOptions {
  /** Decides the payment link of a withdrawal that carries one (default: none, such a transfer's end fails). */
  linkRider?: TransferLinkRider | undefined;
}

const EVENT_OF = {
  DEPOSIT: {
    submit: 'deposit.initiated',
    complete: 'deposit.completed',
    fail: 'deposit.failed',
    reject: 'deposit.failed',
    cancel: 'deposit.cancelled',
  },
  WITHDRAWAL: {
    submit: 'withdrawal.initiated',
    complete: 'withdrawal.completed',
    fail: 'withdrawal.failed',
    reject: 'withdrawal.failed',
    cancel: 'withdrawal.cancelled',
  },
} as const;

/** The transfer as it is now (after a transition lost to another step, a cancel or the test helper). */
export async function reloadTransfer(store: Pick<TransferStore, 'getTransfer'>, transferId: string): Promise<Transfer> {
  const transfer = await store.getTransfer(transferId);
  if (!transfer) throw notFound('TRANSFER_NOT_FOUND', transferId);
  return transfer;
}

/**
 * The lifecycle of a deposit or withdrawal (transfer-states.ts), one command per trigger. Each
 * commits the transition with its movement, its event and (for a client's action) its audit entry,
 * conditioned on the state table, and answers the transfer after it; `undefined` when the transfer
 * was no longer in a `from` state (another step, a cancel or a test helper changed it first): the
 * caller reads it again. `scheduleClearing` is called after a deposit that must clear completes.
 * A withdrawal with `paymentLinkId` ends with its link (`linkRider`): settled with the capture; on
 * failure the rider says whether the hold (the link's) is voided or stays HELD for the link.
 */
export function createTransferTransitions(
  deps: ServiceDeps<TransferStore>,
  scheduleClearing: (transfer: Transfer) => Promise<void>,
  options: TransferTransitionsOptions = {},
) {
  const { store, clock, ids } = deps;
  const linkRider = options.linkRider ?? NO_LINK_RIDER;

  const afterOf = (transfer: Transfer, trigger: TransferTrigger, set: Partial<Transfer>): Transfer => ({
    ...transfer,
    ...set,
    status: TRANSFER_STATES[trigger].to,
  });

  async function transition(
    transfer: Transfer,
    trigger: TransferTrigger,
    set: Partial<Transfer>,
    writes: TransitionWrites,
  ): Promise<Transfer | undefined> {
    const after = afterOf(transfer, trigger, set);
    const at = clock.now().toISOString();
    const direction = transfer.direction as 'DEPOSIT' | 'WITHDRAWAL';
    const changes: ChangeOf<TransferStore>[] = [
      { type: 'transitionTransfer', transferId: transfer.id, trigger, set },
      ...(writes.movement ? [writes.movement] : []),
      eventChange(
        {
          organizationId: transfer.organizationId,
          environment: transfer.environment,
          type: EVENT_OF[direction][trigger],
          data: presentTransfer(after),
          createdAt: at,
        },
        ids,
      ),
      ...writes.events,
      ...(writes.link ?? []),
    ];
    if (writes.audit) {
      changes.push(
        auditChange(
          {
            organizationId: transfer.organizationId,
            environment: transfer.environment,
            actor: writes.audit.actor,
            action: writes.audit.action,
            resource: 'transfer',
            resourceId: transfer.id,
            walletId: transfer.walletId,
            metadata: { from: transfer.status, to: after.status },
            createdAt: at,
          },
          ids,
        ),
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

  /** INITIATED -> PENDING: the rail took the transfer (the test helper's forced submission names its own acceptance). */
  function submit(
    transfer: Transfer,
    accepted: RailAcceptance,
    audit?: TransitionAudit,
  ): Promise<Transfer | undefined> {
    const set = {
      submittedAt: clock.now().toISOString(),
      settleAt: accepted.settleAt,
      railReference: accepted.reference,
      reconcileAt: reconcileAfter(transfer.environment, new Date(accepted.settleAt), deps.timeScale),
    };
    return transition(transfer, 'submit', set, { events: [], audit });
  }

  /** INITIATED -> FAILED: the rail refused the transfer, or there was nothing to send it to. */
  function reject(transfer: Transfer, reason: string, audit?: TransitionAudit): Promise<Transfer | undefined> {
    const at = clock.now().toISOString();
    return endUnpaid(transfer, 'reject', at, { failedAt: at, failureReason: reason }, audit);
  }

  /** PENDING -> FAILED: the rail failed it at settlement, or the wallet can no longer take a deposit. */
  function fail(transfer: Transfer, reason: string, audit?: TransitionAudit): Promise<Transfer | undefined> {
    const at = clock.now().toISOString();
    return endUnpaid(transfer, 'fail', at, { failedAt: at, failureReason: reason }, audit);
  }

  /** PENDING -> CANCELLED, once the rail confirmed it stopped the transfer. */
  function cancel(transfer: Transfer, audit: TransitionAudit): Promise<Transfer | undefined> {
    const at = clock.now().toISOString();
    return endUnpaid(transfer, 'cancel', at, { cancelledAt: at }, audit);
  }

  /**
   * A transfer that ends without moving money: a withdrawal's hold is voided (amount and fee
   * available again); a link transfer's only when its rider says so (otherwise the hold is the link's again).
   */
  async function endUnpaid(
    transfer: Transfer,
    trigger: 'reject' | 'fail' | 'cancel',
    at: string,
    set: Partial<Transfer>,
    audit: TransitionAudit | undefined,
  ): Promise<Transfer | undefined> {
    const unpaid = linkOf(transfer) ? await linkRider.onUnpaid(afterOf(transfer, trigger, set), at) : undefined;
    const voids = transfer.direction === 'WITHDRAWAL' && (unpaid?.voidHold ?? true);
    const movement = voids ? withdrawalVoid(transfer, ids('transaction'), at, unpaid?.holdTakenAt) : undefined;
    return transition(transfer, trigger, set, {
      ...(movement ? { movement } : {}),
      events: [],
      audit,
      ...(unpaid ? { link: unpaid.changes } : {}),
    });
  }

  /** PENDING -> COMPLETED: a withdrawal's hold is captured, a deposit credited. */
  function complete(transfer: Transfer, audit?: TransitionAudit): Promise<Transfer | undefined> {
    return transfer.direction === 'WITHDRAWAL' ? captureWithdrawal(transfer, audit) : creditDeposit(transfer, audit);
  }

  async function captureWithdrawal(
    transfer: Transfer,
    audit: TransitionAudit | undefined,
  ): Promise<Transfer | undefined> {
    const at = clock.now().toISOString();
    const transactionId = ids('transaction');
    const set = { completedAt: at, transactionId };
    const link = linkOf(transfer) ? await linkRider.onCompleted(afterOf(transfer, 'complete', set), at) : undefined;
    return transition(transfer, 'complete', set, {
      movement: withdrawalCapture(transfer, transactionId, at),
      events: [],
      audit,
      ...(link ? { link } : {}),
    });
  }

  /** The deposit's net amount to the wallet: an ACH deposit into `pendingBalance` until its clearing ends (wallet.funds_pending). */
  async function creditDeposit(transfer: Transfer, audit: TransitionAudit | undefined): Promise<Transfer | undefined> {
    const now = clock.now();
    const at = now.toISOString();
    const transactionId = ids('transaction');
    const clears = transfer.rail === 'ACH';
    const availableAt = clears
      ? new Date(
          now.getTime() + scaledMs(transfer.environment, ACH_CLEARING_MS[transfer.environment], deps.timeScale),
        ).toISOString()
      : undefined;
    const net = netAmountOf(transfer);
    const fundsPending = clears
      ? [
          eventChange(
            {
              organizationId: transfer.organizationId,
              environment: transfer.environment,
              type: 'wallet.funds_pending',
              data: {
                walletId: transfer.walletId,
                transferId: transfer.id,
                amount: formatAmount(net),
                availableAt: availableAt!,
              },
              createdAt: at,
            },
            ids,
          ),
        ]
      : [];
    try {
      const set = {
        completedAt: at,
        transactionId,
        ...(clears
          ? {
              clearing: 'PENDING' as const,
              availableAt,
              reconcileAt: reconcileAfter(transfer.environment, new Date(availableAt!), deps.timeScale),
            }
          : {}),
      };
      const after = await transition(transfer, 'complete', set, {
        movement: depositCredit(transfer, transactionId, at, clears ? 'pending' : 'available'),
        events: fundsPending,
        audit,
      });
      if (after?.clearing === 'PENDING') await scheduleClearing(after);
      return after;
    } catch (error) {
      // The wallet can not take the money any more (closed: agent deletion waits for open transfers, so
      // only a wallet gone another way): the deposit fails and the rail returns it. A paused wallet takes it.
      if (error instanceof ApiError && (error.code === 'INVALID_STATE' || error.code === 'WALLET_NOT_FOUND'))
        return fail(transfer, error.code === 'INVALID_STATE' ? 'WALLET_CLOSED' : error.code, audit);
      throw error;
    }
  }

  return { submit, reject, fail, cancel, complete };
}

export type TransferTransitions = ReturnType<typeof createTransferTransitions>;
