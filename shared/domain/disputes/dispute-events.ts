import { eventsOf } from '../events/event-declaration.js';
import type * as views from './dispute-view.js';

/**
 * Both parties' wallets: each organization gets its own copy of every dispute event, and an agent
 * key sees it when its wallet is its side's (the initiator's paying wallet, the respondent's
 * receiving wallet; the other side's wallet is never one of its organization's).
 */
const parties = (data: { payerWalletId: string; receivingWalletId: string }) => [
  data.payerWalletId,
  data.receivingWalletId,
];

/** The disputes' events (decisions.md section 8): emitted to BOTH organizations, payload the dispute. */
export const DISPUTE_EVENTS = eventsOf<typeof views>()({
  'dispute.created': {
    payload: 'disputeView',
    occasion:
      'A payment was disputed (OPEN): the amount moved from the receiving wallet to suspense. Sent to both organizations.',
    wallets: parties,
  },
  'dispute.responded': {
    payload: 'disputeView',
    occasion: 'The respondent answered a dispute (RESPONDED). Sent to both organizations.',
    wallets: parties,
  },
  'dispute.resolved': {
    payload: 'disputeView',
    occasion:
      'A dispute ended (RESOLVED_AGENT, RESOLVED_MERCHANT or CLOSED), by the operator or by its deadline: the amount left suspense for `creditedWalletId`. Sent to both organizations.',
    wallets: parties,
  },
});
