import { formatBalance } from '../domain/money.js';
import type { ApiKey, StatementEntry, Wallet } from '../domain/types.js';

/** Wire shapes of records: money as decimal strings, never internal attributes. */
export function presentWallet(wallet: Wallet) {
  return {
    id: wallet.id,
    object: 'wallet',
    name: wallet.name,
    agentName: wallet.agentName ?? null,
    environment: wallet.environment,
    walletType: wallet.walletType,
    isMain: wallet.isMain,
    status: wallet.status,
    balance: formatBalance(wallet.balance),
    pendingBalance: formatBalance(wallet.pendingBalance),
    heldBalance: formatBalance(wallet.heldBalance),
    currency: wallet.currency,
    createdAt: wallet.createdAt,
  };
}

export function presentBalance(wallet: Wallet) {
  return {
    walletId: wallet.id,
    balance: formatBalance(wallet.balance),
    pendingBalance: formatBalance(wallet.pendingBalance),
    heldBalance: formatBalance(wallet.heldBalance),
    currency: wallet.currency,
  };
}

export function presentApiKey(apiKey: ApiKey) {
  return {
    id: apiKey.id,
    object: 'api_key',
    name: apiKey.name,
    prefix: apiKey.prefix,
    last4: apiKey.last4,
    permissions: apiKey.permissions,
    environment: apiKey.environment,
    walletId: apiKey.walletId,
    status: apiKey.status,
    createdAt: apiKey.createdAt,
    lastUsedAt: apiKey.lastUsedAt ?? null,
    expiresAt: apiKey.expiresAt ?? null,
    revokedAt: apiKey.revokedAt ?? null,
  };
}

export function presentStatementEntry(entry: StatementEntry) {
  return {
    transactionId: entry.transactionId,
    type: entry.type,
    amount: formatBalance(entry.amount),
    balanceAfter: formatBalance(entry.balanceAfter),
    description: entry.description ?? null,
    createdAt: entry.createdAt,
  };
}
