/** The entities of the single table: one module each, holding its keys, codec and entity type. */
export * from './organization.js';
export * from './organization-environment.js';
export * from './wallet.js';
export * from './wallet-listing.js';
export * from './api-key.js';
export * from './transaction.js';
export * from './payment-listing.js';
export * from './policy.js';
export * from './approval.js';
export * from './merchant.js';
export * from './audit-entry.js';
export * from './outbox-event.js';
export * from './idempotency.js';
export * from './config.js';
export * from './webhook.js';
export * from './webhook-delivery.js';
export * from './stored-event.js';
