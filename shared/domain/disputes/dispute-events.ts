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
    occasion: 'A payment was disputed (OPEN): its amount is in suspense. To both parties.',
    wallets: parties,
  },
  'dispute.responded': {
    payload: 'disputeView',
    occasion: 'The respondent answered (RESPONDED). To both parties.',
    wallets: parties,
  },
  'dispute.resolved': {
    payload: 'disputeView',
    occasion: 'A dispute ended (operator or deadline): the amount went to `creditedWalletId`. To both parties.',
    wallets: parties,
  },
});
