import type { PaymentListing } from '../../domain/ledger/journal-projection.js';
import type { Environment } from '../../domain/tenancy.js';
import { str, type Item, type ItemKey } from '../item.js';
import { shardedKey } from './shards.js';

export const PAYMENT_LISTING_ENTITY = 'PAYMENT_LISTING';

/**
 * The organization-wide payment lists (sent and received, one partition per organization and
 * environment, newest first): projected from the journal by the stream projector, one small
 * item per organization a payment concerns (one for a payment within an organization). The list
 * reads the records themselves (the truth, with their status) by the ids listed here.
 */
export const paymentListingKeys = {
  partition: (organizationId: string, environment: Environment) => `PAYMENTS#${organizationId}#${environment}`,
  /** On shard `shard` of the organization environment's listing (entities/shards.ts; 0: today's key). */
  primary: (listing: PaymentListing, shard = 0): ItemKey => ({
    PK: shardedKey(paymentListingKeys.partition(listing.organizationId, listing.environment), shard),
    SK: `${listing.createdAt}#${listing.transactionId}`,
  }),
};

export const paymentListingCodec = {
  toItem(listing: PaymentListing, shard = 0): Item {
    return {
      ...paymentListingKeys.primary(listing, shard),
      entityType: PAYMENT_LISTING_ENTITY,
      transactionId: listing.transactionId,
    };
  },
  transactionIdOf(item: Item): string {
    return str(item.transactionId);
  },
};
