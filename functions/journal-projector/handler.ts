import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { core } from '../../shared/runtime/core.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { journalProjector } from '../../shared/runtime/event-bus.js';

let projector: ReturnType<typeof journalProjector> | undefined;

/**
 * Stream worker, declared in shared/workers.ts (the table's stream in AWS; DynamoDB Local's stream,
 * polled by bin/local/workers.ts, in the local run): projects journal records into audit entries,
 * organization payment listings and events, each once (ids derived from the record).
 */
export const handler = observedWorker(
  'journal-projector',
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    projector ??= journalProjector(core());
    const { batchItemFailures } = await projector.handle(event.Records);
    return { batchItemFailures };
  },
);
