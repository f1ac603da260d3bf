import { ApiError } from '../../domain/errors.js';
import type { PaymentLinkChange } from '../../domain/payment-links/changes.js';
import { PAYMENT_LINK_STATES } from '../../domain/payment-links/payment-link-states.js';
import {
  EXPIRING_STATUSES,
  expiringEntryOf,
  paymentLinkCodec,
  paymentLinkKeys,
  paymentLinkSlugCodec,
} from '../entities/payment-link.js';
import { put, transitionUpdate, type ChangeWriters } from '../write-builders.js';

/** A failed condition of a link's transition: gone, or in another state (a second claim, a cancel racing an expiry). */
const refusal = (old: Record<string, unknown> | undefined) =>
  old
    ? new ApiError('INVALID_STATE', `The payment link is ${String(old.status)}.`, { status: old.status })
    : new ApiError('PAYMENT_LINK_NOT_FOUND');

export const paymentLinkWriters: ChangeWriters<PaymentLinkChange> = {
  /** The link and its slug's uniqueness item: one transaction, so a slug never names two links. */
  putPaymentLink: (tableName, change) => [
    put(tableName, paymentLinkCodec.toItem(change.link)),
    put(
      tableName,
      paymentLinkSlugCodec.toItem(change.link.slug, change.link.id),
      () => new ApiError('CONCURRENT_UPDATE', 'The generated slug is taken; retry.', { retryAfter: 1 }),
    ),
  ],

  transitionPaymentLink: (tableName, change) => {
    const { status: _ignored, ...fields } = change.set;
    const transition = PAYMENT_LINK_STATES[change.trigger];
    // The expiry queue (GSI4): off it once claimed or ended; back on it when ACTIVE again after a
    // failed claim (the change then names `expiresAt`); an approved link keeps its entry.
    const expiring = EXPIRING_STATUSES.includes(transition.to);
    const entry =
      expiring && change.set.expiresAt ? expiringEntryOf({ id: change.linkId, expiresAt: change.set.expiresAt }) : {};
    return [
      transitionUpdate(tableName, paymentLinkKeys.primary(change.linkId), transition, {
        set: { ...fields, ...entry },
        remove: expiring ? [] : ['GSI4PK', 'GSI4SK'],
        condition: 'attribute_exists(PK)',
        onConditionFailed: refusal,
      }),
    ];
  },
};
