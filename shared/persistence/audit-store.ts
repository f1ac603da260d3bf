import type { AuditStore } from '../domain/audit/ports.js';
import { auditEntryCodec, auditEntryKeys } from './entities/audit-entry.js';
import { createQueries, equalityFilter } from './queries.js';
import { GSI } from './table-schema.js';
import { shardedKeys } from './entities/shards.js';
import { orgShardCount } from './org-shards.js';
import { isShardCursor, shardedPage } from './sharded-pages.js';
import type { TableContext } from './table-context.js';

export function createAuditStore(table: TableContext): AuditStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    async listAuditEntries(organizationId, environment, query, page) {
      // The most selective filter picks the index; the others narrow it as filter expressions.
      const choice = query.resourceId
        ? {
            index: GSI.GSI2,
            partition: auditEntryKeys.byResource(organizationId, environment, query.resourceId),
            used: 'resourceId',
          }
        : query.actorId
          ? {
              index: GSI.GSI3,
              partition: auditEntryKeys.byActor(organizationId, environment, query.actorId),
              used: 'actorId',
            }
          : query.walletId
            ? {
                index: GSI.GSI4,
                partition: auditEntryKeys.byWallet(organizationId, environment, query.walletId),
                used: 'walletId',
              }
            : query.action
              ? {
                  index: GSI.GSI1,
                  partition: auditEntryKeys.byAction(organizationId, environment, query.action),
                  used: 'action',
                }
              : { index: null, partition: auditEntryKeys.partition(organizationId, environment), used: '' };
      const remaining: Record<string, string | undefined> = {
        action: query.action,
        resourceId: query.resourceId,
        actorId: query.actorId,
        walletId: query.walletId,
      };
      delete remaining[choice.used];
      // Index partitions are digests (audit-entry.ts): the organization and environment are checked too.
      if (choice.index) Object.assign(remaining, { organizationId, environment });
      const range = {
        from: query.from === undefined ? undefined : auditEntryKeys.sortFrom(query.from),
        to: query.to === undefined ? undefined : auditEntryKeys.sortTo(query.to),
      };
      const count = await orgShardCount(table, organizationId, environment);
      // A cursor of the list before the organization was sharded goes on over shard 0: the other
      // shards hold only entries newer than it (entities/shards.ts).
      if (count > 1 && (page.startKey === undefined || isShardCursor(page.startKey))) {
        const sources = shardedKeys(choice.partition, count).map((partition) => ({ index: choice.index, partition }));
        return shardedPage(table.client, table.tableName, sources, page, auditEntryCodec.fromItem, {
          filter: equalityFilter(remaining),
          range,
        });
      }
      return queryIndex(
        choice.index,
        choice.partition,
        page,
        auditEntryCodec.fromItem,
        equalityFilter(remaining),
        undefined,
        range,
      );
    },
  };
}
