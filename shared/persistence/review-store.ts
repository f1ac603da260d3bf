import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ReviewStore } from '../domain/reviews/review-service.js';
import { DISPUTE_ENTITY, disputeCodec } from './entities/dispute.js';
import { ORGANIZATION_ENTITY, organizationCodec } from './entities/organization.js';
import type { Item } from './item.js';
import type { TableContext } from './table-context.js';

/**
 * The operator's review queues, by a filtered Scan (operator only, rare; the compliance report
 * scans likewise). At scale an index of the waiting items would serve them: docs/api.md
 * "Dashboard: team and operator pages".
 */
export function createReviewStore(table: TableContext): ReviewStore {
  async function scan(filter: string, values: Record<string, unknown>, names?: Record<string, string>) {
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await table.client.send(
        new ScanCommand({
          TableName: table.tableName,
          FilterExpression: filter,
          ExpressionAttributeValues: values,
          ...(names ? { ExpressionAttributeNames: names } : {}),
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
  const oldest =
    <T>(key: (value: T) => string) =>
    (a: T, b: T) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

  return {
    async pendingKyb(limit) {
      const items = await scan('entityType = :type AND kybStatus = :pending', {
        ':type': ORGANIZATION_ENTITY,
        ':pending': 'PENDING',
      });
      return items
        .map(organizationCodec.fromItem)
        .sort(oldest((o) => o.kyb?.submittedAt ?? o.createdAt))
        .slice(0, limit);
    },
    async openDisputes(limit) {
      const items = await scan(
        'entityType = :type AND #status IN (:open, :responded)',
        { ':type': DISPUTE_ENTITY, ':open': 'OPEN', ':responded': 'RESPONDED' },
        { '#status': 'status' },
      );
      return items
        .map(disputeCodec.fromItem)
        .sort(oldest((d) => `${d.createdAt}#${d.id}`))
        .slice(0, limit);
    },
  };
}
