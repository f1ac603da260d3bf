import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { core } from '../../shared/runtime/core.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { hotFoldConsumer } from '../../shared/runtime/hot-fold.js';

let consumer: ReturnType<typeof hotFoldConsumer> | undefined;

/**
 * Stream worker, declared in shared/workers.ts (`hot-fold`: the table's stream filtered to HOT_INBOX
 * items; DynamoDB Local's stream in the local run): folds each credit partition that received a
 * credit, so a hot wallet's credits reach its main item within about a second. A fold is guarded by
 * the accumulator's `seq` and main's `folded#g`, so a repeated or concurrent fold is harmless; the
 * records of a partition whose fold failed are delivered again.
 */
export const handler = observedWorker(
  'hot-fold',
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    consumer ??= hotFoldConsumer(core());
    return consumer.handle(event.Records);
  },
);
