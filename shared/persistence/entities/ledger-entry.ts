import type Big from 'big.js';
import type { LedgerAccount } from '../../domain/ledger/posting.js';
import type { Environment } from '../../domain/tenancy.js';
import { readBig, toNumberAttribute } from '../client.js';
import { str, type Item, type ItemKey } from '../item.js';
import { walletKeys } from './wallet.js';

export const LEDGER_ENTRY_ENTITY = 'LEDGER_ENTRY';

/** One leg of a posting, stored in its account's partition. */
export interface LedgerEntry {
  account: LedgerAccount;
  environment: Environment;
  organizationId: string;
  transactionId: string;
  transactionType: string;
  /** The leg's position in its posting. */
  leg: number;
  /** Signed: negative debits the account. */
  amount: Big;
  createdAt: string;
  description?: string | undefined;
}

const SORT_PREFIX = 'ENTRY#';

/**
 * Ledger entries live in their account's partition, sorted by creation: a wallet's entries
 * before its other items (see walletKeys); a system account keeps no balance item (no hot item),
 * its balance is the sum of its entries.
 */
export const ledgerEntryKeys = {
  accountPartition: (environment: Environment, account: LedgerAccount) =>
    account.kind === 'WALLET' ? walletKeys.partition(account.walletId) : `ACCOUNT#${environment}#${account.accountId}`,
  primary: (entry: Pick<LedgerEntry, 'account' | 'environment' | 'createdAt' | 'transactionId' | 'leg'>): ItemKey => ({
    PK: ledgerEntryKeys.accountPartition(entry.environment, entry.account),
    SK: `${SORT_PREFIX}${entry.createdAt}#${entry.transactionId}#${entry.leg}`,
  }),
  sortPrefix: SORT_PREFIX,
};

export const ledgerEntryCodec = {
  toItem(entry: LedgerEntry): Item {
    return {
      ...ledgerEntryKeys.primary(entry),
      entityType: LEDGER_ENTRY_ENTITY,
      transactionId: entry.transactionId,
      transactionType: entry.transactionType,
      account: entry.account.kind === 'WALLET' ? entry.account.walletId : entry.account.accountId,
      accountKind: entry.account.kind,
      environment: entry.environment,
      organizationId: entry.organizationId,
      amount: toNumberAttribute(entry.amount),
      createdAt: entry.createdAt,
      description: entry.description,
    };
  },
  fromItem(item: Item): Omit<LedgerEntry, 'leg'> {
    const account: LedgerAccount = item.accountKind === 'WALLET' ? { kind: 'WALLET', walletId: str(item.account) } : { kind: 'SYSTEM', accountId: str(item.account) };
    return {
      account,
      environment: item.environment as Environment,
      organizationId: str(item.organizationId),
      transactionId: str(item.transactionId),
      transactionType: str(item.transactionType),
      amount: readBig(item.amount),
      createdAt: str(item.createdAt),
      ...(typeof item.description === 'string' ? { description: item.description } : {}),
    };
  },
};
