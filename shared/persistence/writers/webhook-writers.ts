import { ApiError } from '../../domain/errors.js';
import type { WebhookChange } from '../../domain/webhooks/ports.js';
import { webhookCodec, webhookKeys } from '../entities/webhook.js';
import { put, update, type ChangeWriters } from '../write-builders.js';

export const webhookWriters: ChangeWriters<WebhookChange> = {
  putWebhook: (tableName, change) => [put(tableName, webhookCodec.toItem(change.webhook))],
  /** The secret and the index keys go: a deleted webhook is neither listed nor sampled, nor delivered to. */
  deleteWebhook: (tableName, change) => [
    update(
      tableName,
      webhookKeys.primary(change.webhookId),
      'SET #status = :deleted, deletedAt = :at REMOVE secret, GSI1PK, GSI1SK, GSI2PK, GSI2SK',
      '#status = :enabled',
      { ':deleted': 'DELETED', ':enabled': 'ENABLED', ':at': change.deletedAt },
      { '#status': 'status' },
      () => new ApiError('WEBHOOK_NOT_FOUND', 'No such webhook.'),
    ),
  ],
};
