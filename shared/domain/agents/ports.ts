import type { ApiKeyReader } from '../api-keys/ports.js';
import type { ApiKeyChange } from '../api-keys/changes.js';
import type { AuditChange } from '../audit/ports.js';
import type { IdempotencyChange, IdempotencyCompleter, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { PolicyChange } from '../policies/ports.js';
import type { WalletChange } from '../wallets/ports.js';
import type { MainWalletReader } from '../organizations/ports.js';
import type { Environment } from '../tenancy.js';
import type { Page, PageRequest, Wallet } from '../types.js';
import type { WalletReader, WalletSnapshotReader } from '../wallets/ports.js';

export interface AgentStore
  extends WalletReader, WalletSnapshotReader, ApiKeyReader, MainWalletReader, IdempotencyStore, IdempotencyCompleter {
  commit: (
    changes: (WalletChange | ApiKeyChange | PolicyChange | PostingChange | IdempotencyChange | AuditChange)[],
  ) => Promise<void>;
  /** AGENT wallets of an organization and environment, newest first; deleted ones only when asked. */
  listAgents(
    organizationId: string,
    environment: Environment,
    includeDeleted: boolean,
    page: PageRequest,
  ): Promise<Page<Wallet>>;
  /** Whether a deposit or withdrawal of the wallet is still INITIATED or PENDING (it would settle on a closed wallet). */
  hasOpenTransfers(wallet: Pick<Wallet, 'id' | 'organizationId' | 'environment'>): Promise<boolean>;
}
