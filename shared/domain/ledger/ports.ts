import type { ChangeCommitter } from '../change-committer.js';
import type { WalletReader } from '../wallets/ports.js';
import type { JournalRecord } from './journal.js';
import type { PostingChange } from './posting.js';

/** What the ledger service needs: the journal records it settles or reverses, the wallets, and the posting commit. */
export interface LedgerStore extends WalletReader, ChangeCommitter<PostingChange> {
  getJournalRecord(transactionId: string): Promise<JournalRecord | undefined>;
}
