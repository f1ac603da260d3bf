import type Big from 'big.js';
import type { Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { formatAmount } from '../money.js';
import { canTransition } from '../state-table.js';
import type { OrganizationScope } from '../tenancy.js';
import { HOLD_STATES, type HoldStatus, type HoldTrigger } from './hold-states.js';
import { journalRecordOf, postingLegsOf, type JournalRecord } from './journal.js';
import { captureLegs, holdLegs, reversalLegs, voidLegs } from './movements.js';
import type { LedgerStore } from './ports.js';
import {
  accountIdOf,
  transferLegs,
  walletAccount,
  type LedgerAccount,
  type Posting,
  type TransactionType,
} from './posting.js';

/**
 * The ledger's movements (shared/ARCHITECTURE.md "the journal is the truth"): post (one phase),
 * hold, capture (full or partial, the rest released), void, and the reversing movement. Each is
 * one transaction: its balanced legs under their conditions, its journal record, and for a
 * capture, void or reversal the state change of the record it settles, conditioned so it happens
 * at most once. A movement may name its id (`movementId`): a retry with the same id, after any
 * failure, applies it at most once and answers the record.
 *
 * Nothing user-facing uses holds yet (card authorizations, payment links and pending withdrawals
 * will); payments post through the payments service with the same posting writer.
 */
export interface LedgerDeps {
  store: LedgerStore;
  clock: Clock;
  ids: IdGenerator;
}

interface MovementOptions {
  movementId?: string;
}

/** Movements that can be reversed: a plain transfer of available money that posted. */
const REVERSIBLE: ReadonlySet<TransactionType> = new Set(['PAYMENT', 'FUNDING', 'BUDGET_ADJUSTMENT']);

export function createLedgerService(deps: LedgerDeps) {
  const { store, clock, ids } = deps;

  /** Commits a posting; if its id exists already (an earlier attempt of the same movement), answers that record. */
  async function commit(posting: Posting): Promise<JournalRecord> {
    try {
      await store.commit([{ type: 'posting', posting }]);
      return journalRecordOf(posting);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'IDEMPOTENCY_KEY_IN_USE') throw error;
      const existing = await store.getJournalRecord(posting.transactionId);
      if (!existing || existing.type !== posting.type) throw error;
      return existing;
    }
  }

  function base(scope: OrganizationScope, type: TransactionType, options: MovementOptions) {
    const at = clock.now().toISOString();
    return {
      transactionId: options.movementId ?? ids('transaction'),
      type,
      ...scope,
      currency: 'USD' as const,
      createdAt: at,
      record: 'create' as const,
      at,
    };
  }

  async function load(scope: OrganizationScope, transactionId: string): Promise<JournalRecord> {
    const record = await store.getJournalRecord(transactionId);
    if (!record || record.organizationId !== scope.organizationId || record.environment !== scope.environment)
      throw notFound('TRANSACTION_NOT_FOUND', transactionId);
    return record;
  }

  /**
   * Runs a movement's precondition; when it fails and the movement names its id, the movement may
   * be a retry of one that committed (its answer lost): its record is then the answer.
   */
  async function unlessDone<T>(
    options: MovementOptions,
    type: TransactionType,
    check: () => Promise<T>,
  ): Promise<{ done: JournalRecord } | { value: T }> {
    try {
      return { value: await check() };
    } catch (error) {
      if (!(error instanceof ApiError) || !options.movementId) throw error;
      const done = await store.getJournalRecord(options.movementId);
      if (done?.type !== type) throw error;
      return { done };
    }
  }

  async function loadHeld(
    scope: OrganizationScope,
    holdId: string,
    trigger: HoldTrigger,
  ): Promise<{ hold: JournalRecord; amount: Big; walletId: string }> {
    const hold = await load(scope, holdId);
    if (hold.type !== 'HOLD') throw notFound('TRANSACTION_NOT_FOUND', holdId);
    if (!canTransition(HOLD_STATES, hold.status as HoldStatus, trigger))
      throw new ApiError('INVALID_STATE', `The hold is already ${hold.status}.`, { status: hold.status });
    const { amount } = postingLegsOf(hold).find((leg) => leg.bucket === 'held')!;
    return { hold, amount, walletId: hold.from };
  }

  /** One-phase: `amount` from one account to another (a wallet debit needs the funds, both wallets ACTIVE). */
  function post(
    scope: OrganizationScope,
    input: { from: LedgerAccount; to: LedgerAccount; amount: Big; type?: 'PAYMENT' | 'FUNDING' } & MovementOptions,
  ): Promise<JournalRecord> {
    const { at, ...head } = base(scope, input.type ?? 'PAYMENT', input);
    return commit({
      ...head,
      legs: transferLegs(input.from, input.to, input.amount),
      attributes: {
        from: accountIdOf(input.from),
        to: accountIdOf(input.to),
        amount: formatAmount(input.amount),
        fee: '0.00',
        status: 'POSTED',
        postedAt: at,
      },
    });
  }

  /** available -> held on one wallet, if it has the amount available. The hold's record is HELD. */
  function hold(
    scope: OrganizationScope,
    input: { walletId: string; amount: Big } & MovementOptions,
  ): Promise<JournalRecord> {
    const { at, ...head } = base(scope, 'HOLD', input);
    return commit({
      ...head,
      legs: holdLegs(input.walletId, input.amount),
      attributes: {
        from: input.walletId,
        to: input.walletId,
        amount: formatAmount(input.amount),
        fee: '0.00',
        status: 'HELD',
        postedAt: at,
      },
    });
  }

  /** Takes the hold out of held: `amount` (default all of it) to `to`, the rest back to available. Once. */
  async function capture(
    scope: OrganizationScope,
    holdId: string,
    input: { to: LedgerAccount; amount?: Big } & MovementOptions,
  ): Promise<JournalRecord> {
    const loaded = await unlessDone(input, 'CAPTURE', () => loadHeld(scope, holdId, 'capture'));
    if ('done' in loaded) return loaded.done;
    const { amount, walletId } = loaded.value;
    const captured = input.amount ?? amount;
    const { at, ...head } = base(scope, 'CAPTURE', input);
    return commit({
      ...head,
      legs: captureLegs({ walletId, amount }, captured, input.to),
      attributes: {
        from: walletId,
        to: accountIdOf(input.to),
        amount: formatAmount(captured),
        fee: '0.00',
        status: 'POSTED',
        postedAt: at,
        holdId,
      },
      settles: { holdId, trigger: 'capture', capturedAmount: captured },
    });
  }

  /** Releases the whole hold back to available. Once. */
  async function voidHold(
    scope: OrganizationScope,
    holdId: string,
    input: MovementOptions = {},
  ): Promise<JournalRecord> {
    const loaded = await unlessDone(input, 'VOID', () => loadHeld(scope, holdId, 'void'));
    if ('done' in loaded) return loaded.done;
    const { amount, walletId } = loaded.value;
    const { at, ...head } = base(scope, 'VOID', input);
    return commit({
      ...head,
      legs: voidLegs({ walletId, amount }),
      attributes: {
        from: walletId,
        to: walletId,
        amount: formatAmount(amount),
        fee: '0.00',
        status: 'POSTED',
        postedAt: at,
        holdId,
      },
      settles: { holdId, trigger: 'void', capturedAmount: amount.times(0) },
    });
  }

  /** The mirror of a posted movement (its receiving side pays back, under the same conditions); the original becomes REVERSED. Once. */
  async function reverse(
    scope: OrganizationScope,
    transactionId: string,
    input: MovementOptions = {},
  ): Promise<JournalRecord> {
    const loaded = await unlessDone(input, 'REVERSAL', async () => {
      const record = await load(scope, transactionId);
      if (!REVERSIBLE.has(record.type) || record.status !== 'POSTED') {
        throw new ApiError(
          'REVERSAL_NOT_ALLOWED',
          `A ${record.status} ${record.type.toLowerCase()} cannot be reversed.`,
          { status: record.status },
        );
      }
      return { original: record };
    });
    if ('done' in loaded) return loaded.done;
    const { original } = loaded.value;
    const { at, ...head } = base(scope, 'REVERSAL', input);
    return commit({
      ...head,
      legs: reversalLegs(postingLegsOf(original)),
      attributes: {
        from: original.to,
        to: original.from,
        amount: original.amount,
        fee: '0.00',
        status: 'POSTED',
        postedAt: at,
        reversalOf: original.id,
      },
      reverses: original.id,
    });
  }

  return { post, hold, capture, void: voidHold, reverse, walletAccount };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
