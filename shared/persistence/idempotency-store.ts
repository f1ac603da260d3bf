import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyCompleter, IdempotencySlot, IdempotencyStore } from '../domain/idempotency/ports.js';
import { createCommitter } from './change-writer.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { idempotencyCodec, idempotencyKeys } from './entities/idempotency.js';
import { journalCodec, transactionKeys } from './entities/transaction.js';
import type { Item } from './item.js';
import { getItem, type TableContext } from './table-context.js';

/** What a key's slot holds: a movement's journal record or a stored answer (nothing else is written there). */
export function slotOf(item: Item | undefined): IdempotencySlot | undefined {
  if (idempotencyCodec.isAnswer(item)) return { kind: 'answer', record: idempotencyCodec.fromItem(item!) };
  if (journalCodec.isJournalRecord(item)) return { kind: 'movement', record: journalCodec.fromItem(item!) };
  return undefined;
}

export function createIdempotencyStore(table: TableContext): IdempotencyStore {
  return {
    ...createCommitter(table, { ...idempotencyWriters }),
    async getIdempotencySlot(slotId) {
      return slotOf(await getItem(table, idempotencyKeys.slot(slotId)));
    },
  };
}

export function createIdempotencyCompleter(table: TableContext): IdempotencyCompleter {
  return {
    async completeIdempotentMovement(transactionId, reply) {
      try {
        await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: transactionKeys.primary(transactionId),
            UpdateExpression: 'SET reply = :reply',
            // The first answer saved stays: a recovery racing the request that committed saves once.
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(reply)',
            ExpressionAttributeValues: { ':reply': reply },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
  };
}
