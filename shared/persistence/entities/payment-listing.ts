import type { PaymentListing } from '../../domain/ledger/journal-projection.js';
import type { Environment } from '../../domain/tenancy.js';
import { str, type Item, type ItemKey } from '../item.js';

export const PAYMENT_LISTING_ENTITY = 'PAYMENT_LISTING';

/**
 * The organization-wide payment lists (sent and received, one partition per organization and
 * environment, newest first): projected from the journal by the stream projector, one small
 * item per organization a payment concerns (one for a payment within an organization). The list
 * reads the records themselves (the truth, with their status) by the ids listed here.
 */
export const paymentListingKeys = {
  partition: (organizationId: string, environment: Environment) => `PAYMENTS#${organizationId}#${environment}`,
  primary: (listing: PaymentListing): ItemKey => ({
    PK: paymentListingKeys.partition(listing.organizationId, listing.environment),
    SK: `${listing.createdAt}#${listing.transactionId}`,
  }),
};

export const paymentListingCodec = {
  toItem(listing: PaymentListing): Item {
    return {
      ...paymentListingKeys.primary(listing),
      entityType: PAYMENT_LISTING_ENTITY,
      transactionId: listing.transactionId,
    };
  },
  transactionIdOf(item: Item): string {
    return str(item.transactionId);
  },
};
