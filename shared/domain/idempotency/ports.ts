import type { ChangeCommitter } from '../change-committer.js';
import type { JournalRecord } from '../ledger/journal.js';
import type { IdempotencyRecord } from '../types.js';

/**
 * An idempotency key's claim lives in its *slot*: the item of the transaction id derived from the
 * organization, environment and key (shared/domain/idempotency/idempotency.ts). A movement's
 * journal record is written there, so the movement and its claim are one item; an answer decided
 * without a movement (a stored refusal, a batch's claim) is written there instead.
 */
export type IdempotencySlot =
  { kind: 'movement'; record: JournalRecord } | { kind: 'answer'; record: IdempotencyRecord };

export type IdempotencyChange =
  /**
   * Stores an answer in a key's slot, free or holding an answer whose window is over; fails with
   * IDEMPOTENCY_KEY_IN_USE when the slot was taken meanwhile.
   */
  { type: 'idempotency'; slotId: string; record: IdempotencyRecord };

/** What the idempotency helpers need: the content of a slot, and the commit that stores an answer in one. */
export interface IdempotencyStore extends ChangeCommitter<IdempotencyChange> {
  getIdempotencySlot(slotId: string): Promise<IdempotencySlot | undefined>;
}

export interface IdempotencyCompleter {
  /** Saves the first answer onto the journal record of a movement whose answer is known only after its commit. */
  completeIdempotentMovement(transactionId: string, reply: string): Promise<void>;
}
