import type { LedgerStore } from '../domain/ledger/ports.js';
import { createCommitter } from './change-writer.js';
import { journalCodec, transactionKeys } from './entities/transaction.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader } from './wallet-store.js';
import { postingWriters } from './writers/posting-writers.js';

export function createLedgerStore(table: TableContext): LedgerStore {
  return {
    ...createWalletReader(table),
    ...createCommitter(table, { ...postingWriters }),
    async getJournalRecord(transactionId) {
      const item = await getItem(table, transactionKeys.primary(transactionId));
      return journalCodec.isJournalRecord(item) ? journalCodec.fromItem(item!) : undefined;
    },
  };
}
