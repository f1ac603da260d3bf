import type { ApiKeyReader } from '../api-keys/ports.js';
import type { IdempotencyCompleter, IdempotencyStore } from '../idempotency/ports.js';
import type { MainWalletReader } from '../organizations/ports.js';
import type { Environment } from '../tenancy.js';
import type { Page, PageRequest, Wallet } from '../types.js';
import type { WalletReader, WalletSnapshotReader } from '../wallets/ports.js';

export interface AgentStore extends WalletReader, WalletSnapshotReader, ApiKeyReader, MainWalletReader, IdempotencyStore, IdempotencyCompleter {
  /** AGENT wallets of an organization and environment, newest first; deleted ones only when asked. */
  listAgents(organizationId: string, environment: Environment, includeDeleted: boolean, page: PageRequest): Promise<Page<Wallet>>;
}
