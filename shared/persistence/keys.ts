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
  /**
   * Payments (and reversals) are listed from four sides, each sorted by `${createdAt}#${id}`:
   * GSI1 payer organization, GSI2 payer wallet, GSI3 payee wallet, GSI4 payee organization.
   */
  paymentsFromOrganization: (organizationId: string, environment: Environment) => `ORG#${organizationId}#${environment}#TXNS`,
  paymentsFromWallet: (walletId: string) => `WALLET#${walletId}#TXNS`,
  paymentsToWallet: (walletId: string) => `WALLET#${walletId}#TXNS_IN`,
  paymentsToOrganization: (organizationId: string, environment: Environment) => `ORG#${organizationId}#${environment}#TXNS_IN`,

  auditEntry: (organizationId: string, environment: Environment, createdAt: string, logId: string): ItemKey => ({
    PK: `AUDIT#${organizationId}#${environment}`,
    SK: `${pad(createdAt)}#${logId}`,
  }),
  auditPartition: (organizationId: string, environment: Environment) => `AUDIT#${organizationId}#${environment}`,
  /**
   * Audit indexes, one per filter of GET /v1/audit-logs, each sorted by `${createdAt}#${id}`:
   * GSI1 by action, GSI2 by resource id, GSI3 by actor, GSI4 by wallet (wallet-scoped keys).
   */
  auditByAction: (organizationId: string, environment: Environment, action: string) => `AUDIT#${organizationId}#${environment}#ACTION#${action}`,
  auditByResource: (organizationId: string, environment: Environment, resourceId: string) => `AUDIT#${organizationId}#${environment}#RESOURCE#${resourceId}`,
  auditByActor: (organizationId: string, environment: Environment, actorId: string) => `AUDIT#${organizationId}#${environment}#ACTOR#${actorId}`,
  auditByWallet: (organizationId: string, environment: Environment, walletId: string) => `AUDIT#${organizationId}#${environment}#WALLET#${walletId}`,

  /** Policies live in their wallet's partition (read with the wallet in one query); a pointer finds them by id. */
  policy: (walletId: string, policyId: string): ItemKey => ({ PK: `WALLET#${walletId}`, SK: `POLICY#${policyId}` }),
  policyPointer: (policyId: string): ItemKey => ({ PK: `POLICY#${policyId}`, SK: 'POLICY' }),
  policyPrefix: 'POLICY#',
  policiesOfOrganization: (organizationId: string, environment: Environment) => ({ GSI1PK: `ORG#${organizationId}#${environment}#POLICIES` }),
  /** Spend of a wallet in one calendar period, also in the wallet's partition. */
  spendCounter: (walletId: string, period: string, periodKey: string): ItemKey => ({ PK: `WALLET#${walletId}`, SK: `SPEND#${period}#${periodKey}` }),
  spendPrefix: 'SPEND#',

  approval: (approvalId: string): ItemKey => ({ PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' }),
  approvalsOfOrganization: (organizationId: string, environment: Environment) => ({ GSI1PK: `ORG#${organizationId}#${environment}#APPROVALS` }),
  /** Sparse index of pending approvals by expiry: decided approvals leave it. */
  pendingApprovals: () => ({ GSI2PK: 'APPROVALS#PENDING' }),
  pendingApprovalSort: (expiresAt: string, approvalId: string) => ({ GSI2SK: `${expiresAt}#${approvalId}` }),

  merchant: (environment: Environment, domain: string): ItemKey => ({ PK: `MERCHANT#${environment}#${domain}`, SK: 'MERCHANT' }),

  webhook: (webhookId: string): ItemKey => ({ PK: `WEBHOOK#${webhookId}`, SK: 'WEBHOOK' }),
  /** Every webhook of every organization (compliance samples stored secrets from it). */
  allWebhooks: () => ({ GSI2PK: 'WEBHOOKS' }),

  outboxEvent: (eventId: string): ItemKey => ({ PK: `OUTBOX#${eventId}`, SK: 'EVENT' }),

  idempotency: (organizationId: string, environment: Environment, idempotencyKey: string): ItemKey => ({
    PK: `IDEMP#${organizationId}#${environment}#${idempotencyKey}`,
    SK: 'IDEMP',
  }),

  /** Service configuration items (e.g. the cursor signing secret). */
  config: (name: string): ItemKey => ({ PK: `CONFIG#${name}`, SK: 'CONFIG' }),
} as const;
