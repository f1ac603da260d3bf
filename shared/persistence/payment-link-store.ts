import type { PaymentLinkStore } from '../domain/payment-links/ports.js';
import { createCommitter } from './change-writer.js';
import {
  EXPIRING_LINKS,
  EXPIRING_STATUSES,
  PAYMENT_LINK_ENTITY,
  paymentLinkCodec,
  paymentLinkKeys,
  paymentLinkSlugCodec,
} from './entities/payment-link.js';
import { createIdempotencyStore } from './idempotency-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';
import { approvalWriters } from './writers/approval-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { paymentLinkWriters } from './writers/payment-link-writers.js';
import { postingWriters } from './writers/posting-writers.js';

/** A link by id, alone: what the transfers' link rider reads (its functions bundle no more of the store). */
export function createPaymentLinkReader(table: TableContext): Pick<PaymentLinkStore, 'getPaymentLink'> {
  return {
    async getPaymentLink(linkId) {
      const item = await getItem(table, paymentLinkKeys.primary(linkId));
      return item ? paymentLinkCodec.fromItem(item) : undefined;
    },
  };
}

export function createPaymentLinkStore(table: TableContext): PaymentLinkStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  const { getPaymentLink } = createPaymentLinkReader(table);
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, {
      ...paymentLinkWriters,
      ...postingWriters,
      ...approvalWriters,
      ...idempotencyWriters,
      ...auditWriters,
    }),
    getPaymentLink,
    async getPaymentLinkBySlug(slug) {
      const pointer = await getItem(table, paymentLinkKeys.slug(slug));
      const linkId = pointer ? paymentLinkSlugCodec.linkIdOf(pointer) : undefined;
      return linkId ? getPaymentLink(linkId) : undefined;
    },
    async listExpiringPaymentLinks(now, limit) {
      return (await EXPIRING_LINKS.listDue(table, now, limit, PAYMENT_LINK_ENTITY))
        .map(paymentLinkCodec.fromItem)
        .filter((link) => EXPIRING_STATUSES.includes(link.status));
    },
    listPaymentLinks(scope, filter, page) {
      const byWallet = filter.walletId !== undefined;
      return queryIndex(
        byWallet ? GSI.GSI2 : GSI.GSI1,
        byWallet
          ? paymentLinkKeys.ofWallet(scope.organizationId, scope.environment, filter.walletId!)
          : paymentLinkKeys.ofOrganization(scope.organizationId, scope.environment),
        page,
        paymentLinkCodec.fromItem,
        equalityFilter({ status: filter.status }),
      );
    },
  };
}
