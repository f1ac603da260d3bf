import type { Environment } from './tenancy.js';
import type { ApiKey, AuditEntry, Organization, OutboxEvent, Wallet } from './types.js';
import type { Posting } from './ledger/posting.js';

/**
 * What a service decided to write, as data. The store writes one list of changes in ONE
 * DynamoDB transaction with each change's condition; a failed condition becomes the ApiError the
 * persistence layer maps for that change kind.
 */
export type Change =
  | { type: 'createOrganization'; organization: Organization }
  | { type: 'updateOrganization'; organization: Organization }
  | { type: 'createEnvironment'; organizationId: string; environment: Environment; mainWalletId: string }
  /** Counts a new wallet against the environment limit (WALLET_LIMIT_EXCEEDED when reached). */
  | { type: 'reserveWalletSlot'; organizationId: string; environment: Environment; limit: number }
  | { type: 'createWallet'; wallet: Wallet }
  | { type: 'createApiKey'; apiKey: ApiKey }
  | { type: 'revokeApiKey'; apiKey: ApiKey; revokedAt: string }
  | { type: 'posting'; posting: Posting }
  | { type: 'audit'; entry: AuditEntry }
  | { type: 'event'; event: OutboxEvent };
