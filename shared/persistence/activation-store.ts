import type { ActivationStore } from '../domain/activation/ports.js';
import { createCommitter } from './change-writer.js';
import { organizationWriters } from './writers/organization-writers.js';
import { walletWriters } from './writers/wallet-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { createOrganizationReader } from './organization-store.js';
import type { TableContext } from './table-context.js';

export function createActivationStore(table: TableContext): ActivationStore {
  return {
    ...createOrganizationReader(table),
    ...createCommitter(table, { ...organizationWriters, ...walletWriters, ...auditWriters }),
  };
}
