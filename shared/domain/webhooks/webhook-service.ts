import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import type { Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { Environment, OrganizationScope, RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { DeliveryRecords } from './delivery-records.js';
import type { DeliveryQueue, SecretCipher, WebhookStore } from './ports.js';
import type { DeliveryAttempt, Webhook } from './types.js';

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string | undefined;
}

export interface WebhookServiceDeps {
  store: WebhookStore;
  clock: Clock;
  ids: IdGenerator;
  /** Absent when WEBHOOK_ENCRYPTION_KEY is not configured: webhooks can then not be created. */
  secrets: SecretCipher | undefined;
  /** The SSRF guard (shared/webhooks/url-guard.ts): the normalized URL, or why it is refused. */
  checkUrl: (
    url: string,
    environment: Environment,
  ) => Promise<{ ok: true; url: string } | { ok: false; reason: string }>;
  /** A new signing secret, `whsec_` + base64. */
  newSecret: () => string;
  queue: DeliveryQueue;
  deliveries: DeliveryRecords;
}

/** Webhooks (decisions.md section 8): organization keys with `admin` only (the catalog checks both). */
export function createWebhookService(deps: WebhookServiceDeps) {
  async function load(scope: OrganizationScope, webhookId: string): Promise<Webhook> {
    const webhook = await deps.store.getWebhook(webhookId);
    if (
      !webhook ||
      webhook.status !== 'ENABLED' ||
      webhook.organizationId !== scope.organizationId ||
      webhook.environment !== scope.environment
    )
      throw notFound('WEBHOOK_NOT_FOUND', webhookId);
    return webhook;
  }

  return {
    async create(
      ctx: RequestContext,
      action: AuditAction,
      input: WebhookInput,
    ): Promise<{ webhook: Webhook; rawSecret: string }> {
      const scope = scopeOf(ctx.principal);
      const checked = await deps.checkUrl(input.url, scope.environment);
      if (!checked.ok) throw new ApiError('VALIDATION_ERROR', `url ${checked.reason}.`, { field: 'url' });
      if (input.events.includes('*') && input.events.length > 1)
        throw new ApiError('VALIDATION_ERROR', 'events is either ["*"] or a list of event names.', { field: 'events' });
      if (!deps.secrets) throw new ApiError('INTERNAL_ERROR', 'Webhook secrets can not be stored on this deployment.');
      const rawSecret = deps.newSecret();
      const at = deps.clock.now().toISOString();
      const webhook: Webhook = {
        id: deps.ids('webhook'),
        ...scope,
        url: checked.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        status: 'ENABLED',
        secret: await deps.secrets.encrypt(rawSecret),
        createdAt: at,
      };
      await deps.store.commit([
        { type: 'putWebhook', webhook },
        auditChange(
          {
            ...scope,
            actor: ctx.actor,
            action,
            resource: 'webhook',
            resourceId: webhook.id,
            metadata: { url: webhook.url, events: webhook.events },
            createdAt: at,
          },
          deps.ids,
        ),
      ]);
      return { webhook, rawSecret };
    },
    async list(ctx: RequestContext, page: PageRequest): Promise<Page<Webhook>> {
      const scope = scopeOf(ctx.principal);
      return deps.store.listWebhooks(scope.organizationId, scope.environment, page);
    },
    get: (ctx: RequestContext, webhookId: string) => load(scopeOf(ctx.principal), webhookId),
    async remove(ctx: RequestContext, action: AuditAction, webhookId: string): Promise<Webhook> {
      const scope = scopeOf(ctx.principal);
      const webhook = await load(scope, webhookId);
      const at = deps.clock.now().toISOString();
      await deps.store.commit([
        { type: 'deleteWebhook', webhookId, deletedAt: at },
        auditChange(
          {
            ...scope,
            actor: ctx.actor,
            action,
            resource: 'webhook',
            resourceId: webhookId,
            metadata: { url: webhook.url },
            createdAt: at,
          },
          deps.ids,
        ),
      ]);
      return webhook;
    },
    async attempts(ctx: RequestContext, webhookId: string, page: PageRequest): Promise<Page<DeliveryAttempt>> {
      await load(scopeOf(ctx.principal), webhookId);
      return deps.store.listAttempts(webhookId, page);
    },
    /** Sends a `webhook.test` event to this webhook only (not kept in the events API). */
    async test(ctx: RequestContext, action: AuditAction, webhookId: string) {
      const scope = scopeOf(ctx.principal);
      const webhook = await load(scope, webhookId);
      const event = {
        id: deps.ids('event'),
        type: 'webhook.test',
        ...scope,
        createdAt: deps.clock.now().toISOString(),
        data: { webhookId: webhook.id },
      };
      const delivery = await deps.deliveries.newDelivery(webhook, event);
      if (!delivery) throw new ApiError('INTERNAL_ERROR', 'The test delivery could not be created.');
      await deps.store.commit([
        auditChange(
          {
            ...scope,
            actor: ctx.actor,
            action,
            resource: 'webhook',
            resourceId: webhookId,
            metadata: { eventId: event.id, deliveryId: delivery.id },
            createdAt: event.createdAt,
          },
          deps.ids,
        ),
      ]);
      await deps.queue.send({ kind: 'attempt', deliveryId: delivery.id }, 0);
      return { deliveryId: delivery.id, eventId: event.id, status: 'PENDING' as const };
    },
    /** One more attempt of a delivery now, whatever its state (a failure schedules no further retry). */
    async retry(ctx: RequestContext, action: AuditAction, webhookId: string, deliveryId: string) {
      const scope = scopeOf(ctx.principal);
      await load(scope, webhookId);
      const delivery = await deps.store.getDelivery(deliveryId);
      if (!delivery || delivery.webhookId !== webhookId)
        throw new ApiError(
          'DELIVERY_NOT_FOUND',
          `No delivery with id ${deliveryId} was found for webhook ${webhookId}.`,
        );
      await deps.store.commit([
        auditChange(
          {
            ...scope,
            actor: ctx.actor,
            action,
            resource: 'webhook',
            resourceId: webhookId,
            metadata: { deliveryId, eventId: delivery.event.id },
            createdAt: deps.clock.now().toISOString(),
          },
          deps.ids,
        ),
      ]);
      await deps.queue.send({ kind: 'attempt', deliveryId, manual: true }, 0);
      return { deliveryId, eventId: delivery.event.id, status: 'PENDING' as const };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
