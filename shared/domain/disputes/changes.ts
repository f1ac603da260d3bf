import type { DisputeTrigger } from './dispute-states.js';
import type { Dispute, DisputeStatus, FundsRefusals } from './types.js';

/**
 * The disputes area's changes (a leaf module, so other areas' stores may commit them).
 */
export type DisputeChange =
  /**
   * A new dispute, and the disputed payment's journal record marked with its id: conditioned on
   * that record being a POSTED PAYMENT with no dispute yet (so at most one dispute per payment, and
   * a reversal racing it loses: the reversal's condition asks for no `disputeId`).
   */
  | { type: 'putDispute'; dispute: Dispute }
  /**
   * Moves a dispute by a trigger of DISPUTE_STATES, conditioned on its `from` states (INVALID_STATE
   * otherwise: a response racing the deadline, two resolutions), setting `set` and `updatedAt`;
   * with `read`, only from that status (the copy the caller built its answer and events from).
   */
  | {
      type: 'transitionDispute';
      disputeId: string;
      trigger: DisputeTrigger;
      set: Partial<Dispute>;
      read?: DisputeStatus;
    }
  /**
   * One more opening of the payment refused for funds: `refusals` written only while the counter
   * is still `previous` (absent: none yet), CONCURRENT_UPDATE otherwise.
   */
  | { type: 'countFundsRefusal'; transactionId: string; refusals: FundsRefusals; previous?: FundsRefusals };
