/**
 * The workers table: every non-HTTP function, declared once as plain data. CDK
 * (`lib/stacks/events-stack.ts`; `lib/stacks/workflows-stack.ts` for workflow tasks) creates one
 * function per entry with its trigger, DLQ and grants; the local run (`bin/local/workers.ts`)
 * invokes the same handler module on the same trigger; the infra tests
 * (`test/infra/events-stack.test.ts`, `test/infra/workflows-stack.test.ts`) check every entry.
 * Adding a worker means adding `functions/<name>/handler.ts` and one entry here: nothing else to
 * edit while its trigger kind and grants are already wired.
 *
 * Declarations only: no AWS SDK, no CDK, no service imports (lib/ may import this module).
 */
import { GRANTS, type Grant } from './grants.js';

// ---------------------------------------------------------------------------------------------
// Triggers: a discriminated union on `kind`, each wired in CDK and in the local run: `schedule`,
// `stream` and `queue` by the events stack, `workflow-task` by the workflows stack.
// ---------------------------------------------------------------------------------------------

/** A fixed-rate schedule (EventBridge rule in AWS; a timer in the local run). */
export interface ScheduleTrigger {
  readonly kind: 'schedule';
  /** Whole minutes between runs (EventBridge `rate(n minutes)`, at least 1). */
  readonly rateMinutes: number;
  /**
   * EventBridge's retries of a failed delivery to the function (0 to 185). Failures inside the
   * function are retried by Lambda's asynchronous invocation instead (default: twice).
   */
  readonly retryAttempts: number;
}

/**
 * The ledger table's stream (NEW_IMAGE): a DynamoDB stream event source mapping in AWS, DynamoDB
 * Local's stream polled by the local run. The handler answers Lambda's partial batch response
 * (`batchItemFailures`); a batch still failing after `retryAttempts` goes to the worker's DLQ
 * (as a pointer to the stream records, which the stream keeps 24 hours).
 */
export interface StreamTrigger {
  readonly kind: 'stream';
  readonly source: 'ledger-table';
  /** Records per invocation (1 to 10,000). */
  readonly batchSize: number;
  readonly startingPosition: 'TRIM_HORIZON' | 'LATEST';
  /** Retries of a failing batch before it goes to the DLQ (the stream keeps order meanwhile). */
  readonly retryAttempts: number;
  /**
   * Only records whose new image has one of these `entityType`s reach the function (Lambda event
   * filtering: the others cost no invocation). Empty: every record.
   */
  readonly entityTypes: readonly string[];
}

/**
 * An SQS queue of the events stack (SQS event source mapping with partial batch responses); locally
 * an in-process queue (bin/local/workers.ts) calling the same handler with an SQS-shaped event.
 */
export interface QueueTrigger {
  readonly kind: 'queue';
  /** The queue's name within the stage (e.g. `webhook-delivery`). */
  readonly queue: string;
  /** Messages per invocation (1 to 10 for a FIFO queue, up to 10,000 for a standard queue). */
  readonly batchSize: number;
  /** Whether a rule of the service's event bus sends every event to this queue. */
  readonly fromBus: boolean;
  /**
   * Whether EventBridge Scheduler's one-time schedules target this queue: the events stack adds a
   * schedule group and a role Scheduler assumes that may only send to this queue (at most one
   * such queue). The functions that schedule get ServiceFunction.bindExpiryScheduler.
   */
  readonly fromScheduler?: boolean;
}

/** The Step Functions workflows of `lib/workflows/` (each deployed by the workflows stack). */
export const WORKFLOW_NAMES = ['transfer', 'dispute'] as const;
export type WorkflowName = (typeof WORKFLOW_NAMES)[number];

/**
 * The Task states of a Step Functions workflow of `lib/workflows/` (the workflow's declaration names
 * the worker of each of its task placeholders): the function is created with its workflow in the
 * workflows stack, which alone may invoke it (synchronously; the workflow's Retry handles failures,
 * so no DLQ). Locally, bin/local/workflows.ts runs the workflow with aws-local-stepfunctions and
 * these Task states call the same handler module.
 */
export interface WorkflowTaskTrigger {
  readonly kind: 'workflow-task';
  readonly workflow: WorkflowName;
}

export type WorkerTrigger = ScheduleTrigger | StreamTrigger | QueueTrigger | WorkflowTaskTrigger;
export type WorkerTriggerKind = WorkerTrigger['kind'];
/** The trigger kinds CDK and the local run know how to wire today. */
export const WIRED_TRIGGER_KINDS: readonly WorkerTriggerKind[] = ['schedule', 'stream', 'queue', 'workflow-task'];

