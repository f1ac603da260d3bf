import { ERROR_CODES } from '../errors.js';
import { noWallet, type EventDeclarations, type EventWallets } from '../events/event-declaration.js';
import { enumOf, id, lazy, view } from '../views.js';
import { paymentView } from './payment-view.js';

/** The payments' events (docs/architecture.md "Events"): payload and when each is committed. */
export const PAYMENT_EVENTS = {
  'payment.posted': { payload: paymentView, occasion: 'A payment posted: the amount moved from the paying wallet to the payee.' },
  'payment.failed': {
    payload: /* @__PURE__ */ lazy(() => view(
      { transactionId: id('transaction', 'The queued payment that failed.'), approvalId: id('approval', 'Its approval.'), failureCode: enumOf(ERROR_CODES, 'Why it could not post.') },
      'A queued payment was approved but could not post.',
      { transactionId: 'txn_9fQw2LmZr4Tb8Ks1', approvalId: 'apr_Lm4Zq8Tr2Wb9Xk1P', failureCode: 'INSUFFICIENT_FUNDS' },
    )),
    occasion: 'A queued payment was approved but could not post (e.g. insufficient funds by then).',
  },
  'payment.reversed': { payload: paymentView, occasion: 'A posted payment was reversed (`POST /v1/payments/{id}/reverse`); `data` is the reversal, the mirror payment (`reversalOf` names the original).' },
} as const satisfies EventDeclarations;

/** Both sides of a payment: the paying wallet and the payee (a system account `acc_...` is no wallet). */
const bothSides = (data: { from: string; to: string }) => [data.from, data.to];

/** The wallets each payment event concerns. */
export const PAYMENT_EVENT_WALLETS = {
  'payment.posted': bothSides,
  // Its payload names no wallet (only the transaction and its approval): organization-wide keys see it.
  'payment.failed': noWallet,
  'payment.reversed': bothSides,
} as const satisfies EventWallets<typeof PAYMENT_EVENTS>;
