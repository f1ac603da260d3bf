import { ApiError } from '../../domain/errors.js';
import type { WebhookChange } from '../../domain/webhooks/ports.js';
import { WEBHOOK_STATES } from '../../domain/webhooks/webhook-states.js';
import { webhookCodec, webhookKeys } from '../entities/webhook.js';
import { put, transitionUpdate, type ChangeWriters } from '../write-builders.js';

export const webhookWriters: ChangeWriters<WebhookChange> = {
  putWebhook: (tableName, change) => [put(tableName, webhookCodec.toItem(change.webhook))],
  /** The secret and the index keys go: a deleted webhook is neither listed nor sampled, nor delivered to. */
  deleteWebhook: (tableName, change) => [
    transitionUpdate(tableName, webhookKeys.primary(change.webhookId), WEBHOOK_STATES.delete, {
      set: { deletedAt: change.deletedAt },
      remove: ['secret', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK'],
      onConditionFailed: () => new ApiError('WEBHOOK_NOT_FOUND'),
    }),
  ],
};
