import Big from 'big.js';
import type { Environment } from '../../domain/tenancy.js';
import type { Wallet } from '../../domain/types.js';
import { readBig, readInt, toNumberAttribute } from '../client.js';
import { str, type Item, type ItemKey } from '../item.js';

export const WALLET_ENTITY = 'WALLET';

/**
 * A wallet's partition holds, in sort-key order: its ledger entries (ENTRY#...), its policies
 * (POLICY#...), its spend counters (SPEND#...) and the wallet item itself (WALLET). One query
 * from "POLICY#" reads the wallet with its policies and counters.
 */
export const walletKeys = {
  partition: (walletId: string) => `WALLET#${walletId}`,
  primary: (walletId: string): ItemKey => ({ PK: walletKeys.partition(walletId), SK: 'WALLET' }),
  /** GSI1: the wallets of an organization's environment, newest first. */
  ofOrganization: (organizationId: string, environment: Environment) => ({ GSI1PK: `ORG#${organizationId}#${environment}#WALLETS` }),
  listSort: (createdAt: string, walletId: string) => ({ GSI1SK: `${createdAt}#${walletId}` }),
};

export const walletCodec = {
  toItem(wallet: Wallet): Item {
    return {
      ...walletKeys.primary(wallet.id),
      ...walletKeys.ofOrganization(wallet.organizationId, wallet.environment),
      ...walletKeys.listSort(wallet.createdAt, wallet.id),
      entityType: WALLET_ENTITY,
      id: wallet.id,
      organizationId: wallet.organizationId,
      environment: wallet.environment,
      name: wallet.name,
      agentName: wallet.agentName,
      walletType: wallet.walletType,
      isMain: wallet.isMain,
      status: wallet.status,
      balance: toNumberAttribute(wallet.balance),
      pendingBalance: toNumberAttribute(wallet.pendingBalance),
      heldBalance: toNumberAttribute(wallet.heldBalance),
      currency: wallet.currency,
      createdAt: wallet.createdAt,
      deletedAt: wallet.deletedAt,
      activeKeyId: wallet.activeKeyId,
    };
  },
  fromItem(item: Item): Wallet {
    return {
      id: str(item.id),
      organizationId: str(item.organizationId),
      environment: item.environment as Environment,
      name: str(item.name),
      ...(typeof item.agentName === 'string' ? { agentName: item.agentName } : {}),
      walletType: item.walletType as Wallet['walletType'],
      isMain: item.isMain === true,
      status: item.status as Wallet['status'],
      balance: readBig(item.balance),
      pendingBalance: item.pendingBalance === undefined ? new Big(0) : readBig(item.pendingBalance),
      heldBalance: item.heldBalance === undefined ? new Big(0) : readBig(item.heldBalance),
      currency: 'USD',
      createdAt: str(item.createdAt),
      ...(typeof item.deletedAt === 'string' ? { deletedAt: item.deletedAt } : {}),
      ...(typeof item.activeKeyId === 'string' ? { activeKeyId: item.activeKeyId } : {}),
    };
  },
  /** Postings the wallet took part in (each adds one): a statement read checks nothing landed meanwhile. */
  entryCountOf(item: Item): number {
    return readInt(item.entryCount);
  },
};
