import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { InboxPartition } from '../../domain/hot-mode/hot-mode-schedule.js';
import { HOT_INBOX_ENTITY, hotKeys } from '../entities/hot-wallet.js';
import type { TableStreamRecord } from '../journal-stream.js';

/**
 * The credit partition a stream record reports a new inbox item in (a credit into a hot wallet),
 * if it is one: INSERTs of HOT_INBOX items only (the fold's deletes are no work for the fold).
 */
export function inboxPartitionOf(record: TableStreamRecord): InboxPartition | undefined {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return undefined;
  const item = unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
  if (item.entityType !== HOT_INBOX_ENTITY || typeof item.walletId !== 'string' || typeof item.PK !== 'string')
    return undefined;
  const prefix = hotKeys.creditPartition(item.walletId, 0).slice(0, -1);
  if (!item.PK.startsWith(prefix)) return undefined;
  const partition = Number(item.PK.slice(prefix.length));
  return Number.isInteger(partition) && partition >= 0 ? { walletId: item.walletId, partition } : undefined;
}
