import type { MainWalletReader, OrganizationReader, OrganizationStore } from '../domain/organizations/ports.js';
import { createCommitter } from './change-writer.js';
import { organizationWriters } from './writers/organization-writers.js';
import { walletWriters } from './writers/wallet-writers.js';
import { apiKeyWriters } from './writers/api-key-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { organizationCodec, organizationKeys } from './entities/organization.js';
import { organizationEnvironmentCodec, organizationEnvironmentKeys } from './entities/organization-environment.js';
import { getItem, type TableContext } from './table-context.js';

export function createOrganizationReader(table: TableContext): OrganizationReader {
  return {
    async getOrganization(organizationId) {
      const item = await getItem(table, organizationKeys.primary(organizationId));
      return item ? organizationCodec.fromItem(item) : undefined;
    },
  };
}

export function createMainWalletReader(table: TableContext): MainWalletReader {
  return {
    async getMainWalletId(organizationId, environment) {
      const item = await getItem(table, organizationEnvironmentKeys.primary(organizationId, environment));
      return item ? organizationEnvironmentCodec.fromItem(item).mainWalletId : undefined;
    },
  };
}

export function createOrganizationStore(table: TableContext): OrganizationStore {
  return {
    ...createOrganizationReader(table),
    ...createCommitter(table, { ...organizationWriters, ...walletWriters, ...apiKeyWriters, ...auditWriters }),
  };
}
