import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EventPublisher, JournalChange, JournalProjector } from '../domain/ledger/journal-projector.js';
import type { OutboxEvent } from '../domain/types.js';
import { idempotencyCodec } from './entities/idempotency.js';
import { OUTBOX_EVENT_ENTITY, outboxEventCodec } from './entities/outbox-event.js';
import { log } from '../observability/log.js';
import { correlationOfItem } from './entities/correlation.js';
import { journalCodec } from './entities/transaction.js';

/** A record of the table's stream as Lambda delivers it (and the local run builds it). */
export interface TableStreamRecord {
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE' | string;
  /** The stream's view is NEW_AND_OLD_IMAGES (table-schema.ts): a MODIFY carries the item as it was. */
  dynamodb?: { NewImage?: Record<string, unknown>; OldImage?: Record<string, unknown>; SequenceNumber?: string };
}

/**
 * The journal record a stream record reports a change of, if it is one (other items are ignored).
 * A MODIFY whose old image is an idempotency answer is the record's first write: the key's next
 * claim took the slot of its expired answer (persistence slotClaimWrite), reported as INSERT. Any
 * later change of the record has the record itself as old image: a MODIFY.
 */
export function journalChangeOf(record: TableStreamRecord): JournalChange | undefined {
  if (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') return undefined;
  const image = record.dynamodb?.NewImage;
  if (!image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>, { wrapNumbers: true });
  if (!journalCodec.isJournalRecord(item)) return undefined;
  const oldImage = record.dynamodb?.OldImage as Record<string, AttributeValue> | undefined;
  const before = oldImage ? unmarshall(oldImage) : undefined;
  const change =
    record.eventName === 'INSERT' || idempotencyCodec.isAnswer(before)
      ? 'INSERT'
      : before?.status !== 'POSTED' && item.status === 'POSTED'
        ? 'POSTED'
        : 'MODIFY';
  return { change, record: journalCodec.fromItem(item), ...correlationOfItem(item) };
}

/** The event an outbox item carries, when the record is its insertion (changes that are not movements). */
export function outboxEventOf(record: TableStreamRecord): OutboxEvent | undefined {
  if (record.eventName !== 'INSERT') return undefined;
  const image = record.dynamodb?.NewImage;
  if (!image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>);
  return item.entityType === OUTBOX_EVENT_ENTITY ? outboxEventCodec.fromItem(item) : undefined;
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
export function createJournalStreamConsumer(projector: JournalProjector, outboxPublisher?: EventPublisher) {
  return {
    async handle(records: TableStreamRecord[]): Promise<StreamBatchResult> {
      const changes = records.map(journalChangeOf).filter((change): change is JournalChange => change !== undefined);
      // Outbox items (events of changes that are not movements) are published as they are: their
      // ids were drawn in the change's transaction, so a redelivered record publishes the same id.
      const outbox = outboxPublisher
        ? records.map(outboxEventOf).filter((event): event is OutboxEvent => event !== undefined)
        : [];
      if (changes.length === 0 && outbox.length === 0) return { batchItemFailures: [], projected: 0 };
      try {
        const report = changes.length > 0 ? await projector.project(changes) : { records: 0 };
        if (outbox.length > 0) await outboxPublisher!.publish(outbox);
        return { batchItemFailures: [], projected: report.records + outbox.length };
      } catch (error) {
        const first = records[0]?.dynamodb?.SequenceNumber;
        log.error('journal projection failed; the batch is delivered again', error);
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
