import type { PaymentLinkTrigger } from './payment-link-states.js';
import type { PaymentLink } from './types.js';

/**
 * The payment-links area's changes (a leaf: the transfer and approval stores commit the
 * transition too, when a transfer or an approval decides a link's fate in its own transaction).
 */
export type PaymentLinkChange =
  /** A new link and its slug's uniqueness item; fails if either exists. */
  | { type: 'putPaymentLink'; link: PaymentLink }
  /**
   * Moves a link by a trigger of PAYMENT_LINK_STATES, conditioned on its `from` states (INVALID_STATE
   * otherwise: a second claim, a cancel racing an expiry), setting `set` and `updatedAt`.
   */
  | { type: 'transitionPaymentLink'; linkId: string; trigger: PaymentLinkTrigger; set: Partial<PaymentLink> };
