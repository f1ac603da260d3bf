import type { Environment } from '../../domain/tenancy.js';
import type { Transfer } from '../../domain/transfers/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';

export const TRANSFER_ENTITY = 'TRANSFER';

/** Partitions of the open-transfers index (GSI4). */
const OPEN_SHARDS = 8;
const shardOf = (transferId: string): number => [...transferId].reduce((sum, character) => (sum * 31 + character.charCodeAt(0)) % 1_000_003, 7) % OPEN_SHARDS;

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
  ofWallet: (walletId: string) => `WALLET#${walletId}#TRANSFERS`,
  sort: (transfer: Pick<Transfer, 'createdAt' | 'id'>) => `${transfer.createdAt}#${transfer.id}`,
  /**
   * GSI4 (sparse): transfers with work ahead, by when the reconciler looks at them (`reconcileAt`),
   * spread over OPEN_SHARDS partitions by transfer id so no single index partition takes every write.
   */
  open: (transferId: string) => ({ GSI4PK: `TRANSFERS#OPEN#${shardOf(transferId)}` }),
  openShards: (): string[] => Array.from({ length: OPEN_SHARDS }, (_, shard) => `TRANSFERS#OPEN#${shard}`),
  openSort: (reconcileAt: string, transferId: string) => ({ GSI4SK: `${reconcileAt}#${transferId}` }),
  /** Everything due before `now` sorts below this. */
  dueBefore: (now: Date) => `${now.toISOString()}#`,
};

export const transferCodec = {
  toItem(transfer: Transfer): Item {
    const sort = transferKeys.sort(transfer);
    return {
      ...transferKeys.primary(transfer.id),
      entityType: TRANSFER_ENTITY,
      GSI1PK: transferKeys.ofOrganization(transfer.organizationId, transfer.environment),
      GSI1SK: sort,
      GSI2PK: transferKeys.ofWallet(transfer.walletId),
      GSI2SK: sort,
      ...(transfer.toWalletId ? { GSI3PK: transferKeys.ofWallet(transfer.toWalletId), GSI3SK: sort } : {}),
      ...(transfer.reconcileAt ? { ...transferKeys.open(transfer.id), ...transferKeys.openSort(transfer.reconcileAt, transfer.id) } : {}),
      ...transfer,
    };
  },
  fromItem(item: Item): Transfer {
    return recordOf(item) as unknown as Transfer;
  },
};
