import type { StateTable } from '../state-table.js';
import type { WebhookStatus } from './types.js';

export type WebhookTrigger = 'delete';

/**
 * A webhook is created ENABLED; deleting it is final (its secret and index keys go with it, so it is
 * neither listed nor delivered to). Only an ENABLED webhook is found by its id.
 */
export const WEBHOOK_STATES = {
  delete: { from: ['ENABLED'], to: 'DELETED' },
} as const satisfies StateTable<WebhookStatus, WebhookTrigger>;
