import type { Environment } from '../../domain/tenancy.js';
import type { Webhook } from '../../domain/webhooks/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const WEBHOOK_ENTITY = 'WEBHOOK';

/** A webhook: its own partition (`WEBHOOK#id`), which also holds its delivery log (`ATTEMPT#...`). */
export const webhookKeys = {
  primary: (webhookId: string): ItemKey => ({ PK: `WEBHOOK#${webhookId}`, SK: 'WEBHOOK' }),
  /** GSI1: the webhooks of an organization environment, newest first. */
  ofOrganization: (organizationId: string, environment: Environment) => ({
    GSI1PK: `WEBHOOKS#${organizationId}#${environment}`,
  }),
  ofOrganizationSort: (webhook: Pick<Webhook, 'createdAt' | 'id'>) => ({
    GSI1SK: `${webhook.createdAt}#${webhook.id}`,
  }),
  /** GSI2: every webhook of every organization (compliance samples stored secrets). */
  all: () => ({ GSI2PK: 'WEBHOOKS' }),
  allSort: (webhookId: string) => ({ GSI2SK: webhookId }),
};

export const webhookCodec = {
  toItem(webhook: Webhook): Item {
    return {
      ...webhookKeys.primary(webhook.id),
      entityType: WEBHOOK_ENTITY,
      ...(webhook.status === 'ENABLED'
        ? {
            ...webhookKeys.ofOrganization(webhook.organizationId, webhook.environment),
            ...webhookKeys.ofOrganizationSort(webhook),
            ...webhookKeys.all(),
            ...webhookKeys.allSort(webhook.id),
          }
        : {}),
      ...webhook,
    };
  },
  fromItem(item: Item): Webhook {
    const record = recordOf(item) as unknown as Webhook;
    return { ...record, description: record.description ?? null, secret: String(item.secret ?? '') };
  },
  /** The signing secret as stored (encrypted, or plain text in a non-compliant table). */
  secretOf(item: Item): string {
    return String(item.secret ?? '');
  },
};

/** What each index of WEBHOOK items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const WEBHOOK_INDEXES = {
  WEBHOOK: {
    GSI1: 'webhooks of an organization environment (removed on delete)',
    GSI2: 'every webhook of every organization, by id (compliance samples secrets; removed on delete)',
  },
} as const satisfies IndexUsage;
