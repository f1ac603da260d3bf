import type { Environment } from '../domain/tenancy.js';

/**
 * The only place that builds key strings. Entity prefixes keep every item type in its own key
 * space; generic index attributes (GSI1PK/GSI1SK, GSI2PK/GSI2SK) carry the list access patterns.
 */
export interface ItemKey {
  PK: string;
  SK: string;
}

const pad = (iso: string) => iso; // ISO 8601 UTC timestamps sort lexically.

export const keys = {
  organization: (organizationId: string): ItemKey => ({ PK: `ORG#${organizationId}`, SK: 'ORG' }),
  /** Per organization and environment: main wallet id and the wallet counter. */
  organizationEnvironment: (organizationId: string, environment: Environment): ItemKey => ({
    PK: `ORG#${organizationId}`,
    SK: `ENV#${environment}`,
  }),

  apiKeyByHash: (hash: string): ItemKey => ({ PK: `KEYHASH#${hash}`, SK: 'KEY' }),
  /** A consistent pointer from a key id to its hash item (revocation, rotation). */
  apiKeyById: (keyId: string): ItemKey => ({ PK: `KEY#${keyId}`, SK: 'KEY' }),
  apiKeysOfOrganization: (organizationId: string) => ({ GSI1PK: `ORG#${organizationId}#KEYS` }),
  apiKeyListSort: (createdAt: string, keyId: string) => ({ GSI1SK: `${pad(createdAt)}#${keyId}` }),

  wallet: (walletId: string): ItemKey => ({ PK: `WALLET#${walletId}`, SK: 'WALLET' }),
  walletsOfOrganization: (organizationId: string, environment: Environment) => ({
    GSI1PK: `ORG#${organizationId}#${environment}#WALLETS`,
  }),
  walletListSort: (createdAt: string, walletId: string) => ({ GSI1SK: `${pad(createdAt)}#${walletId}` }),

  /** Ledger entries live in their account's partition, after the account item, newest last. */
  ledgerEntry: (accountPartition: string, createdAt: string, transactionId: string, leg: number): ItemKey => ({
    PK: accountPartition,
    SK: `ENTRY#${pad(createdAt)}#${transactionId}#${leg}`,
  }),
  ledgerEntryPrefix: 'ENTRY#',
  walletPartition: (walletId: string) => `WALLET#${walletId}`,
  /** System accounts keep no balance item (no hot item): their balance is the sum of entries. */
  systemAccountPartition: (environment: Environment, accountId: string) => `ACCOUNT#${environment}#${accountId}`,

  transaction: (transactionId: string): ItemKey => ({ PK: `TXN#${transactionId}`, SK: 'TXN' }),
  transactionsOfOrganization: (organizationId: string, environment: Environment) => ({
    GSI1PK: `ORG#${organizationId}#${environment}#TXNS`,
  }),
  transactionListSort: (createdAt: string, transactionId: string) => ({ GSI1SK: `${pad(createdAt)}#${transactionId}` }),

  auditEntry: (organizationId: string, environment: Environment, createdAt: string, logId: string): ItemKey => ({
    PK: `AUDIT#${organizationId}#${environment}`,
    SK: `${pad(createdAt)}#${logId}`,
  }),
  auditPartition: (organizationId: string, environment: Environment) => `AUDIT#${organizationId}#${environment}`,

  outboxEvent: (eventId: string): ItemKey => ({ PK: `OUTBOX#${eventId}`, SK: 'EVENT' }),

  idempotency: (organizationId: string, environment: Environment, idempotencyKey: string): ItemKey => ({
    PK: `IDEMP#${organizationId}#${environment}#${idempotencyKey}`,
    SK: 'IDEMP',
  }),

  /** Service configuration items (e.g. the cursor signing secret). */
  config: (name: string): ItemKey => ({ PK: `CONFIG#${name}`, SK: 'CONFIG' }),
} as const;
