import Big from 'big.js';
import { APPROVAL_STATES } from '../../shared/domain/approvals/approval-states.js';
import type { ApprovalChange } from '../../shared/domain/approvals/changes.js';
import type { AuditChange } from '../../shared/domain/audit/ports.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { IdempotencyChange, IdempotencySlot } from '../../shared/domain/idempotency/ports.js';
import { HOLD_STATES } from '../../shared/domain/ledger/hold-states.js';
import { journalRecordOf, type JournalRecord } from '../../shared/domain/ledger/journal.js';
import {
  assertBalanced,
  bucketMovementOf,
  BUCKETS,
  type Bucket,
  type Leg,
  type Posting,
  type PostingChange,
  type SpendCount,
} from '../../shared/domain/ledger/posting.js';
import { formatAmount, formatBalance } from '../../shared/domain/money.js';
import type { PaymentChange } from '../../shared/domain/payments/ports.js';
import { TRANSACTION_STATES } from '../../shared/domain/payments/transaction-states.js';
import { periodLimitDenied } from '../../shared/domain/policies/policy-rules.js';
import { fromStatesOf, targetOf } from '../../shared/domain/state-table.js';
import type {
  Approval,
  AuditEntry,
  IdempotencyRecord,
  OutboxEvent,
  Page,
  PageRequest,
  Wallet,
} from '../../shared/domain/types.js';

/**
 * The items of the one table the money areas share, in memory: wallets (with their spend counters),
 * journal records, idempotency answers, approvals, the audit entries and events written. The area
 * fakes (memory-payment-store.ts, memory-transfer-store.ts, memory-card-store.ts) add their own
 * items and read from here. Records are never mutated in place, so a commit works on copies of the
 * maps and swaps them in only when every change's condition held: all or nothing.
 *
 * The conditions are the DynamoDB writers' (shared/persistence/writers/*), with the same refusals;
 * test/contracts/* runs the same checks against both, so the two can not drift apart.
 */
export interface WalletRow {
  wallet: Wallet;
  /** `PERIOD#periodKey` -> spent (the wallet item's spend counters). */
  spend: Record<string, Big>;
}

export type MemoryItems = {
  wallets: Map<string, WalletRow>;
  journal: Map<string, JournalRecord>;
  answers: Map<string, IdempotencyRecord>;
  approvals: Map<string, Approval>;
};

export type Applier<C> = (items: MemoryItems & Record<string, Map<string, unknown>>, change: C) => void;

type MoneyChange = PaymentChange | PostingChange | ApprovalChange | IdempotencyChange | AuditChange;

const epochSecondsOf = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const spendKey = (period: string, periodKey: string) => `${period}#${periodKey}`;

