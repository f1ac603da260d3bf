import type { Environment } from '../../domain/tenancy.js';
import type { Transfer } from '../../domain/transfers/types.js';
import { dueQueue } from '../due-queue.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const TRANSFER_ENTITY = 'TRANSFER';

/** GSI4 (sparse): transfers with work ahead, by `reconcileAt` (shared/persistence/due-queue.ts). */
export const OPEN_TRANSFERS = dueQueue('TRANSFERS');

/**
 * A transfer, in its own partition (`TRANSFER#id`). Index entries, each sorted newest first by
 * `${createdAt}#${id}`: GSI1 the transfers of an organization environment, GSI2 the wallet it
 * credits or debits, GSI3 the receiving wallet of an internal transfer; GSI4 (sparse) the
 * transfers with work ahead, by `reconcileAt`. A transfer holds no
 * balance: its money is in the journal and the wallet items.
 */
export const transferKeys = {
  primary: (transferId: string): ItemKey => ({ PK: `TRANSFER#${transferId}`, SK: 'TRANSFER' }),
  ofOrganization: (organizationId: string, environment: Environment) => `TRANSFERS#${organizationId}#${environment}`,
  /** GSI2 and GSI3: a wallet's transfers, within the transfer's organization environment (never keyed by the wallet alone). */
  ofWallet: (organizationId: string, environment: Environment, walletId: string) =>
    `TRANSFERS#${organizationId}#${environment}#WALLET#${walletId}`,
  sort: (transfer: Pick<Transfer, 'createdAt' | 'id'>) => `${transfer.createdAt}#${transfer.id}`,
  /** GSI4 (sparse): transfers with work ahead, by when the reconciler looks at them (`reconcileAt`). */
  open: (transferId: string) => OPEN_TRANSFERS.partitionOf(transferId),
  openSort: (reconcileAt: string, transferId: string) => OPEN_TRANSFERS.sort(transferId, reconcileAt),
};

export const transferCodec = {
  toItem(transfer: Transfer): Item {
    const sort = transferKeys.sort(transfer);
    return {
      ...transferKeys.primary(transfer.id),
      entityType: TRANSFER_ENTITY,
      GSI1PK: transferKeys.ofOrganization(transfer.organizationId, transfer.environment),
      GSI1SK: sort,
      GSI2PK: transferKeys.ofWallet(transfer.organizationId, transfer.environment, transfer.walletId),
      GSI2SK: sort,
      ...(transfer.toWalletId
        ? {
            GSI3PK: transferKeys.ofWallet(transfer.organizationId, transfer.environment, transfer.toWalletId),
            GSI3SK: sort,
          }
        : {}),
      ...(transfer.reconcileAt
        ? { ...transferKeys.open(transfer.id), ...transferKeys.openSort(transfer.reconcileAt, transfer.id) }
        : {}),
      ...transfer,
    };
  },
  fromItem(item: Item): Transfer {
    return recordOf(item) as unknown as Transfer;
  },
};

/** What each index of TRANSFER items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const TRANSFER_INDEXES = {
  TRANSFER: {
    GSI1: 'transfers of an organization environment',
    GSI2: 'transfers of the wallet credited or debited, within the organization environment',
    GSI3: 'internal transfers by receiving wallet, within the organization environment',
    GSI4: 'transfers with work ahead, by reconcileAt (sparse: removed once nothing is left to do)',
  },
} as const satisfies IndexUsage;
