import type { MerchantReader, MerchantStore } from '../domain/merchants/ports.js';
import { createCommitter } from './change-writer.js';
import { merchantWriters } from './writers/merchant-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { merchantCodec, merchantKeys } from './entities/merchant.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader } from './wallet-store.js';

export function createMerchantReader(table: TableContext): MerchantReader {
  return {
    async getMerchant(environment, domain) {
      const item = await getItem(table, merchantKeys.primary(environment, domain));
      return item ? merchantCodec.fromItem(item) : undefined;
    },
  };
}

export function createMerchantStore(table: TableContext): MerchantStore {
  return {
    ...createMerchantReader(table),
    ...createWalletReader(table),
    ...createCommitter(table, { ...merchantWriters, ...auditWriters }),
  };
}