// ---------------------------------------------------------------------------------------------
// Grants: the closed vocabulary of shared/grants.ts (the HTTP groups of the catalog use it too).
// ---------------------------------------------------------------------------------------------

export type WorkerGrant = Grant;

/**
 * Where the events a worker failed to process go. `enabled: true` creates an SQS dead-letter
 * queue (SSE, TLS only, 14 days): a schedule trigger sends to it the deliveries EventBridge gave up
 * on and the invocations that still failed after Lambda's asynchronous retries; a queue trigger
 * uses it as its queue's redrive target after `maxReceiveCount` receives.
 */
export type WorkerDlq =
  | { readonly enabled: false }
  | {
      readonly enabled: true;
      /** Queue triggers only (required there): receives of a message before SQS moves it to the DLQ. */
      readonly maxReceiveCount?: number;
    };

export interface WorkerDefinition {
  /** Lower-case, `-` separated; also the folder under `functions/` and part of resource ids. */
  readonly name: string;
  readonly description: string;
  /** The handler module, relative to the repository root: always `functions/<name>/handler.ts`. */
  readonly entry: string;
  readonly trigger: WorkerTrigger;
  /** Lambda timeout (1 to 900). */
  readonly timeoutSeconds: number;
  /** Lambda memory (128 to 10,240). */
  readonly memoryMb: number;
  readonly dlq: WorkerDlq;
  readonly grants: readonly WorkerGrant[];
}

/** Memory of every function unless its entry says otherwise (as the HTTP groups). */
export const DEFAULT_WORKER_MEMORY_MB = 512;

/** The webhook-delivery queue (and worker) name. */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

/** The expiry queue (and worker): one-time schedules of EventBridge Scheduler deliver into it. */
export const EXPIRY_QUEUE = 'expiry';

/** The sweep's period: only a safety net now that each approval has its one-time schedule. */
export const EXPIRY_SWEEP_RATE_MINUTES = 15;

/** The transfer workflow (lib/workflows/transfer-workflow.ts) and the worker running its steps. */
export const TRANSFER_WORKFLOW_NAME: WorkflowName = 'transfer';
export const TRANSFER_STEPS_WORKER = 'transfer-steps';

/** The dispute deadline workflow (lib/workflows/dispute-workflow.ts) and the worker running its step. */
export const DISPUTE_WORKFLOW_NAME: WorkflowName = 'dispute';
export const DISPUTE_STEPS_WORKER = 'dispute-steps';

/** The hot-mode keeper's schedule (docs/architecture.md "Hot wallets"): lanes, quotas, rollover, demotions, promotions. */
export const HOT_KEEPER_RATE_MINUTES = 1;

