import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { Environment } from '../tenancy.js';
import type { OutboxEvent, Page, PageRequest } from '../types.js';
import type { DeliveryAttempt, Webhook, WebhookDelivery } from './types.js';

export type WebhookChange =
  | { type: 'putWebhook'; webhook: Webhook }
  /** Conditional on ENABLED: the item keeps its id, loses its secret and its index keys. */
  | { type: 'deleteWebhook'; webhookId: string; deletedAt: string };

export interface WebhookReader {
  getWebhook(webhookId: string): Promise<Webhook | undefined>;
}

export interface DeliveryLog {
  getDelivery(deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** Creates the delivery unless it exists; false when it did (the event was delivered to it before). */
  createDelivery(delivery: WebhookDelivery): Promise<boolean>;
  saveDelivery(delivery: WebhookDelivery): Promise<void>;
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
}

export interface WebhookStore extends WebhookReader, DeliveryLog, ChangeCommitter<WebhookChange | AuditChange> {
  listWebhooks(organizationId: string, environment: Environment, page: PageRequest): Promise<Page<Webhook>>;
  listAttempts(webhookId: string, page: PageRequest): Promise<Page<DeliveryAttempt>>;
}

export interface DeliveryStore extends WebhookReader, DeliveryLog {
  /** The enabled webhooks of an organization environment (a handful: one query). */
  enabledWebhooks(organizationId: string, environment: Environment): Promise<Webhook[]>;
}

/** The webhook-delivery queue's messages. */
export type DeliveryMessage =
  /** An event from the bus, to fan out to the organization's webhooks. */
  | { kind: 'event'; event: OutboxEvent }
  /** One attempt of a delivery, not before `notBefore` (epoch ms). */
  | {
      kind: 'attempt';
      deliveryId: string;
      manual?: boolean;
      notBefore?: number;
      /** The event's correlation id (its causing request), for the attempt's log lines. */
      correlationId?: string;
    };

export interface DeliveryQueue {
  send(message: DeliveryMessage, delayMs: number): Promise<void>;
  /** Keeps a delivery whose retries are over (the DLQ, with an alarm on its depth). */
  deadLetter(message: DeliveryMessage): Promise<void>;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
}

/** Posts one signed body; guards the address per environment at connection time. */
export interface WebhookSender {
  post(input: {
    url: string;
    environment: Environment;
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
  }): Promise<SendResult>;
}

/** Webhook secrets at rest; async, since the key may have to be read first (Secrets Manager in AWS). */
export interface SecretCipher {
  encrypt(plain: string): Promise<string>;
  decrypt(stored: string): Promise<string>;
  /** Resolves once the key is at hand; rejects when it is not configured or can not be read. */
  ready(): Promise<void>;
}
