import { partitionKeyOf } from '../domain/hot-mode/hot-mode-schedule.js';
import { inboxPartitionOf } from '../persistence/hot/hot-inbox-stream.js';
import type { TableStreamRecord } from '../persistence/journal-stream.js';
import type { Core } from './core.js';
import { hotModeService } from './services/hot-mode.js';

/**
 * The HOT_INBOX stream's consumer (functions/hot-fold): folds each credit partition a batch
 * reports a new inbox item in, once; answers Lambda's partial batch response naming the first
 * record of a partition whose fold failed (Lambda restarts the batch there: folds are idempotent).
 */
export function hotFoldConsumer(core: Core) {
  const service = hotModeService(core);
  return {
    async handle(records: readonly TableStreamRecord[]): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
      const failed = new Set(
        (await service.foldPartitions(records.flatMap((record) => inboxPartitionOf(record) ?? []))).map(partitionKeyOf),
      );
      const first = records.find((record) => {
        const pair = inboxPartitionOf(record);
        return pair !== undefined && failed.has(partitionKeyOf(pair));
      });
      const id = first?.dynamodb?.SequenceNumber;
      return { batchItemFailures: id ? [{ itemIdentifier: id }] : [] };
    },
  };
}