export const WORKERS: readonly WorkerDefinition[] = [
  {
    name: EXPIRY_QUEUE,
    description:
      "Expires what a one-time schedule names when it fires (pending approvals, the clearing of ACH deposits, invoices' bank debits settling, recurring charges' runs, retries of declined charges; conditional state changes: idempotent, a decided approval or a released clearing is left alone)",
    entry: 'functions/expiry/handler.ts',
    // A message that arrives before its expiry (clock skew) is reported failed and received again.
    trigger: { kind: 'queue', queue: EXPIRY_QUEUE, batchSize: 10, fromBus: false, fromScheduler: true },
    timeoutSeconds: 10,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: true, maxReceiveCount: 5 },
    grants: ['table:readWrite', 'scheduler:create'],
  },
  {
    name: 'expiry-sweep',
    description:
      'Safety net of the one-time expiry schedules and the transfer workflow: expires pending approvals past their expiry, does the overdue work of transfers (submit, settle, end of clearing) by the same idempotent steps, reverses APPROVED card authorizations past their expiry (table only), and expires ACTIVE and PENDING_APPROVAL payment links past expiresAt',
    entry: 'functions/expiry-sweep/handler.ts',
    // Kept because scheduling happens after the payment's commit and may fail (logged, the payment
    // stands); a missed run is caught up by the next one: every run expires everything that is due.
    trigger: { kind: 'schedule', rateMinutes: EXPIRY_SWEEP_RATE_MINUTES, retryAttempts: 2 },
    timeoutSeconds: 30,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: true },
    grants: ['table:readWrite', 'dataKey:seal'],
  },
  {
    name: 'journal-projector',
    description:
      'Projects journal records from the table stream into audit entries, organization payment listings and events (derived ids, attribute_not_exists: idempotent)',
    entry: 'functions/journal-projector/handler.ts',
    // Visible within 2 s (decisions.md section 9): no batching window; a batch is retried while the
    // stream keeps order, then goes to the DLQ (`npm run journal:replay` rebuilds what it missed).
    // Outbox items (events of changes that are not movements) are published by the same consumer.
    trigger: {
      kind: 'stream',
      source: 'ledger-table',
      batchSize: 100,
      startingPosition: 'TRIM_HORIZON',
      retryAttempts: 10,
      entityTypes: ['TRANSACTION', 'OUTBOX_EVENT'],
    },
    timeoutSeconds: 30,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: true },
    grants: ['table:readWrite', 'table:readStream', 'bus:put'],
  },
  {
    name: WEBHOOK_DELIVERY_QUEUE,
    description:
      'Delivers events to webhooks (Standard Webhooks signature, retries with backoff for 3 days, delivery log; deliveries de-duplicated by derived id)',
    entry: 'functions/webhook-delivery/handler.ts',
    // Every event of the bus (a rule), plus the attempts this worker schedules itself.
    trigger: { kind: 'queue', queue: WEBHOOK_DELIVERY_QUEUE, batchSize: 10, fromBus: true },
    // Attempts of a batch run side by side, each at most 10 s.
    timeoutSeconds: 30,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: true, maxReceiveCount: 5 },
    grants: ['table:readWrite', 'queue:send', 'webhookKey:read'],
  },
  {
    name: TRANSFER_STEPS_WORKER,
    description:
      'Runs the steps of the transfer workflow: submit to the rail, settle (conditional state changes: a step that finds its work done answers the current status)',
    entry: 'functions/transfer-steps/handler.ts',
    trigger: { kind: 'workflow-task', workflow: TRANSFER_WORKFLOW_NAME },
    // One transfer per call: a few reads, one transaction and the rail's answer.
    timeoutSeconds: 30,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: false },
    // The rail is told the account number, opened from its seal; a settled ACH deposit schedules
    // the end of its clearing.
    grants: ['table:readWrite', 'dataKey:seal', 'scheduler:create'],
  },
  {
    name: DISPUTE_STEPS_WORKER,
    description:
      "Runs the dispute deadline workflow's step: lapses a dispute still OPEN at respondBy to RESOLVED_AGENT, its money paid to the initiator (a conditional state change: a dispute answered or resolved first is left alone and its status answered)",
    entry: 'functions/dispute-steps/handler.ts',
    trigger: { kind: 'workflow-task', workflow: DISPUTE_WORKFLOW_NAME },
    // One dispute per call: a few reads and one transaction.
    timeoutSeconds: 30,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: false },
    // The lapse is one table transaction (the dispute, the posting, events and audit entries).
    grants: ['table:readWrite'],
  },
  {
    name: 'hot-fold',
    description:
      "Folds a hot wallet's credit partitions into its balance as credits land in them (HOT_INBOX inserts; each fold one transaction guarded by the accumulator's seq and main's folded#g: idempotent)",
    entry: 'functions/hot-fold/handler.ts',
    // Fold lag about a second: no batching window; a partition whose fold failed is delivered
    // again (the stream keeps order), then the batch goes to the DLQ. The scheduled keeper's
    // reads fold nothing, but a payment's slow path folds what it needs inline, so a lagging
    // stream slows payments out and loses nothing.
    trigger: {
      kind: 'stream',
      source: 'ledger-table',
      batchSize: 100,
      startingPosition: 'TRIM_HORIZON',
      retryAttempts: 10,
      entityTypes: ['HOT_INBOX'],
    },
    timeoutSeconds: 30,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: true },
    grants: ['table:readWrite', 'table:readStream'],
  },
  {
    name: 'hot-keeper',
    description:
      'Keeps hot wallets (every minute): tops up and drains debit lanes, grants and revokes period quotas, pre-grants the next period, finishes demotions after their window, and promotes wallets whose measured conflicts crossed the threshold (each move one guarded transaction: a run racing another is harmless)',
    entry: 'functions/hot-keeper/handler.ts',
    trigger: { kind: 'schedule', rateMinutes: HOT_KEEPER_RATE_MINUTES, retryAttempts: 2 },
    // A step per hot wallet, 8 side by side: a few reads and transactions each.
    timeoutSeconds: 60,
    memoryMb: DEFAULT_WORKER_MEMORY_MB,
    dlq: { enabled: true },
    grants: ['table:readWrite'],
  },
];

