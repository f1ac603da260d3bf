import type { PaymentLink } from '../../domain/payment-links/types.js';
import type { Environment } from '../../domain/tenancy.js';
import { plainJson, recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';
import { dueQueue } from '../due-queue.js';

export const PAYMENT_LINK_ENTITY = 'PAYMENT_LINK';
export const PAYMENT_LINK_SLUG_ENTITY = 'PAYMENT_LINK_SLUG';

/**
 * A payment link in its own partition (`PAYMENT_LINK#id`), with index entries sorted newest first by
 * `${createdAt}#${id}`: GSI1 the links of an organization environment, GSI2 those funded by a wallet
 * (each partition names the organization and environment). Beside it: the slug's uniqueness item
 * (`PAYMENT_LINK_SLUG#slug` -> link id), written with the link, never taken twice.
 */
/** GSI4 (sparse): links that can still expire (ACTIVE, PENDING_APPROVAL), by `expiresAt` (the expiry sweep's safety net). */
export const EXPIRING_LINKS = dueQueue('PAYMENT_LINKS');
/** The statuses whose links are on the expiry queue. */
export const EXPIRING_STATUSES: readonly string[] = ['ACTIVE', 'PENDING_APPROVAL'];

/** A link's entry on the expiry queue. */
export const expiringEntryOf = (link: Pick<PaymentLink, 'id' | 'expiresAt'>) => ({
  ...EXPIRING_LINKS.partitionOf(link.id),
  ...EXPIRING_LINKS.sort(link.id, link.expiresAt),
});

export const paymentLinkKeys = {
  primary: (linkId: string): ItemKey => ({ PK: `PAYMENT_LINK#${linkId}`, SK: PAYMENT_LINK_ENTITY }),
  slug: (slug: string): ItemKey => ({ PK: `PAYMENT_LINK_SLUG#${slug}`, SK: PAYMENT_LINK_SLUG_ENTITY }),
  ofOrganization: (organizationId: string, environment: Environment) =>
    `PAYMENT_LINKS#${organizationId}#${environment}`,
  ofWallet: (organizationId: string, environment: Environment, walletId: string) =>
    `PAYMENT_LINKS#${organizationId}#${environment}#WALLET#${walletId}`,
  sort: (link: Pick<PaymentLink, 'createdAt' | 'id'>) => `${link.createdAt}#${link.id}`,
};

export const paymentLinkCodec = {
  toItem(link: PaymentLink): Item {
    const sort = paymentLinkKeys.sort(link);
    return {
      ...paymentLinkKeys.primary(link.id),
      entityType: PAYMENT_LINK_ENTITY,
      GSI1PK: paymentLinkKeys.ofOrganization(link.organizationId, link.environment),
      GSI1SK: sort,
      GSI2PK: paymentLinkKeys.ofWallet(link.organizationId, link.environment, link.walletId),
      GSI2SK: sort,
      ...(EXPIRING_STATUSES.includes(link.status) ? expiringEntryOf(link) : {}),
      ...link,
    };
  },
  fromItem(item: Item): PaymentLink {
    // Metadata and restrictions are plain JSON (strings and string lists).
    return plainJson(recordOf(item)) as PaymentLink;
  },
};

export const paymentLinkSlugCodec = {
  toItem: (slug: string, linkId: string): Item => ({
    ...paymentLinkKeys.slug(slug),
    entityType: PAYMENT_LINK_SLUG_ENTITY,
    paymentLinkId: linkId,
  }),
  linkIdOf: (item: Item): string | undefined =>
    typeof item.paymentLinkId === 'string' ? item.paymentLinkId : undefined,
};

/** What each index of PAYMENT_LINK items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const PAYMENT_LINK_INDEXES = {
  PAYMENT_LINK: {
    GSI1: 'payment links of an organization environment',
    GSI2: 'payment links funded by a wallet (within its organization environment)',
    GSI4: 'ACTIVE and PENDING_APPROVAL links, by expiresAt (sparse: the expiry sweep; off it once claimed or ended)',
  },
} as const satisfies IndexUsage;
