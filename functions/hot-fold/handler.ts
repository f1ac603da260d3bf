import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { partitionKeyOf } from '../../shared/domain/hot-mode/hot-mode-schedule.js';
import { inboxPartitionOf } from '../../shared/persistence/hot/hot-inbox-stream.js';
import type { TableStreamRecord } from '../../shared/persistence/journal-stream.js';
import { core } from '../../shared/runtime/core.js';
import { hotModeService } from '../../shared/runtime/services/hot-mode.js';

let service: ReturnType<typeof hotModeService> | undefined;

/**
 * Stream worker, declared in shared/workers.ts (`hot-fold`: the table's stream filtered to HOT_INBOX
 * items; DynamoDB Local's stream in the local run): folds each credit partition that received a
 * credit, so a hot wallet's credits reach its main item within about a second. A fold is guarded by
 * the accumulator's `seq` and main's `folded#g`, so a repeated or concurrent fold is harmless; the
 * records of a partition whose fold failed are reported, and the stream delivers them again.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  service ??= hotModeService(core());
  const records = event.Records as TableStreamRecord[];
  const failed = new Set(
    (await service.foldPartitions(records.flatMap((record) => inboxPartitionOf(record) ?? []))).map(partitionKeyOf),
  );
  // Lambda restarts the batch from the earliest failed record: naming the first one is enough.
  const first = records.find((record) => {
    const pair = inboxPartitionOf(record);
    return pair !== undefined && failed.has(partitionKeyOf(pair));
  });
  const id = first?.dynamodb?.SequenceNumber;
  return { batchItemFailures: id ? [{ itemIdentifier: id }] : [] };
}
