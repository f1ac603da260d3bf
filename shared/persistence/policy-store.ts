import type { PolicyStore } from '../domain/policies/ports.js';
import { createCommitter } from './change-writer.js';
import { policyWriters } from './writers/policy-writers.js';
import { auditWriters } from './writers/audit-writers.js';
import { policyCodec, policyKeys, policyPointerCodec } from './entities/policy.js';
import { walletKeys } from './entities/wallet.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader } from './wallet-store.js';

export function createPolicyStore(table: TableContext): PolicyStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createWalletReader(table),
    ...createCommitter(table, { ...policyWriters, ...auditWriters }),
    async getPolicy(policyId) {
      const walletId = policyPointerCodec.walletIdOf(await getItem(table, policyKeys.pointer(policyId)));
      if (walletId === undefined) return undefined;
      const item = await getItem(table, policyKeys.primary(walletId, policyId));
      return item ? policyCodec.fromItem(item) : undefined;
    },
    listPolicies(organizationId, environment, walletId, page) {
      const active = equalityFilter({ status: 'ACTIVE' });
      if (walletId)
        return queryIndex(
          null,
          walletKeys.partition(walletId),
          page,
          policyCodec.fromItem,
          active,
          policyKeys.sortPrefix,
        );
      return queryIndex(
        GSI.GSI1,
        policyKeys.ofOrganization(organizationId, environment).GSI1PK,
        page,
        policyCodec.fromItem,
        active,
      );
    },
  };
}