export const entryOf = (name: string) => `functions/${name}/handler.ts`;

/** Workflow-task workers live with their workflow (workflows stack); the events stack holds the others. */
export const isWorkflowTask = (
  worker: WorkerDefinition,
): worker is WorkerDefinition & { trigger: WorkflowTaskTrigger } => worker.trigger.kind === 'workflow-task';

const NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const inRange = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

/**
 * Problems of a workers table (none when it is valid). CDK refuses to synthesize an invalid
 * table, and the infra tests check the real one, so a slip fails before a deploy.
 */
export function workerTableProblems(workers: readonly WorkerDefinition[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let schedulerTargets = 0;
  for (const worker of workers) {
    const at = `worker ${worker.name}`;
    if (!NAME_PATTERN.test(worker.name)) problems.push(`${at}: name must match ${NAME_PATTERN.source}`);
    if (seen.has(worker.name)) problems.push(`${at}: declared twice`);
    seen.add(worker.name);
    if (worker.entry !== entryOf(worker.name)) problems.push(`${at}: entry must be ${entryOf(worker.name)}`);
    if (!inRange(worker.timeoutSeconds, 1, 900)) problems.push(`${at}: timeoutSeconds must be 1 to 900`);
    if (!inRange(worker.memoryMb, 128, 10_240)) problems.push(`${at}: memoryMb must be 128 to 10240`);
    if (new Set(worker.grants).size !== worker.grants.length) problems.push(`${at}: a grant is listed twice`);
    for (const grant of worker.grants) {
      if (!(GRANTS as readonly string[]).includes(grant)) problems.push(`${at}: unknown grant ${grant}`);
    }

    const { trigger, dlq } = worker;
    if (!WIRED_TRIGGER_KINDS.includes(trigger.kind))
      problems.push(`${at}: trigger kind ${trigger.kind} is not wired in CDK and the local run yet`);
    switch (trigger.kind) {
      case 'schedule':
        if (!inRange(trigger.rateMinutes, 1, 60 * 24 * 365))
          problems.push(`${at}: rateMinutes must be a whole number of minutes, at least 1`);
        if (!inRange(trigger.retryAttempts, 0, 185)) problems.push(`${at}: retryAttempts must be 0 to 185`);
        break;
      case 'stream':
        if (!inRange(trigger.batchSize, 1, 10_000)) problems.push(`${at}: batchSize must be 1 to 10000`);
        if (!inRange(trigger.retryAttempts, 0, 10_000)) problems.push(`${at}: retryAttempts must be 0 to 10000`);
        if (!worker.grants.includes('table:readStream'))
          problems.push(`${at}: a stream trigger needs the grant table:readStream`);
        break;
      case 'queue':
        if (!inRange(trigger.batchSize, 1, 10_000)) problems.push(`${at}: batchSize must be 1 to 10000`);
        if (!dlq.enabled || dlq.maxReceiveCount === undefined)
          problems.push(`${at}: a queue trigger needs a DLQ with maxReceiveCount`);
        if (trigger.fromScheduler) schedulerTargets += 1;
        break;
      case 'workflow-task':
        if (!(WORKFLOW_NAMES as readonly string[]).includes(trigger.workflow))
          problems.push(`${at}: unknown workflow ${trigger.workflow}`);
        // Failures go back to the workflow (Retry/Catch): no DLQ of its own.
        if (dlq.enabled) problems.push(`${at}: a workflow task reports failures to its workflow, not to a DLQ`);
        break;
      default:
        return assertNever(trigger);
    }
    if (dlq.enabled && dlq.maxReceiveCount !== undefined) {
      if (trigger.kind !== 'queue') problems.push(`${at}: maxReceiveCount applies to queue triggers only`);
      else if (!inRange(dlq.maxReceiveCount, 1, 1000)) problems.push(`${at}: maxReceiveCount must be 1 to 1000`);
    }
  }
  if (schedulerTargets > 1) problems.push('at most one queue may be the target of one-time schedules (fromScheduler)');
  return problems;
}

/** Exhaustiveness guard for switches over `trigger.kind`: a new kind fails to compile until handled. */
export function assertNever(value: never): never {
  throw new Error(`unhandled worker trigger ${JSON.stringify(value)}`);
}
