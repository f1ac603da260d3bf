/**
 * The local stand-in for the events stack: runs the workers of `shared/workers.ts` through the same
 * handler modules Lambda runs (`functions/<name>/handler.ts`, loaded on first use like a cold start),
 * with an event and context shaped like AWS's.
 *
 * Schedules: a `schedule` worker runs every LOCAL_SCHEDULE_PERIOD_MS (5 s), whatever its
 * `rateMinutes`. Not `rateMinutes` divided by TIME_SCALE: TIME_SCALE shrinks sandbox durations
 * (72 h approvals become 72 min by default, 1 s in the expiry e2e test), and a fixed short period
 * keeps what is due processed within seconds at any scale without polling DynamoDB Local in a
 * tight loop. Runs of one worker never overlap locally (a tick is skipped while the previous run
 * is still going); a failed run is logged and the next tick runs again, like the next rule firing.
 *
 * Streams: a `stream` worker reads DynamoDB Local's stream of the table (bin/local/table-stream.ts)
 * as Lambda's event source mapping does: batches of the records its `entityTypes` name, delivered
 * again from the record its handler reports as failed. Idle, the stream is polled every
 * LOCAL_STREAM_IDLE_MS, so projections are visible well within their 2 seconds.
 * Queues: a `queue` worker gets an in-process queue (shared/events/local-transport.ts) that the
 * handlers' queue adapter and the in-process event bus send to; each message is delivered after its
 * delay in an SQS-shaped event; a failed one is received again after LOCAL_QUEUE_VISIBILITY_MS, up
 * to the DLQ's maxReceiveCount, then kept in the queue's dead-letter list.
 * Workflow tasks: the workflows of lib/workflows/ run in-process (bin/local/workflows.ts) and their
 * Task states call these workers' handlers; executions start when a handler starts one.
 */
import { randomUUID } from 'node:crypto';
import { lambdaContext } from './lambda-context.js';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, DynamoDBRecord, ScheduledEvent, SQSEvent } from 'aws-lambda';
import { localTransport } from '../../shared/events/local-transport.js';
import { loadConfig } from '../../shared/config/config.js';
import { assertNever, WORKERS, workerTableProblems, type WorkerDefinition } from '../../shared/workers.js';
import { startStreamPoller, type StreamPoller } from './table-stream.js';
import { startLocalWorkflows, type LocalWorkflowRuns } from './workflows.js';

export const LOCAL_SCHEDULE_PERIOD_MS = 5_000;
export const LOCAL_STREAM_IDLE_MS = 100;
/** A queue message whose handling failed is received again after this (SQS: the visibility timeout). */
export const LOCAL_QUEUE_VISIBILITY_MS = 1_000;
/** How long `stop()` waits for runs in progress before letting the process exit anyway. */
const STOP_GRACE_MS = 2_000;
const REPO_ROOT = resolve(import.meta.dirname, '../..');

type WorkerHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface LocalWorkers {
  /** Names of the workers that run locally. */
  readonly running: readonly string[];
  /** Clears the timers and waits (briefly) for runs in progress. */
  stop(): Promise<void>;
  /** Resolves once the stream workers have handled every record written before the call. */
  streamsDrained(): Promise<void>;
  /** The message bodies a queue worker dead-lettered (its retries over, or sent there by the handler). */
  deadLetters(queue: string): string[];
  /** The workflows' executions (present when workflow-task workers run). */
  readonly workflows: LocalWorkflowRuns | undefined;
}

export interface LocalWorkerOptions {
  readonly workers?: readonly WorkerDefinition[];
  readonly schedulePeriodMs?: number;
  readonly streamIdleMs?: number;
  /** The table whose stream `stream` workers read (default: the configuration's, as the handlers read it). */
  readonly table?: { endpoint: string; tableName: string };
  readonly log?: Pick<Console, 'error'>;
}

