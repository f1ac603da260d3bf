import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { assertNever, WORKERS, workerTableProblems, type WorkerDefinition, type WorkerGrant } from '../../shared/workers.js';
import type { StageConfig } from '../config/stage-config.js';
import { DeadLetterQueue } from '../constructs/dead-letter-queue.js';
import { ServiceFunction } from '../constructs/service-function.js';

export interface EventsStackProps extends StackProps {
  readonly stage: StageConfig;
  /** The ledger table of the data stack (CDK turns the reference into a stack export). */
  readonly table: dynamodb.ITable;
  /** The workers table; only tests pass another one. */
  readonly workers?: readonly WorkerDefinition[];
}

/** What one entry of the workers table became. */
export interface DeployedWorker {
  readonly definition: WorkerDefinition;
  readonly function: ServiceFunction;
  /** Schedule triggers: the EventBridge rule. */
  readonly rule?: events.Rule;
  /** Stream triggers: the event source mapping of the table's stream. */
  readonly eventSource?: DynamoEventSource;
  /** Present when the entry asks for a DLQ. */
  readonly dlq?: sqs.Queue;
}

/** The resources a grant can point at. */
interface GrantResources {
  readonly table: dynamodb.ITable;
}

/**
 * Each grant of the workers table is one `bind*` method of ServiceFunction (environment variable and
 * IAM statements together). The mapped type makes a new grant fail to compile until it is bound.
 */
const GRANT_BINDINGS: { readonly [G in WorkerGrant]: (fn: ServiceFunction, resources: GrantResources) => void } = {
  'table:readWrite': (fn, { table }) => fn.bindTable(table),
  // Describe the stream and read its records (the event source mapping polls with the function's role).
  'table:readStream': (fn, { table }) => table.grantStreamRead(fn.function),
};

/**
 * Everything that runs without an HTTP request: one function per entry of `shared/workers.ts` with
 * its trigger, dead-letter queue and grants read from the entry. (The event bus, webhook queues and
 * one-time schedules join this stack as they are built.)
 */
export class EventsStack extends Stack {
  readonly workers: ReadonlyMap<string, DeployedWorker>;

  constructor(scope: Construct, id: string, props: EventsStackProps) {
    super(scope, id, props);
    const { stage, table } = props;
    const definitions = props.workers ?? WORKERS;
    const problems = workerTableProblems(definitions);
    if (problems.length > 0) throw new Error(`invalid workers table:\n${problems.join('\n')}`);

    const workers = new Map<string, DeployedWorker>();
    for (const definition of definitions) {
      workers.set(definition.name, this.addWorker(definition, stage, { table }));
    }
    this.workers = workers;
  }

  private addWorker(definition: WorkerDefinition, stage: StageConfig, resources: GrantResources): DeployedWorker {
    const { name, trigger } = definition;
    const fn = new ServiceFunction(this, `Fn-${name}`, {
      group: name,
      stage,
      entry: definition.entry,
      timeoutSeconds: definition.timeoutSeconds,
      memoryMb: definition.memoryMb,
    });
    for (const grant of definition.grants) GRANT_BINDINGS[grant](fn, resources);

    const dlq = definition.dlq.enabled ? new DeadLetterQueue(this, `Dlq-${name}`, { stage }).queue : undefined;

    switch (trigger.kind) {
      case 'schedule': {
        const rule = new events.Rule(this, `Schedule-${name}`, {
          description: `Runs the ${name} worker: ${definition.description}`.slice(0, 512),
          schedule: events.Schedule.rate(Duration.minutes(trigger.rateMinutes)),
          // EventBridge invokes the function asynchronously: its DLQ only receives the deliveries it
          // gave up on (throttling, missing permission). Failures inside the function are Lambda's
          // asynchronous retries, then the same DLQ through the on-failure destination below.
          targets: [new targets.LambdaFunction(fn.function, { retryAttempts: trigger.retryAttempts, ...(dlq ? { deadLetterQueue: dlq } : {}) })],
        });
        if (dlq) fn.sendAsyncFailuresTo(dlq);
        return { definition, function: fn, rule, ...(dlq ? { dlq } : {}) };
      }
      case 'stream': {
        // Batches retried while the stream keeps order, then a pointer to them goes to the DLQ;
        // the handler reports partial failures (the batch resumes from the record it names).
        const eventSource = new DynamoEventSource(resources.table, {
          startingPosition: lambda.StartingPosition[trigger.startingPosition],
          batchSize: trigger.batchSize,
          retryAttempts: trigger.retryAttempts,
          reportBatchItemFailures: true,
          ...(dlq ? { onFailure: new SqsDlq(dlq) } : {}),
          ...(trigger.entityTypes.length > 0 ? { filters: [lambda.FilterCriteria.filter({ dynamodb: { NewImage: { entityType: { S: lambda.FilterRule.or(...trigger.entityTypes) } } } })] } : {}),
        });
        fn.function.addEventSource(eventSource);
        return { definition, function: fn, eventSource, ...(dlq ? { dlq } : {}) };
      }
      case 'queue':
      case 'workflow-task':
        // workerTableProblems refuses these until they are wired here and in bin/local/workers.ts.
        throw new Error(`worker ${name}: trigger kind ${trigger.kind} is not wired yet`);
      default:
        return assertNever(trigger);
    }
  }
}
