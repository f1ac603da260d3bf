import type { Environment } from '../../domain/tenancy.js';
import type { Transaction } from '../../domain/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';

export const TRANSACTION_ENTITY = 'TRANSACTION';

/** The fields of a transaction record as a posting or a queued payment writes them. */
export type TransactionRecord = Record<string, unknown> & { id: string; type: string; organizationId: string; environment: Environment; createdAt: string; from: string; to: string; payeeOrganizationId?: string };

/** Transaction types listed by GET /v1/payments; fundings, budget moves and sweeps show in statements. */
const LISTED_AS_PAYMENTS = new Set(['PAYMENT', 'REVERSAL']);

/**
 * Payments (and reversals) are listed from four sides, each sorted by `${createdAt}#${id}`:
 * GSI1 payer organization, GSI2 payer wallet, GSI3 payee wallet, GSI4 payee organization.
 */
export const transactionKeys = {
  primary: (transactionId: string): ItemKey => ({ PK: `TXN#${transactionId}`, SK: 'TXN' }),
  fromOrganization: (organizationId: string, environment: Environment) => `ORG#${organizationId}#${environment}#TXNS`,
  fromWallet: (walletId: string) => `WALLET#${walletId}#TXNS`,
  toWallet: (walletId: string) => `WALLET#${walletId}#TXNS_IN`,
  toOrganization: (organizationId: string, environment: Environment) => `ORG#${organizationId}#${environment}#TXNS_IN`,
  listSort: (createdAt: string, transactionId: string) => `${createdAt}#${transactionId}`,
};

export const transactionCodec = {
  toItem(record: TransactionRecord): Item {
    const sort = transactionKeys.listSort(record.createdAt, record.id);
    const listed = LISTED_AS_PAYMENTS.has(record.type)
      ? {
          GSI1PK: transactionKeys.fromOrganization(record.organizationId, record.environment),
          GSI1SK: sort,
          GSI2PK: transactionKeys.fromWallet(record.from),
          GSI2SK: sort,
          GSI3PK: transactionKeys.toWallet(record.to),
          GSI3SK: sort,
          GSI4PK: transactionKeys.toOrganization(record.payeeOrganizationId ?? record.organizationId, record.environment),
          GSI4SK: sort,
        }
      : {};
    return { ...transactionKeys.primary(record.id), ...listed, entityType: TRANSACTION_ENTITY, ...record };
  },
  fromItem(item: Item): Transaction {
    return recordOf(item) as unknown as Transaction;
  },
};
