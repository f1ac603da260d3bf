/**
 * What a function may reach beyond its own code: a closed vocabulary, shared by the workers
 * (`shared/workers.ts`, each entry's `grants`) and the HTTP function groups (the catalog, each
 * group's `grants` in shared/operations). Each grant is one binding of lib/constructs/grants.ts
 * (a `bind*` method of ServiceFunction: environment variable and IAM statements together) and one
 * expectation in the infra tests, so widening what a function may do is always a visible change.
 * To come with their resources: 'table:writeAudit', ...
 *
 * Declarations only: no AWS SDK, no CDK, no service imports (functions and lib/ import this module).
 * The order of the list is the order in which a function's grants are bound (its IAM statements).
 */
export const GRANTS = [
  /** The ledger table: item reads and writes, index queries; no Scan, no DeleteItem, no AUDIT# updates. Every HTTP function has it (HTTP_BASE_GRANTS). */
  'table:readWrite',
  /** The ledger table's stream: describe it and read its records (what a stream trigger polls). */
  'table:readStream',
  /** Scan of the ledger table (operator reports only: the compliance report counts key items across organizations). */
  'table:scan',
  /** PutEvents on the service's event bus (EVENT_BUS_NAME). */
  'bus:put',
  /**
   * Where the MCP endpoint's token lives (MCP_AUTH_TOKEN_SECRET_ARN): the ARN only and no permission
   * on it (the compliance report asks whether the endpoint has a token, never for its value).
   */
  'mcpToken:locate',
  /** StartExecution on the transfer workflow's state machine only (TRANSFER_STATE_MACHINE_ARN). */
  'transferWorkflow:start',
  /** StartExecution on the dispute deadline workflow's state machine only (DISPUTE_STATE_MACHINE_ARN). */
  'disputeWorkflow:start',
  /**
   * SendMessage to the webhook-delivery queue and its DLQ (WEBHOOK_QUEUE_URL, WEBHOOK_DLQ_URL):
   * the delivery worker retries later, the webhooks group queues test events and manual retries.
   */
  'queue:send',
  /**
   * One-time expiry schedules (EXPIRY_SCHEDULE_GROUP, EXPIRY_SCHEDULER_ROLE_ARN, EXPIRY_QUEUE_ARN):
   * CreateSchedule in the events stack's group, PassRole on Scheduler's role only.
   */
  'scheduler:create',
  /**
   * The stage's webhook encryption key: its secret's ARN (WEBHOOK_ENCRYPTION_KEY_SECRET_ARN) and
   * GetSecretValue on that secret only, to seal and open webhook secrets and sign deliveries.
   */
  'webhookKey:read',
  /** The stage's KMS data key (DATA_KEY_ID): GenerateDataKey and Decrypt, to seal and open sensitive values (account numbers, card data). */
  'dataKey:seal',
] as const;
export type Grant = (typeof GRANTS)[number];

/** What every HTTP function (and the MCP function) has whatever its group: the table (it authenticates API keys there). */
export const HTTP_BASE_GRANTS: readonly Grant[] = ['table:readWrite'];

/** `grants` in the order of GRANTS, each once (the order in which they are bound). */
export const inGrantOrder = (grants: Iterable<Grant>): Grant[] => {
  const set = new Set(grants);
  return GRANTS.filter((grant) => set.has(grant));
};
