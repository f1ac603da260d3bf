import { formatBalance } from '../domain/money.js';
import type { ApiKey, Approval, AuditEntry, StatementEntry, Wallet } from '../domain/types.js';

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

/** Wire shape of decisions.md section 3 (internal fields such as the requesting key stay inside). */
export function presentApproval(approval: Approval) {
  return {
    id: approval.id,
    object: 'approval',
    status: approval.status,
    walletId: approval.walletId,
    payment: approval.payment,
    transactionId: approval.transactionId,
    reason: approval.reason,
    failureCode: approval.failureCode ?? null,
    note: approval.note ?? null,
    rejectionReason: approval.rejectionReason ?? null,
    createdAt: approval.createdAt,
    decidedAt: approval.decidedAt ?? null,
    decidedBy: approval.decidedBy ?? null,
    expiresAt: approval.expiresAt,
  };
}

/** Wire shape of interface-spec 2.11 (the wallet index attribute stays inside). */
export function presentAuditEntry(entry: AuditEntry) {
  return {
    id: entry.id,
    organizationId: entry.organizationId,
    actorType: entry.actorType,
    actorId: entry.actorId,
    action: entry.action,
    resource: entry.resource,
    resourceId: entry.resourceId,
    metadata: entry.metadata,
    ipAddress: entry.ipAddress,
    createdAt: entry.createdAt,
  };
}
