import type { Item, ItemKey } from '../item.js';

export const WEBHOOK_ENTITY = 'WEBHOOK';

/** Read only today: the compliance check samples stored signing secrets across every organization. */
export const webhookKeys = {
  primary: (webhookId: string): ItemKey => ({ PK: `WEBHOOK#${webhookId}`, SK: 'WEBHOOK' }),
  /** GSI2: every webhook of every organization. */
  all: () => ({ GSI2PK: 'WEBHOOKS' }),
  allSort: (webhookId: string) => ({ GSI2SK: webhookId }),
};

export const webhookCodec = {
  /** The signing secret as stored (encrypted, or plain text in a non-compliant table). */
  secretOf(item: Item): string {
    return String(item.secret ?? '');
  },
};
