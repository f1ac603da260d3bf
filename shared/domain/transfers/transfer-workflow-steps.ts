import { eventChange } from '../audit/audit.js';
import { ApiError } from '../errors.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import { formatAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { Environment } from '../tenancy.js';
import type { TransferRail, TransferStepInput, TransferStepOutput, TransferStore } from './ports.js';
import type { TransferCounterparties } from './transfer-counterparties.js';
import { clearingRelease } from './transfer-postings.js';
import { reconcileAfter } from './transfer-rules.js';
import { reloadTransfer, type TransferTransitions } from './transfer-transitions.js';
import { netAmountOf } from './transfer-view.js';
import type { Transfer } from './types.js';

/** Transfers one reconciler call handles (the sweep calls again while there are more). */
export const RECONCILE_BATCH_SIZE = 25;

export interface TransferWorkflowStepsOptions {
  rails: Record<Environment, TransferRail>;
  counterparties: TransferCounterparties;
  transitions: TransferTransitions;
  scheduleClearing: (transfer: Transfer) => Promise<void>;
  log: Pick<Console, 'error'>;
}

/** Schedules the end of a completed ACH deposit's clearing (the `expiry` worker releases it); nothing without a scheduler (the reconciler releases it then). */
export function clearingScheduler(expiries: ExpiryScheduler | undefined): (transfer: Transfer) => Promise<void> {
  return async (transfer) => {
    if (!expiries || !transfer.availableAt) return;
    await expiries.schedule({ kind: 'clearing', id: transfer.id }, transfer.availableAt);
  };
}

const outputOf = (transfer: Transfer): TransferStepOutput => ({
  transferId: transfer.id,
  status: transfer.status,
  ...(transfer.status === 'PENDING' && transfer.settleAt ? { settleAt: transfer.settleAt } : {}),
});

/**
 * The work that moves a transfer after its creation: the transfer workflow's steps (submit,
 * settle), the end of an ACH deposit's clearing, and the reconciler that does any of them a
 * workflow or an expiry schedule missed. All idempotent: each goes through the transitions,
 * conditioned on the state table.
 */
export function createTransferWorkflowSteps(deps: ServiceDeps<TransferStore>, options: TransferWorkflowStepsOptions) {
  const { store, clock, ids } = deps;
  const { rails, counterparties, transitions, scheduleClearing, log } = options;

  /** Hands the transfer to its rail: PENDING when the rail takes it, FAILED when it refuses it. */
  async function submitToRail(transfer: Transfer): Promise<Transfer | undefined> {
    const told = await counterparties.submissionOf(transfer);
    // A linked bank account deleted before submission: nothing to send the money to or take it from.
    if (told.counterparty.kind === 'bank' && !told.counterparty.accountNumber && !told.counterparty.counterpartyId)
      return transitions.reject(transfer, 'BANK_ACCOUNT_DELETED');
    const result = await rails[transfer.environment].submit(told);
    if (!result.accepted) return transitions.reject(transfer, result.reason);
    return transitions.submit(transfer, { reference: result.reference, settleAt: result.settleAt });
  }

  /**
   * One step of the transfer workflow. Idempotent: a step finding its work done (a retry, a test
   * helper, a cancel that won) answers the status as it is, and the workflow ends.
   */
  async function runStep(input: TransferStepInput): Promise<TransferStepOutput> {
    const transfer = await reloadTransfer(store, input.transferId);
    if (input.step === 'submit') {
      if (transfer.status !== 'INITIATED') return outputOf(transfer);
      return outputOf((await submitToRail(transfer)) ?? (await reloadTransfer(store, transfer.id)));
    }
    if (transfer.status !== 'PENDING') {
      if (transfer.clearing === 'PENDING') await scheduleClearing(transfer);
      return outputOf(transfer);
    }
    const settlement = await rails[transfer.environment].settlement(counterparties.submittedOf(transfer));
    if (settlement.outcome === 'PENDING')
      return { transferId: transfer.id, status: 'PENDING', settleAt: settlement.settleAt };
    const after =
      settlement.outcome === 'FAILED'
        ? await transitions.fail(transfer, settlement.reason)
        : await transitions.complete(transfer);
    return outputOf(after ?? (await reloadTransfer(store, transfer.id)));
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
        eventChange(
          {
            organizationId: transfer.organizationId,
            environment: transfer.environment,
            type: 'wallet.funds_available',
            data: { walletId: transfer.walletId, transferId, amount: formatAmount(net) },
            createdAt: at,
          },
          ids,
        ),
      ]);
      return 'released';
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_STATE') return 'done';
      throw error;
    }
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
          await store.commit([
            {
              type: 'deferReconcile',
              transferId: after.id,
              status: after.status,
              reconcileAt: reconcileAfter(after.environment, clock.now(), deps.timeScale),
            },
          ]);
        }
      } catch (error) {
        // Moved meanwhile (INVALID_STATE): nothing to defer. Anything else: logged; the next run sees it again.
        if (!(error instanceof ApiError && error.code === 'INVALID_STATE'))
          log.error(`deferring ${transfer.id} failed`, error);
      }
    }
    return due.length;
  }

  return { runStep, releaseClearing, reconcileDue };
}
