import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EVENT_SOURCE_NAME } from '../../shared/domain/event-names.js';
import {
  assertNever,
  isWorkflowTask,
  WORKERS,
  workerTableProblems,
  type WorkerDefinition,
} from '../../shared/workers.js';
import type { StageConfig } from '../config/stage-config.js';
import { DeadLetterQueue } from '../constructs/dead-letter-queue.js';
import { ServiceFunction } from '../constructs/service-function.js';
import { bindWorkerGrants, type GrantResources } from '../constructs/grants.js';

export interface EventsStackProps extends StackProps {
  readonly stage: StageConfig;
  /** The ledger table of the data stack (CDK turns the reference into a stack export). */
  readonly table: dynamodb.ITable;
  /** The stage's data key (data stack), for workers granted `dataKey:seal` (the reconciler opens account numbers for the rail). */
  readonly dataKey?: kms.IKey;
  /** The stage's webhook encryption key (data stack), for workers granted `webhookKey:read` (webhook delivery signs with the secrets it opens). */
  readonly webhookEncryptionKey?: secretsmanager.ISecret;
  /** The workers table (its workflow tasks go to the workflows stack); only tests pass another one. */
  readonly workers?: readonly WorkerDefinition[];
}

/** What one entry of the workers table became. */
/** Bound after the expiry schedules exist (they are made from the workers). */
const SCHEDULER_CREATE = 'scheduler:create' as const;

export interface DeployedWorker {
  readonly definition: WorkerDefinition;
  readonly function: ServiceFunction;
  /** Schedule triggers: the EventBridge rule. */
  readonly rule?: events.Rule;
  /** Stream triggers: the event source mapping of the table's stream. */
  readonly eventSource?: DynamoEventSource;
  /** Queue triggers: the queue the function consumes (its DLQ is `dlq`). */
  readonly queue?: sqs.Queue;
  /** Queue triggers fed by the bus: the rule sending every event to the queue. */
  readonly busRule?: events.Rule;
  /** ... and where the events it could not put on the queue go. */
  readonly busDlq?: sqs.Queue;
  /** Present when the entry asks for a DLQ. */
  readonly dlq?: sqs.Queue;
  /** Alarms: DLQ depth (every worker with a DLQ, and the bus rule's DLQ), iterator age (stream workers); the function's own errors and throttles are `function.alarms`. */
  readonly alarms: readonly cloudwatch.Alarm[];
}

/**
 * EventBridge Scheduler's side of one-time expiries: the schedules live in `group`, target `queue`
 * (the queue worker whose trigger says `fromScheduler`) and are sent with `role`, which may only
 * `sqs:SendMessage` to that queue. Functions that schedule get ServiceFunction.bindExpiryScheduler.
 */
export interface ExpiryScheduling {
  readonly group: scheduler.ScheduleGroup;
  readonly role: iam.Role;
  readonly queue: sqs.IQueue;
}

/** A stream worker's records are older than this: the projector is falling behind (events late). */
export const ITERATOR_AGE_ALARM_MS = 60_000;

/**
 * Everything that runs without an HTTP request: one function per entry of `shared/workers.ts` (but
 * workflow tasks, which the workflows stack creates with their workflow) with its trigger,
 * dead-letter queue and grants read from the entry, plus what they share: the event
 * bus, the webhook queues and the schedule group (with its role) of the one-time expiry schedules.
 */
export class EventsStack extends Stack {
  readonly workers: ReadonlyMap<string, DeployedWorker>;
  /** The service's event bus: the projector puts every event on it. */
  readonly bus: events.EventBus;
  /** Present when a queue worker is the target of one-time schedules (the `expiry` worker). */
  readonly expiryScheduling?: ExpiryScheduling;

