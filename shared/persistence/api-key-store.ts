import type { ApiKeyReader, ApiKeyStore } from '../domain/api-keys/ports.js';
import { createCommitter } from './change-writer.js';
import { apiKeyWriters } from './writers/api-key-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { apiKeyCodec, apiKeyKeys, apiKeyPointerCodec } from './entities/api-key.js';
import { createOrganizationReader } from './organization-store.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';

export function createApiKeyReader(table: TableContext): ApiKeyReader {
  return {
    async getApiKeyById(keyId) {
      const hash = apiKeyPointerCodec.hashOf(await getItem(table, apiKeyKeys.pointer(keyId)));
      if (hash === undefined) return undefined;
      const item = await getItem(table, apiKeyKeys.byHash(hash));
      return item ? apiKeyCodec.fromItem(item) : undefined;
    },
  };
}

export function createApiKeyStore(table: TableContext): ApiKeyStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createOrganizationReader(table),
    ...createApiKeyReader(table),
    ...createCommitter(table, { ...apiKeyWriters, ...auditWriters }),
    listApiKeys(organizationId, environment, page) {
      return queryIndex(
        GSI.GSI1,
        apiKeyKeys.ofOrganization(organizationId).GSI1PK,
        page,
        apiKeyCodec.fromItem,
        equalityFilter({ environment }),
      );
    },
  };
}
