import type { Environment } from '../../domain/tenancy.js';
import type { Wallet } from '../../domain/types.js';
import { str, type Item, type ItemKey } from '../item.js';

export const WALLET_LISTING_ENTITY = 'WALLET_LISTING';

/**
 * The wallets of an organization's environment, newest first: one small item per wallet, written
 * with it and never changed (a wallet's type and creation never change). Lists read the wallet
 * items by the ids listed here, so no balance is ever copied into an index: a posting writes no
 * index entry for the wallets it moves.
 */
export const walletListingKeys = {
  partition: (organizationId: string, environment: Environment) => `WALLETS#${organizationId}#${environment}`,
  primary: (wallet: Pick<Wallet, 'organizationId' | 'environment' | 'createdAt' | 'id'>): ItemKey => ({
    PK: walletListingKeys.partition(wallet.organizationId, wallet.environment),
    SK: `${wallet.createdAt}#${wallet.id}`,
  }),
};

export const walletListingCodec = {
  toItem(wallet: Wallet): Item {
    return {
      ...walletListingKeys.primary(wallet),
      entityType: WALLET_LISTING_ENTITY,
      walletId: wallet.id,
      walletType: wallet.walletType,
    };
  },
  walletIdOf(item: Item): string {
    return str(item.walletId);
  },
};
