/**
 * The one list of the service's CloudWatch metrics (embedded metric format, written by
 * shared/observability; alarmed on and charted by lib/). Namespace `Allowance`; every metric carries
 * the dimensions `service` (always `allowance`, whatever function wrote it) and `stage`, plus at most
 * the extra dimension named here, whose values are a short closed set (never an id).
 */
export const METRICS_NAMESPACE = 'Allowance';
/** The `service` dimension of every metric (a function's logs use its own service name, allowance-<group>). */
export const METRICS_SERVICE = 'allowance';

export const METRIC = {
  /** A payment posted to the ledger (status completed or settled at once). Count. */
  paymentsPosted: 'PaymentsPosted',
  /** A payment waiting for a human approval. Count. */
  paymentsQueued: 'PaymentsQueued',
  /** A payment refused; dimension `code` (the envelope's error code). Count. */
  paymentsRefused: 'PaymentsRefused',
  /** A TransactWriteItems cancelled by a TransactionConflict (each attempt). Count. */
  transactionConflicts: 'TransactionConflicts',
  /** A write that ran out of retries and answered CONCURRENT_UPDATE. Count. */
  retriesExhausted: 'RetriesExhausted',
  /** Write capacity units a committed write consumed; dimension `operation` (the operation id). Count. */
  consumedWriteUnits: 'ConsumedWriteUnits',
  /** A webhook delivery attempt; dimension `outcome`: delivered | failed | dead_lettered. Count. */
  webhookDeliveries: 'WebhookDeliveries',
  /** The time one webhook delivery attempt took. Milliseconds. */
  webhookDeliveryLatency: 'WebhookDeliveryLatency',
  /** A card authorization decided; dimension `decision`: approved | declined. Count. */
  cardAuthorizations: 'CardAuthorizations',
  /** The time from an authorization request to its decision. Milliseconds. */
  cardAuthorizationLatency: 'CardAuthorizationLatency',
  /** A workflow step ran; dimensions `workflow` (transfer | dispute) and `outcome` (succeeded | failed). Count. */
  workflowSteps: 'WorkflowSteps',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** The card authorization budget the p99 alarm holds the decision latency to. */
export const CARD_AUTHORIZATION_P99_BUDGET_MS = 500;
