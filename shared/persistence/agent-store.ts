import type { AgentStore } from '../domain/agents/ports.js';
import { createCommitter } from './change-writer.js';
import { walletWriters } from './writers/wallet-writers.js';
import { apiKeyWriters } from './writers/api-key-writers.js';
import { policyWriters } from './writers/policy-writers.js';
import { postingWriters } from './writers/posting-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { createApiKeyReader } from './api-key-store.js';
import { walletCodec, walletKeys } from './entities/wallet.js';
import { createIdempotencyCompleter, createIdempotencyStore } from './idempotency-store.js';
import { createMainWalletReader } from './organization-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import type { TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';

export function createAgentStore(table: TableContext): AgentStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createApiKeyReader(table),
    ...createMainWalletReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, { ...walletWriters, ...apiKeyWriters, ...policyWriters, ...postingWriters, ...idempotencyWriters, ...auditWriters }),
    ...createIdempotencyCompleter(table),
    listAgents(organizationId, environment, includeDeleted, page) {
      const filter = includeDeleted
        ? equalityFilter({ walletType: 'AGENT' })
        : { expression: '#f_walletType = :f_walletType AND attribute_not_exists(deletedAt)', names: { '#f_walletType': 'walletType' }, values: { ':f_walletType': 'AGENT' } };
      return queryIndex(GSI.GSI1, walletKeys.ofOrganization(organizationId, environment).GSI1PK, page, walletCodec.fromItem, filter);
    },
  };
}
