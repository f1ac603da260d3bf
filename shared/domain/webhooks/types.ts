import type { Environment } from '../tenancy.js';
import type { OutboxEvent } from '../types.js';

export const WEBHOOK_STATUSES = ['ENABLED', 'DELETED'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export interface Webhook {
  id: string;
  organizationId: string;
  environment: Environment;
  url: string;
  /** Event names, or ['*'] for every event. */
  events: string[];
  description: string | null;
  status: WebhookStatus;
  /** The signing secret as stored: `iv:authTag:ciphertext` (AES-256-GCM). Never presented. */
  secret: string;
  createdAt: string;
}

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'DEAD_LETTERED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event to one webhook: its state across attempts (the id is derived from both). */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  organizationId: string;
  environment: Environment;
  event: OutboxEvent;
  status: DeliveryStatus;
  attempts: number;
  firstAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** One entry of a webhook's delivery log: one attempt. */
export interface DeliveryAttempt {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  /** The receiver's HTTP status, or null (timeout, refused address, connection error). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  attemptedAt: string;
  /** When the next attempt is due, or null (delivered, dead-lettered or a manual retry). */
  nextAttemptAt: string | null;
  outcome: 'SUCCEEDED' | 'RETRYING' | 'FAILED' | 'DEAD_LETTERED';
}

export const matchesFilter = (webhook: Pick<Webhook, 'events'>, type: string) =>
  webhook.events.includes('*') || webhook.events.includes(type);
