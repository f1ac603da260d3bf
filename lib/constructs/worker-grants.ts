import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { WorkerGrant } from '../../shared/workers.js';
import type { ServiceFunction } from './service-function.js';

/** The resources a grant of the workers table can point at. */
export interface GrantResources {
  readonly table: dynamodb.ITable;
  /** The service's event bus (events stack). */
  readonly bus?: events.IEventBus;
  /** The stage's data key (data stack). */
  readonly dataKey?: kms.IKey;
  /** The secret holding the stage's webhook encryption key (data stack). */
  readonly webhookEncryptionKey?: secretsmanager.ISecret;
  /** The one-time expiry schedules' group, Scheduler's role and the expiry queue (events stack). */
  readonly expiryScheduling?: { readonly group: scheduler.IScheduleGroup; readonly role: iam.IRole; readonly queue: sqs.IQueue };
  /** The worker's own queue and DLQ (queue triggers). */
  readonly queue?: sqs.IQueue;
  readonly dlq?: sqs.IQueue;
}

const required = <T>(value: T | undefined, grant: WorkerGrant, what: string): T => {
  if (value === undefined) throw new Error(`${grant} needs ${what}`);
  return value;
};

/**
 * Each grant of the workers table is one `bind*` method of ServiceFunction (environment variable and
 * IAM statements together). The mapped type makes a new grant fail to compile until it is bound.
 * Read by every stack that creates workers (events, workflows).
 */
export const GRANT_BINDINGS: { readonly [G in WorkerGrant]: (fn: ServiceFunction, resources: GrantResources) => void } = {
  'table:readWrite': (fn, { table }) => fn.bindTable(table),
  // Describe the stream and read its records (the event source mapping polls with the function's role).
  'table:readStream': (fn, { table }) => table.grantStreamRead(fn.function),
  'bus:put': (fn, { bus }) => fn.bindBus(required(bus, 'bus:put', 'the event bus')),
  'queue:send': (fn, { queue, dlq }) => fn.bindDeliveryQueue(required(queue, 'queue:send', 'a queue trigger'), required(dlq, 'queue:send', 'a queue trigger with a DLQ')),
  'dataKey:seal': (fn, { dataKey }) => fn.bindDataKey(required(dataKey, 'dataKey:seal', 'the data key')),
  'webhookKey:read': (fn, { webhookEncryptionKey }) => fn.bindWebhookEncryptionKey(required(webhookEncryptionKey, 'webhookKey:read', 'the webhook encryption key (data stack)')),
  'scheduler:create': (fn, { expiryScheduling }) => {
    const { group, role, queue } = required(expiryScheduling, 'scheduler:create', 'the expiry schedules (events stack)');
    fn.bindExpiryScheduler(group, role, queue);
  },
};

/** Binds every grant of a worker. */
export function bindWorkerGrants(fn: ServiceFunction, grants: readonly WorkerGrant[], resources: GrantResources): void {
  for (const grant of grants) GRANT_BINDINGS[grant](fn, resources);
}