export function startLocalWorkers(options: LocalWorkerOptions = {}): LocalWorkers {
  const workers = options.workers ?? WORKERS;
  const periodMs = options.schedulePeriodMs ?? LOCAL_SCHEDULE_PERIOD_MS;
  const log = options.log ?? console;
  const problems = workerTableProblems(workers);
  if (problems.length > 0) throw new Error(`invalid workers table:\n${problems.join('\n')}`);

  const timers: NodeJS.Timeout[] = [];
  const unregister: (() => void)[] = [];
  const queues = new Map<string, string[]>();
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const running: string[] = [];
  const pollers: StreamPoller[] = [];
  const workflowTasks: WorkerDefinition[] = [];

  for (const worker of workers) {
    const { trigger } = worker;
    switch (trigger.kind) {
      case 'schedule': {
        const load = lazyHandler(worker);
        let busy = false;
        const timer = setInterval(() => {
          if (busy) return;
          busy = true;
          const run = load()
            .then((handler) =>
              handler(
                scheduledEvent(worker),
                lambdaContext({
                  requestId: randomUUID(),
                  functionName: `allowance-local-${worker.name}`,
                  timeoutMs: worker.timeoutSeconds * 1000,
                  memoryMb: worker.memoryMb,
                }),
              ),
            )
            .then(
              () => undefined,
              (error: unknown) => log.error(`worker ${worker.name} failed`, error),
            )
            .finally(() => {
              busy = false;
              inFlight.delete(run);
            });
          inFlight.add(run);
        }, periodMs);
        // Never keeps the process alive: Ctrl-C and the end of a test run are not held up by it.
        timer.unref();
        timers.push(timer);
        running.push(worker.name);
        break;
      }
      case 'stream': {
        const load = lazyHandler(worker);
        const table = options.table ?? tableOfConfig();
        pollers.push(
          startStreamPoller({
            ...table,
            batchSize: trigger.batchSize,
            startingPosition: trigger.startingPosition,
            entityTypes: trigger.entityTypes,
            idleMs: options.streamIdleMs ?? LOCAL_STREAM_IDLE_MS,
            log,
            async deliver(records: DynamoDBRecord[]) {
              const handler = await load();
              const context = lambdaContext({
                requestId: randomUUID(),
                functionName: `allowance-local-${worker.name}`,
                timeoutMs: worker.timeoutSeconds * 1000,
                memoryMb: worker.memoryMb,
              });
              const result = (await handler({ Records: records }, context)) as
                { batchItemFailures?: { itemIdentifier: string }[] } | undefined;
              return (result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier);
            },
          }),
        );
        running.push(worker.name);
        break;
      }
      case 'queue': {
        const load = lazyHandler(worker);
        const maxReceives = worker.dlq.enabled ? (worker.dlq.maxReceiveCount ?? 1) : 1;
        const deadLetters: string[] = [];
        const deliver = (body: string, receiveCount: number) => {
          const run = load()
            .then((handler) => {
              const messageId = randomUUID();
              const context = lambdaContext({
                requestId: randomUUID(),
                functionName: `allowance-local-${worker.name}`,
                timeoutMs: worker.timeoutSeconds * 1000,
                memoryMb: worker.memoryMb,
              });
              return handler(sqsEvent(trigger.queue, messageId, body, receiveCount), context).then(
                (result) =>
                  (result as { batchItemFailures?: { itemIdentifier: string }[] } | undefined)?.batchItemFailures?.some(
                    (f) => f.itemIdentifier === messageId,
                  ) ?? false,
              );
            })
            .then(
              (failed) => failed,
              (error: unknown) => {
                log.error(`worker ${worker.name} failed`, error);
                return true;
              },
            )
            .then((failed) => {
              // As SQS: received again after the visibility timeout, then the DLQ.
              if (!failed) return;
              if (receiveCount >= maxReceives) deadLetters.push(body);
              else schedule(body, LOCAL_QUEUE_VISIBILITY_MS, receiveCount + 1);
            })
            .finally(() => inFlight.delete(run));
          inFlight.add(run);
        };
        const schedule = (body: string, delayMs: number, receiveCount: number) => {
          if (stopped) return;
          const timer = setTimeout(() => {
            timers.splice(timers.indexOf(timer), 1);
            deliver(body, receiveCount);
          }, delayMs);
          timer.unref();
          timers.push(timer);
        };
        unregister.push(
          localTransport.registerQueue(
            trigger.queue,
            { send: (body, delayMs) => schedule(body, delayMs, 1), deadLetter: (body) => deadLetters.push(body) },
            { busTarget: trigger.fromBus },
          ),
        );
        queues.set(trigger.queue, deadLetters);
        running.push(worker.name);
        break;
      }
      case 'workflow-task':
        // Run by their workflow, started below once every task worker is known.
        workflowTasks.push(worker);
        running.push(worker.name);
        break;
      default:
        assertNever(trigger);
    }
  }

  const workflows =
    workflowTasks.length > 0 ? startLocalWorkflows({ workers: workflowTasks, handlerOf: lazyHandler, log }) : undefined;

  return {
    running,
    workflows,
    deadLetters: (queue: string) => [...(queues.get(queue) ?? [])],
    async streamsDrained() {
      await Promise.all(pollers.map((poller) => poller.drained()));
    },
    async stop() {
      stopped = true;
      for (const off of unregister.splice(0)) off();
      for (const timer of timers) clearInterval(timer);
      timers.length = 0;
      await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
      await workflows?.stop();
      if (inFlight.size === 0) return;
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(inFlight),
        new Promise<void>((done) => {
          grace = setTimeout(done, STOP_GRACE_MS);
          grace.unref();
        }),
      ]);
      clearTimeout(grace);
    },
  };
}

/** The table the handlers use (their configuration, read from the environment as in Lambda). */
function tableOfConfig(): { endpoint: string; tableName: string } {
  const config = loadConfig();
  if (!config.dynamodbEndpoint)
    throw new Error('stream workers run locally against DynamoDB Local: set DYNAMODB_ENDPOINT');
  return { endpoint: config.dynamodbEndpoint, tableName: config.tableName };
}

/** The worker's handler module, imported once (the entry of the table, as Lambda bundles it). */
function lazyHandler(worker: WorkerDefinition): () => Promise<WorkerHandler> {
  let loaded: Promise<WorkerHandler> | undefined;
  return () => {
    if (!loaded) {
      const loading = import(pathToFileURL(resolve(REPO_ROOT, worker.entry)).href).then(
        (module: { handler?: unknown }) => {
          if (typeof module.handler !== 'function') throw new Error(`${worker.entry} exports no handler`);
          return module.handler as WorkerHandler;
        },
      );
      // A failed import (a syntax error while editing) is retried at the next tick.
      loading.catch(() => {
        if (loaded === loading) loaded = undefined;
      });
      loaded = loading;
    }
    return loaded;
  };
}

/** What an EventBridge schedule rule delivers to its Lambda target. */
function scheduledEvent(worker: WorkerDefinition): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region: process.env.AWS_REGION ?? 'local',
    resources: [`arn:aws:events:local:000000000000:rule/allowance-local-${worker.name}`],
    detail: {},
  };
}

/** What an SQS event source mapping hands the function: one record here. */
function sqsEvent(queue: string, messageId: string, body: string, receiveCount: number): SQSEvent {
  return {
    Records: [
      {
        messageId,
        receiptHandle: messageId,
        body,
        attributes: {
          ApproximateReceiveCount: String(receiveCount),
          SentTimestamp: String(Date.now()),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
        awsRegion: process.env.AWS_REGION ?? 'local',
      },
    ],
  };
}
