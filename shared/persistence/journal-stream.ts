import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EventPublisher, JournalChange, JournalProjector } from '../domain/ledger/journal-projector.js';
import { journalCodec } from './entities/transaction.js';

/** A record of the table's stream as Lambda delivers it (and the local run builds it). */
export interface TableStreamRecord {
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE' | string;
  dynamodb?: { NewImage?: Record<string, unknown>; SequenceNumber?: string };
}

/** The journal record a stream record reports a change of, if it is one (other items are ignored). */
export function journalChangeOf(record: TableStreamRecord): JournalChange | undefined {
  if (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') return undefined;
  const image = record.dynamodb?.NewImage;
  if (!image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>, { wrapNumbers: true });
  return journalCodec.isJournalRecord(item) ? { change: record.eventName, record: journalCodec.fromItem(item) } : undefined;
}

export interface StreamBatchResult {
  /** Lambda's partial batch response: the record to resume from, if the batch failed. */
  batchItemFailures: { itemIdentifier: string }[];
  projected: number;
}

/**
 * The table stream's consumer: the journal changes of a batch projected at once (idempotent, so a
 * retried batch writes nothing twice). A failure reports the batch's first record, from which
 * Lambda (or the local poller) delivers the batch again.
 */
export function createJournalStreamConsumer(projector: JournalProjector) {
  return {
    async handle(records: TableStreamRecord[]): Promise<StreamBatchResult> {
      const changes = records.map(journalChangeOf).filter((change): change is JournalChange => change !== undefined);
      if (changes.length === 0) return { batchItemFailures: [], projected: 0 };
      try {
        const report = await projector.project(changes);
        return { batchItemFailures: [], projected: report.records };
      } catch (error) {
        const first = records[0]?.dynamodb?.SequenceNumber;
        console.error('journal projection failed; the batch is delivered again', error);
        return { batchItemFailures: first ? [{ itemIdentifier: first }] : [], projected: 0 };
      }
    },
  };
}

/** Until the event bus exists, projected events are only counted (their ids are derived: a later replay publishes the same ones). */
export const UNPUBLISHED_EVENTS: EventPublisher & { count: number } = {
  count: 0,
  async publish(events) {
    this.count += events.length;
  },
};
