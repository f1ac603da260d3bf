import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { JournalChange, ProjectionStore } from '../domain/ledger/journal-projector.js';
import { auditEntryCodec } from './entities/audit-entry.js';
import { paymentListingCodec } from './entities/payment-listing.js';
import { journalCodec, TRANSACTION_ENTITY } from './entities/transaction.js';
import type { Item, ItemKey } from './item.js';
import { orgShardOf } from './entities/shards.js';
import { orgShardStepsOfAll } from './org-shards.js';
import { batchGetItems, itemAt } from './queries.js';
import type { TableContext } from './table-context.js';

/**
 * Writes the journal's projections (audit entries, payment listings), each once: a conditional
 * PutItem on a key derived from its journal record. Only the projector writes these for
 * movements; the request path never does.
 */
export function createProjectionStore(table: TableContext): ProjectionStore {
  async function putIfAbsent(item: Item): Promise<boolean> {
    try {
      await table.client.send(
        new PutCommand({ TableName: table.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  return {
    async writeProjections(projections, options) {
      // Each on the shard of its organization environment in force at its instant (entities/shards.ts):
      // the same shard whenever it is projected again.
      const stepsOf = await orgShardStepsOfAll(
        table,
        projections.flatMap((projection) => [...(projection.audit ? [projection.audit] : []), ...projection.listings]),
      );
      const items = projections.flatMap((projection) => [
        ...(projection.audit
          ? [
              auditEntryCodec.toItem(
                projection.audit,
                orgShardOf(
                  stepsOf(projection.audit.organizationId, projection.audit.environment),
                  projection.audit.id,
                  projection.audit.createdAt,
                ),
              ),
            ]
          : []),
        ...projection.listings.map((listing) =>
          paymentListingCodec.toItem(
            listing,
            orgShardOf(stepsOf(listing.organizationId, listing.environment), listing.transactionId, listing.createdAt),
          ),
        ),
      ]);
      const keyOf = (item: Item): ItemKey => ({ PK: String(item.PK), SK: String(item.SK) });
      const existing =
        options.checkFirst && items.length > 0
          ? await batchGetItems(table.client, table.tableName, items.map(keyOf))
          : undefined;
      let written = 0;
      let present = 0;
      for (const item of items) {
        if (existing && itemAt(existing, keyOf(item))) present++;
        else if (await putIfAbsent(item)) written++;
        else present++;
      }
      return { written, present };
    },
  };
}

/** Every journal record of the table, a page at a time (an operator tool: it scans the table). */
export async function scanJournal(
  table: TableContext,
  onPage: (changes: JournalChange[]) => Promise<void>,
): Promise<number> {
  let startKey: Record<string, unknown> | undefined;
  let records = 0;
  do {
    const page = await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        ConsistentRead: true,
        FilterExpression: 'entityType = :journal',
        ExpressionAttributeValues: { ':journal': TRANSACTION_ENTITY },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    const changes = (page.Items ?? []).map((item): JournalChange => ({
      change: 'INSERT',
      record: journalCodec.fromItem(item),
    }));
    records += changes.length;
    if (changes.length > 0) await onPage(changes);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return records;
}
