import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { inGrantOrder, type Grant } from '../../shared/grants.js';
import { DISPUTE_WORKFLOW_NAME, TRANSFER_WORKFLOW_NAME, type WorkflowName } from '../../shared/workers.js';
import type { ServiceFunction } from './service-function.js';

/** The resources a grant (shared/grants.ts) can point at. */
export interface GrantResources {
  readonly table: dynamodb.ITable;
  /** The service's event bus (events stack). */
  readonly bus?: events.IEventBus;
  /** The stage's data key (data stack). */
  readonly dataKey?: kms.IKey;
  /** The secret holding the stage's webhook encryption key (data stack). */
  readonly webhookEncryptionKey?: secretsmanager.ISecret;
  /** The one-time expiry schedules' group, Scheduler's role and the expiry queue (events stack). */
  readonly expiryScheduling?: {
    readonly group: scheduler.IScheduleGroup;
    readonly role: iam.IRole;
    readonly queue: sqs.IQueue;
  };
  /** The webhook-delivery queue and its DLQ (a queue worker's own; the delivery worker's for HTTP functions). */
  readonly queue?: sqs.IQueue;
  readonly dlq?: sqs.IQueue;
  /** The workflows' state machines by workflow name (workflows stack). */
  readonly workflows?: { readonly [W in WorkflowName]?: sfn.IStateMachine };
  /** The secret holding the MCP endpoint's token (MCP stack). */
  readonly mcpToken?: secretsmanager.ISecret;
}

const required = <T>(value: T | undefined, grant: Grant, what: string): T => {
  if (value === undefined) throw new Error(`${grant} needs ${what}`);
  return value;
};

/** A `<workflow>Workflow:start` grant: StartExecution on that workflow's state machine, and its ARN. */
const startsWorkflow =
  (workflow: WorkflowName, grant: Grant) =>
  (fn: ServiceFunction, { workflows }: GrantResources): void =>
    fn.bindWorkflowStart(
      workflow,
      required(workflows?.[workflow], grant, `the ${workflow} workflow (workflows stack)`),
    );

/**
 * Each grant is one `bind*` method of ServiceFunction (environment variable and IAM statements
 * together). The mapped type makes a new grant fail to compile until it is bound. Read by every
 * stack that creates functions (api and stage wiring, events, workflows).
 */
export const GRANT_BINDINGS: { readonly [G in Grant]: (fn: ServiceFunction, resources: GrantResources) => void } = {
  'table:readWrite': (fn, { table }) => fn.bindTable(table),
  // Describe the stream and read its records (the event source mapping polls with the function's role).
  'table:readStream': (fn, { table }) => {
    table.grantStreamRead(fn.function);
  },
  'table:scan': (fn, { table }) => fn.bindTableScan(table),
  'bus:put': (fn, { bus }) => fn.bindBus(required(bus, 'bus:put', 'the event bus')),
  'mcpToken:locate': (fn, { mcpToken }) =>
    fn.bindMcpTokenReference(required(mcpToken, 'mcpToken:locate', 'the MCP token (MCP stack)')),
  'transferWorkflow:start': startsWorkflow(TRANSFER_WORKFLOW_NAME, 'transferWorkflow:start'),
  'disputeWorkflow:start': startsWorkflow(DISPUTE_WORKFLOW_NAME, 'disputeWorkflow:start'),
  'queue:send': (fn, { queue, dlq }) =>
    fn.bindDeliveryQueue(required(queue, 'queue:send', 'a queue'), required(dlq, 'queue:send', 'a queue with a DLQ')),
  'scheduler:create': (fn, { expiryScheduling }) => {
    const { group, role, queue } = required(
      expiryScheduling,
      'scheduler:create',
      'the expiry schedules (events stack)',
    );
    fn.bindExpiryScheduler(group, role, queue);
  },
  'webhookKey:read': (fn, { webhookEncryptionKey }) =>
    fn.bindWebhookEncryptionKey(
      required(webhookEncryptionKey, 'webhookKey:read', 'the webhook encryption key (data stack)'),
    ),
  'dataKey:seal': (fn, { dataKey }) => fn.bindDataKey(required(dataKey, 'dataKey:seal', 'the data key')),
};

/** Binds every grant of a worker, in the order its entry lists them. */
export function bindWorkerGrants(fn: ServiceFunction, grants: readonly Grant[], resources: GrantResources): void {
  for (const grant of grants) GRANT_BINDINGS[grant](fn, resources);
}

/** Binds grants in the vocabulary's order (HTTP groups, the MCP function). */
export function bindGrants(fn: ServiceFunction, grants: Iterable<Grant>, resources: GrantResources): void {
  for (const grant of inGrantOrder(grants)) GRANT_BINDINGS[grant](fn, resources);
}