  constructor(scope: Construct, id: string, props: EventsStackProps) {
    super(scope, id, props);
    const { stage, table } = props;
    const definitions = props.workers ?? WORKERS;
    const problems = workerTableProblems(definitions);
    if (problems.length > 0) throw new Error(`invalid workers table:\n${problems.join('\n')}`);

    this.bus = new events.EventBus(this, 'Bus', {
      description: 'Allowance events: one per committed change (decisions.md section 8)',
    });
    const workers = new Map<string, DeployedWorker>();
    for (const definition of definitions.filter((worker) => !isWorkflowTask(worker))) {
      const shared = {
        table,
        bus: this.bus,
        ...(props.dataKey ? { dataKey: props.dataKey } : {}),
        ...(props.webhookEncryptionKey ? { webhookEncryptionKey: props.webhookEncryptionKey } : {}),
      };
      workers.set(definition.name, this.addWorker(definition, stage, shared));
    }
    this.workers = workers;

    const target = [...workers.values()].find(
      (worker) => worker.definition.trigger.kind === 'queue' && worker.definition.trigger.fromScheduler,
    );
    if (target?.queue) {
      const group = new scheduler.ScheduleGroup(this, 'ExpirySchedules', { removalPolicy: stage.removalPolicy });
      const role = new iam.Role(this, 'ExpirySchedulerRole', {
        description:
          'Assumed by EventBridge Scheduler to deliver one-time expiry schedules to the expiry queue (and nothing else)',
        // Only Scheduler, and only for schedules of this account (confused deputy).
        assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
          conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
        }),
      });
      // Only SendMessage, only to the expiry queue (not queue.grantSendMessages: no GetQueueAttributes/GetQueueUrl).
      role.addToPolicy(
        new iam.PolicyStatement({
          sid: 'ExpiryQueueSend',
          actions: ['sqs:SendMessage'],
          resources: [target.queue.queueArn],
        }),
      );
      this.expiryScheduling = { group, role, queue: target.queue };
      // Workers that schedule expiries themselves (the expiry worker's recurring charges and retries):
      // bound now that the schedules exist (addWorker leaves this one grant out).
      for (const worker of workers.values()) {
        if (worker.definition.grants.includes(SCHEDULER_CREATE))
          bindWorkerGrants(worker.function, [SCHEDULER_CREATE], { table, expiryScheduling: this.expiryScheduling });
      }
    }
  }

  private addWorker(
    definition: WorkerDefinition,
    stage: StageConfig,
    shared: GrantResources & { readonly bus: events.IEventBus },
  ): DeployedWorker {
    const { name, trigger } = definition;
    const fn = new ServiceFunction(this, `Fn-${name}`, {
      group: name,
      stage,
      entry: definition.entry,
      timeoutSeconds: definition.timeoutSeconds,
      memoryMb: definition.memoryMb,
    });
    const dlq = definition.dlq.enabled ? new DeadLetterQueue(this, `Dlq-${name}`, { stage }).queue : undefined;
    const alarms: cloudwatch.Alarm[] = [];
    // Anything in a DLQ is a failure someone must look at (a dead-lettered webhook delivery included).
    const alarmOnDepth = (id: string, queue: sqs.IQueue, what: string) =>
      alarms.push(
        new cloudwatch.Alarm(this, id, {
          alarmDescription: `Messages in ${what} (${stage.name}): docs/runbook.md`,
          metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    if (dlq) alarmOnDepth(`DlqDepth-${name}`, dlq, `the ${name} worker's dead-letter queue`);
    const queue =
      trigger.kind === 'queue'
        ? new sqs.Queue(this, `Queue-${name}`, {
            encryption: sqs.QueueEncryption.SQS_MANAGED,
            enforceSSL: true,
            // Lambda's guidance: at least six times the function's timeout.
            visibilityTimeout: Duration.seconds(definition.timeoutSeconds * 6),
            ...(dlq && definition.dlq.enabled && definition.dlq.maxReceiveCount
              ? { deadLetterQueue: { queue: dlq, maxReceiveCount: definition.dlq.maxReceiveCount } }
              : {}),
          })
        : undefined;
    const resources: GrantResources = { ...shared, ...(queue ? { queue } : {}), ...(dlq ? { dlq } : {}) };
    bindWorkerGrants(
      fn,
      definition.grants.filter((grant) => grant !== SCHEDULER_CREATE),
      resources,
    );

    switch (trigger.kind) {
      case 'schedule': {
        const rule = new events.Rule(this, `Schedule-${name}`, {
          description: `Runs the ${name} worker: ${definition.description}`.slice(0, 512),
          schedule: events.Schedule.rate(Duration.minutes(trigger.rateMinutes)),
          // EventBridge invokes the function asynchronously: its DLQ only receives the deliveries it
          // gave up on (throttling, missing permission). Failures inside the function are Lambda's
          // asynchronous retries, then the same DLQ through the on-failure destination below.
          targets: [
            new targets.LambdaFunction(fn.function, {
              retryAttempts: trigger.retryAttempts,
              ...(dlq ? { deadLetterQueue: dlq } : {}),
            }),
          ],
        });
        if (dlq) fn.sendAsyncFailuresTo(dlq);
        return { definition, function: fn, rule, alarms, ...(dlq ? { dlq } : {}) };
      }
      case 'stream': {
        // Batches retried while the stream keeps order, then a pointer to them goes to the DLQ;
        // the handler reports partial failures (the batch resumes from the record it names).
        const eventSource = new DynamoEventSource(resources.table, {
          startingPosition: lambda.StartingPosition[trigger.startingPosition],
          batchSize: trigger.batchSize,
          retryAttempts: trigger.retryAttempts,
          reportBatchItemFailures: true,
          // A failing batch is split to isolate the record that fails.
          bisectBatchOnError: true,
          ...(dlq ? { onFailure: new SqsDlq(dlq) } : {}),
          ...(trigger.entityTypes.length > 0
            ? {
                filters: [
                  lambda.FilterCriteria.filter({
                    dynamodb: { NewImage: { entityType: { S: lambda.FilterRule.or(...trigger.entityTypes) } } },
                  }),
                ],
              }
            : {}),
        });
        fn.function.addEventSource(eventSource);
        alarms.push(
          new cloudwatch.Alarm(this, `IteratorAge-${name}`, {
            alarmDescription: `The ${name} worker is more than ${ITERATOR_AGE_ALARM_MS / 1000} s behind the table's stream (${stage.name}): docs/runbook.md`,
            metric: fn.function.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1) }),
            threshold: ITERATOR_AGE_ALARM_MS,
            evaluationPeriods: 3,
            comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
          }),
        );
        return { definition, function: fn, eventSource, alarms, ...(dlq ? { dlq } : {}) };
      }
      case 'queue': {
        if (!queue) throw new Error(`worker ${name}: no queue`);
        fn.function.addEventSource(
          new SqsEventSource(queue, { batchSize: trigger.batchSize, reportBatchItemFailures: true }),
        );
        // Events the bus could not put on the queue (after EventBridge's retries) go to a queue of
        // their own: they are bus events, not deliveries, so they stay out of the worker's DLQ.
        const busDlq = trigger.fromBus ? new DeadLetterQueue(this, `BusDlq-${name}`, { stage }).queue : undefined;
        if (busDlq) alarmOnDepth(`BusDlqDepth-${name}`, busDlq, `the dead-letter queue of the bus rule to ${name}`);
        const busRule = busDlq
          ? new events.Rule(this, `BusRule-${name}`, {
              eventBus: shared.bus,
              description: `Every event of the service to the ${name} queue`,
              eventPattern: { source: [EVENT_SOURCE_NAME] },
              targets: [new targets.SqsQueue(queue, { deadLetterQueue: busDlq })],
            })
          : undefined;
        return {
          definition,
          function: fn,
          queue,
          alarms,
          ...(busRule && busDlq ? { busRule, busDlq } : {}),
          ...(dlq ? { dlq } : {}),
        };
      }
      case 'workflow-task':
        // Filtered out above: created with their workflow (lib/stacks/workflows-stack.ts).
        throw new Error(`worker ${name}: workflow tasks belong to the workflows stack`);
      default:
        return assertNever(trigger);
    }
  }
}
