import { terminalStatesOf, type StateTable } from '../state-table.js';
import type { DisputeStatus } from './types.js';

export type DisputeTrigger = 'respond' | 'resolveForAgent' | 'resolveForMerchant' | 'close' | 'lapse';

/**
 * Dispute states (interface-spec 3.2, decisions.md section 7; docs/api.md "Disputes"). A dispute is
 * created OPEN with its amount in acc_SUSPENSE.
 *
 * - respond: the respondent organization answers (response, evidence);
 * - resolveForAgent / resolveForMerchant / close: the operator's outcome, from OPEN or RESPONDED:
 *   RESOLVED_AGENT pays the held amount to the initiator's paying wallet, the other two return it to
 *   the respondent's wallet;
 * - lapse: the response deadline passed with the dispute still OPEN: RESOLVED_AGENT (actor SYSTEM,
 *   the deadline workflow). A response or a resolution before it wins: every trigger is one
 *   conditional write on the dispute, so exactly one of them moves the money.
 */
export const DISPUTE_STATES = {
  respond: { from: ['OPEN'], to: 'RESPONDED' },
  resolveForAgent: { from: ['OPEN', 'RESPONDED'], to: 'RESOLVED_AGENT' },
  resolveForMerchant: { from: ['OPEN', 'RESPONDED'], to: 'RESOLVED_MERCHANT' },
  close: { from: ['OPEN', 'RESPONDED'], to: 'CLOSED' },
  lapse: { from: ['OPEN'], to: 'RESOLVED_AGENT' },
} as const satisfies StateTable<DisputeStatus, DisputeTrigger>;

export const DISPUTE_END_STATUSES = terminalStatesOf(DISPUTE_STATES);