export function createMemoryMoneyTable<Extra extends Record<string, Map<string, unknown>> = Record<never, never>>(
  extra: Extra = {} as Extra,
) {
  let items: MemoryItems & Extra = {
    wallets: new Map(),
    journal: new Map(),
    answers: new Map(),
    approvals: new Map(),
    ...extra,
  };
  const audit: AuditEntry[] = [];
  const events: OutboxEvent[] = [];

  /** The slot condition of every write that takes an idempotency key's slot (slotClaimWrite). */
  function claimSlot(next: MemoryItems, slotId: string, createdAt: string): void {
    const answer = next.answers.get(slotId);
    const free = !next.journal.has(slotId) && (!answer || answer.expiresAtEpochS <= epochSecondsOf(createdAt));
    if (!free)
      throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key was processed concurrently.');
    next.answers.delete(slotId);
  }

  function applyPosting(next: MemoryItems, posting: Posting): void {
    assertBalanced(posting);
    const record = journalRecordOf(posting);
    if (posting.record === 'create') {
      if (posting.idempotency) claimSlot(next, posting.transactionId, posting.createdAt);
      else if (next.journal.has(posting.transactionId))
        throw new ApiError('IDEMPOTENCY_KEY_IN_USE', `The movement ${posting.transactionId} exists already.`);
      next.journal.set(record.id, record);
    } else {
      const old = next.journal.get(posting.transactionId);
      if (!old || !(fromStatesOf(TRANSACTION_STATES, 'post') as readonly string[]).includes(old.status))
        throw new ApiError('INVALID_STATE', `The payment is ${String(old?.status ?? 'unknown')}.`, {
          status: old?.status,
        });
      next.journal.set(old.id, {
        ...old,
        status: record.status,
        postedAt: record.postedAt!,
        ...(record.legs ? { legs: record.legs } : {}),
        ...(record.audit ? { audit: record.audit } : {}),
      });
    }
    const byWallet = new Map<string, Leg[]>();
    for (const leg of posting.legs)
      if (leg.account.kind === 'WALLET')
        byWallet.set(leg.account.walletId, [...(byWallet.get(leg.account.walletId) ?? []), leg]);
    for (const [walletId, legs] of byWallet) {
      if (legs.some((leg) => leg.close)) throw new Error('the memory money table does not close wallets');
      moveWallet(next, posting, walletId, legs, posting.spend?.walletId === walletId ? posting.spend : undefined);
    }
    if (posting.settles) {
      const { holdId, trigger, capturedAmount } = posting.settles;
      const hold = next.journal.get(holdId);
      if (!hold || !(fromStatesOf(HOLD_STATES, trigger) as readonly string[]).includes(hold.status))
        throw new ApiError('INVALID_STATE', `The hold is ${String(hold?.status ?? 'unknown')}.`, {
          status: hold?.status,
        });
      next.journal.set(holdId, {
        ...hold,
        status: targetOf(HOLD_STATES, trigger),
        settledBy: posting.transactionId,
        capturedAmount: formatAmount(capturedAmount, 'USDC'),
      });
    }
    if (posting.reverses) {
      const original = next.journal.get(posting.reverses);
      if (!original || !(fromStatesOf(TRANSACTION_STATES, 'reverse') as readonly string[]).includes(original.status)) {
        throw new ApiError(
          'REVERSAL_NOT_ALLOWED',
          `The transaction is ${String(original?.status ?? 'unknown')} and cannot be reversed.`,
          { status: original?.status },
        );
      }
      next.journal.set(original.id, {
        ...original,
        status: targetOf(TRANSACTION_STATES, 'reverse'),
        reversedBy: posting.transactionId,
      });
    }
  }

  /** walletUpdate of posting-writers.ts: the refusals in its mapper's order. */
  function moveWallet(
    next: MemoryItems,
    posting: Posting,
    walletId: string,
    legs: Leg[],
    spend: SpendCount | undefined,
  ): void {
    const row = next.wallets.get(walletId);
    const { delta, taken, settlesHold } = bucketMovementOf(legs);
    // DynamoDB refuses the write (an unused `:spent`): a spend always counts at least one period.
    if (spend && spend.periods.length === 0) throw new Error('a spend without periods (DynamoDB: ValidationException)');
    if (!row) throw new ApiError('WALLET_NOT_FOUND', undefined, { walletId });
    const { wallet } = row;
    if (wallet.environment !== posting.environment) throw new ApiError('ENVIRONMENT_MISMATCH', undefined, { walletId });
    if (!settlesHold && wallet.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId });
    if (wallet.deletedAt)
      throw new ApiError('INVALID_STATE', 'The wallet is closed (its agent was deleted).', { walletId });
    for (const period of spend?.periods ?? []) {
      if (!period.limit) continue;
      const spent = row.spend[spendKey(period.period, period.periodKey)] ?? new Big(0);
      if (spent.plus(spend!.amount).lte(period.limit)) continue;
      throw periodLimitDenied({ period: period.period, limit: period.limit }, spent);
    }
    const balances: Record<Bucket, Big> = {
      available: wallet.balance,
      held: wallet.heldBalance,
      pending: wallet.pendingBalance,
    };
    const short = BUCKETS.find((bucket) => taken[bucket].gt(0) && balances[bucket].lt(taken[bucket]));
    if (short === 'held') throw new ApiError('INVALID_STATE', 'The hold is no longer held.', { walletId });
    if (short === 'pending')
      throw new ApiError('INVALID_STATE', 'The clearing funds were released already.', { walletId });
    if (short)
      throw new ApiError('INSUFFICIENT_FUNDS', undefined, {
        walletId,
        balance: formatBalance(balances.available),
        requested: formatAmount(taken.available),
      });
    const counters = { ...row.spend };
    for (const period of spend?.periods ?? []) {
      const key = spendKey(period.period, period.periodKey);
      counters[key] = (counters[key] ?? new Big(0)).plus(spend!.amount);
    }
    for (const stale of spend?.stale ?? []) delete counters[spendKey(stale.period, stale.periodKey)];
    next.wallets.set(walletId, {
      wallet: {
        ...wallet,
        balance: wallet.balance.plus(delta.available),
        heldBalance: wallet.heldBalance.plus(delta.held),
        pendingBalance: wallet.pendingBalance.plus(delta.pending),
      },
      spend: counters,
    });
  }

  function applyMoney(
    next: MemoryItems,
    change: MoneyChange,
    written: { audit: AuditEntry[]; events: OutboxEvent[] },
  ): void {
    switch (change.type) {
      case 'posting':
        return applyPosting(next, change.posting);
      case 'createTransaction': {
        const record: JournalRecord = {
          ...change.transaction,
          ...(change.idempotency ? { idempotencyFingerprint: change.idempotency.fingerprint } : {}),
          ...(change.approvalExpiresAt ? { approvalExpiresAt: change.approvalExpiresAt } : {}),
        };
        if (change.idempotency) claimSlot(next, record.id, record.createdAt);
        else if (next.journal.has(record.id)) throw new Error(`TXN#${record.id} already exists (id collision)`);
        next.journal.set(record.id, record);
        return;
      }
      case 'setTransactionStatus': {
        const old = next.journal.get(change.transactionId);
        if (change.trigger === 'reverse' && old?.disputeId !== undefined)
          throw new ApiError('REVERSAL_NOT_ALLOWED', 'The payment is disputed.', {
            disputeId: old.disputeId,
          });
        if (!old || !(fromStatesOf(TRANSACTION_STATES, change.trigger) as readonly string[]).includes(old.status)) {
          throw change.onMismatch === 'REVERSAL_NOT_ALLOWED'
            ? new ApiError(
                'REVERSAL_NOT_ALLOWED',
                `The transaction is ${String(old?.status ?? 'unknown')} and cannot be reversed.`,
                { status: old?.status },
              )
            : new ApiError('INVALID_STATE', `The transaction is ${String(old?.status ?? 'unknown')}.`, {
                status: old?.status,
              });
        }
        next.journal.set(old.id, {
          ...old,
          ...(change.fields ?? {}),
          status: targetOf(TRANSACTION_STATES, change.trigger),
        });
        return;
      }
      case 'createApproval':
        if (next.approvals.has(change.approval.id))
          throw new Error(`APPROVAL#${change.approval.id} already exists (id collision)`);
        next.approvals.set(change.approval.id, change.approval);
        return;
      case 'decideApproval': {
        const old = next.approvals.get(change.approval.id);
        if (!old || !(fromStatesOf(APPROVAL_STATES, change.trigger) as readonly string[]).includes(old.status))
          throw new ApiError('INVALID_STATE', `The approval is already ${String(old?.status ?? 'decided')}.`, {
            status: old?.status,
          });
        next.approvals.set(old.id, { ...old, ...change.approval });
        return;
      }
      case 'idempotency':
        claimSlot(next, change.slotId, change.record.createdAt);
        next.answers.set(change.slotId, change.record);
        return;
      case 'audit':
        written.audit.push(change.entry);
        return;
      case 'event':
        written.events.push(change.event);
        return;
    }
  }

  /**
   * Applies the changes on copies of the maps, in order; the first refused condition throws and
   * nothing is kept. `own` applies the area's own changes (undefined: not the area's).
   */
  async function commit<C extends { type: string }>(
    changes: readonly C[],
    own: (next: MemoryItems & Extra, change: C) => boolean = () => false,
  ): Promise<void> {
    const next = Object.fromEntries(Object.entries(items).map(([name, map]) => [name, new Map(map)])) as MemoryItems &
      Extra;
    const written = { audit: [] as AuditEntry[], events: [] as OutboxEvent[] };
    for (const change of changes) if (!own(next, change)) applyMoney(next, change as unknown as MoneyChange, written);
    items = next;
    audit.push(...written.audit);
    events.push(...written.events);
  }

  return {
    get items() {
      return items;
    },
    audit,
    events,
    commit,
    /** A wallet as the tests seed it (the real table: a createWallet write with the balances set). */
    addWallet(wallet: Wallet): void {
      items.wallets.set(wallet.id, { wallet, spend: {} });
    },
    async getWallet(walletId: string): Promise<Wallet | undefined> {
      return items.wallets.get(walletId)?.wallet;
    },
    async getIdempotencySlot(slotId: string): Promise<IdempotencySlot | undefined> {
      const answer = items.answers.get(slotId);
      if (answer) return { kind: 'answer', record: answer };
      const record = items.journal.get(slotId);
      return record ? { kind: 'movement', record } : undefined;
    },
  };
}

export type MemoryMoneyTable = ReturnType<typeof createMemoryMoneyTable>;

/**
 * One page of `all` (already in the store's order), the cursor an offset: what a DynamoDB query
 * answers as to items and `lastKey` (set exactly when more are there; the real key differs, the
 * contract only hands it back).
 */
export function pageOf<T>(all: T[], page: PageRequest): Page<T> {
  const start = typeof page.startKey?.offset === 'number' ? page.startKey.offset : 0;
  const items = all.slice(start, start + page.limit);
  return start + page.limit < all.length ? { items, lastKey: { offset: start + page.limit } } : { items };
}

/** Newest first by `createdAt`, then id: the order of the index queries (`<createdAt>#<id>`, descending). */
export const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number =>
  codeUnitOrder(`${b.createdAt}#${b.id}`, `${a.createdAt}#${a.id}`);

/** The order DynamoDB sorts string keys in (code units), not a locale's collation. */
export const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
