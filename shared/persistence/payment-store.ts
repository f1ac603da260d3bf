import type { PaymentReadResult, PaymentStore, TransactionReader } from '../domain/payments/ports.js';
import { TRANSACTION_TYPES } from '../domain/payments/payment-view.js';
import { createCommitter } from './change-writer.js';
import { paymentWriters } from './writers/payment-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { approvalWriters } from './writers/approval-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { riderWriters } from './writers/invoice-writers.js';
import { merchantCodec, merchantKeys } from './entities/merchant.js';
import { paymentListingCodec, paymentListingKeys } from './entities/payment-listing.js';
import { journalCodec, transactionCodec, transactionKeys } from './entities/transaction.js';
import { walletCodec, walletKeys } from './entities/wallet.js';
import { idempotencyKeys } from './entities/idempotency.js';
import { createIdempotencyStore, slotOf } from './idempotency-store.js';
import type { Item, ItemKey } from './item.js';
import { createMerchantReader } from './merchant-store.js';
import { batchGetItems, itemAt, listedPage, type Filter } from './queries.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';
import { walletJournalPage } from './wallet-journal.js';
import { shardedKeys } from './entities/shards.js';
import { orgShardCount } from './org-shards.js';
import { isShardCursor, shardedListedPage } from './sharded-pages.js';

const PAYMENT_TYPES = ['PAYMENT', 'REVERSAL'] as const;

const mapped = <T>(item: Item | undefined, decode: (item: Item) => T): T | null => (item ? decode(item) : null);

export function createTransactionReader(table: TableContext): TransactionReader {
  return {
    async getTransaction(transactionId) {
      const item = await getItem(table, transactionKeys.primary(transactionId));
      // A key's slot may hold a stored answer instead of a journal record, and the two-phase
      // movements (holds, captures, voids) are no payments yet: no transaction there.
      if (!journalCodec.isJournalRecord(item)) return undefined;
      const transaction = transactionCodec.fromItem(item!);
      return (TRANSACTION_TYPES as readonly string[]).includes(transaction.type) ? transaction : undefined;
    },
  };
}

/** The payments of one wallet: its journal records of type PAYMENT or REVERSAL (in this environment, with this status). */
function paymentsFilter(environment: string, status: string | undefined): Filter {
  return {
    expression: `#f_type IN (:f_t0, :f_t1) AND #f_environment = :f_environment${status ? ' AND #f_status = :f_status' : ''}`,
    names: { '#f_type': 'type', '#f_environment': 'environment', ...(status ? { '#f_status': 'status' } : {}) },
    values: {
      ':f_t0': PAYMENT_TYPES[0],
      ':f_t1': PAYMENT_TYPES[1],
      ':f_environment': environment,
      ...(status ? { ':f_status': status } : {}),
    },
  };
}

export function createPaymentStore(table: TableContext): PaymentStore {
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createMerchantReader(table),
    ...createTransactionReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, {
      ...paymentWriters,
      ...postingWriters,
      ...approvalWriters,
      ...idempotencyWriters,
      ...auditWriters,
      ...riderWriters,
    }),
    async readTogether(reads) {
      const keys: { slot?: ItemKey; wallet?: ItemKey; merchant?: ItemKey } = {
        ...(reads.slotId !== undefined ? { slot: idempotencyKeys.slot(reads.slotId) } : {}),
        ...(reads.walletId !== undefined ? { wallet: walletKeys.primary(reads.walletId) } : {}),
        ...(reads.merchant !== undefined
          ? { merchant: merchantKeys.primary(reads.merchant.environment, reads.merchant.domain) }
          : {}),
      };
      const named = Object.entries(keys) as [keyof typeof keys, ItemKey][];
      const items = new Map<keyof typeof keys, Item | undefined>();
      if (named.length === 1) {
        items.set(named[0]![0], await getItem(table, named[0]![1]));
      } else if (named.length > 1) {
        const found = await batchGetItems(
          table.client,
          table.tableName,
          named.map(([, key]) => key),
        );
        for (const [name, key] of named) items.set(name, itemAt(found, key));
      }
      const result: PaymentReadResult = {};
      if (keys.slot) result.slot = slotOf(items.get('slot')) ?? null;
      if (keys.wallet) result.wallet = mapped(items.get('wallet'), walletCodec.fromItem);
      if (keys.merchant) result.merchant = mapped(items.get('merchant'), merchantCodec.fromItem);
      return result;
    },
    async listTransactions(organizationId, environment, filter, page) {
      if (filter.walletId) {
        // Payments sent and received by the wallet: its debited and credited journal records, merged.
        return walletJournalPage(
          table,
          filter.walletId,
          page,
          transactionCodec.fromItem,
          paymentsFilter(environment, filter.status),
        );
      }
      // The organization's payments (sent and received): its payment listing, the records read by id.
      const target = (listing: Item) => transactionKeys.primary(paymentListingCodec.transactionIdOf(listing));
      const decode = (item: Item) => {
        const transaction = transactionCodec.fromItem(item);
        return filter.status === undefined || transaction.status === filter.status ? transaction : undefined;
      };
      const partition = paymentListingKeys.partition(organizationId, environment);
      const count = await orgShardCount(table, organizationId, environment);
      // A cursor of the list before the organization was sharded goes on over shard 0 (entities/shards.ts).
      if (count > 1 && (page.startKey === undefined || isShardCursor(page.startKey)))
        return shardedListedPage(table.client, table.tableName, shardedKeys(partition, count), page, target, decode);
      return listedPage(table.client, table.tableName, partition, page, target, decode);
    },
  };
}
