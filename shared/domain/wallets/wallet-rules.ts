import Big from 'big.js';
import type { Environment } from '../tenancy.js';
import type { Wallet, WalletType } from '../types.js';

export const MAIN_WALLET_NAME = 'Main wallet';

export function newWallet(fields: {
  id: string;
  organizationId: string;
  environment: Environment;
  name: string;
  agentName?: string | undefined;
  walletType: WalletType;
  isMain: boolean;
  createdAt: string;
}): Wallet {
  return {
    ...fields,
    status: 'ACTIVE',
    balance: new Big(0),
    pendingBalance: new Big(0),
    heldBalance: new Big(0),
    currency: 'USD',
  };
}

export function newMainWallet(id: string, organizationId: string, environment: Environment, createdAt: string): Wallet {
  return newWallet({
    id,
    organizationId,
    environment,
    name: MAIN_WALLET_NAME,
    walletType: 'ORG',
    isMain: true,
    createdAt,
  });
}
