/**
 * The local stand-in for the workflows stack: each workflow of lib/workflows/ runs in-process with
 * aws-local-stepfunctions (Node 22+; npm scripts run on Node 24), from the same definition CDK
 * deploys. Its Task states call the handler modules of their `workflow-task` workers (as Lambda
 * would, with a Lambda-shaped context); Wait states wait for real, so a sandbox transfer settles at
 * its `settleAt` (already divided by TIME_SCALE). Executions are started through the registry of
 * shared/workflows/local-workflows.ts, one per execution name, and never awaited by the caller: a
 * failed execution is logged (in AWS: the ExecutionsFailed alarm).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import {
  ExecutionAbortedError,
  StateMachine,
  type StateMachineDefinition as LocalDefinition,
} from 'aws-local-stepfunctions';
import { renderDefinition, taskStatesOf, type JsonValue, type WorkflowDeclaration } from '../../lib/workflows/asl.js';
import { WORKFLOWS, workflowProblems } from '../../lib/workflows/index.js';
import { localWorkflows } from '../../shared/workflows/local-workflows.js';
import { WORKERS, type WorkerDefinition } from '../../shared/workers.js';
import { lambdaContext } from './lambda-context.js';

export type TaskHandler = (event: unknown, context: Context) => Promise<unknown>;

/** How an execution ended. */
export type ExecutionOutcome =
  | { readonly status: 'SUCCEEDED'; readonly output: unknown }
  | { readonly status: 'FAILED'; readonly error: unknown }
  | { readonly status: 'ABORTED' };

export interface LocalWorkflowsOptions {
  /** The workflows to run (default: those of lib/workflows/ that `workers` serve: all of them by default). */
  readonly workflows?: readonly WorkflowDeclaration[];
  /** The workflow-task workers (default: those of shared/workers.ts that `workflows` name). */
  readonly workers?: readonly WorkerDefinition[];
  /** Each worker's handler, loaded on first use (the local run imports its entry module). */
  readonly handlerOf: (worker: WorkerDefinition) => () => Promise<TaskHandler>;
  /** Tests: the delay before every retry, instead of the definition's backoff. */
  readonly retryDelayMs?: number;
  readonly log?: Pick<Console, 'error'>;
}

export interface LocalWorkflowRuns {
  /** The workflows registered. */
  readonly running: readonly string[];
  /** How the named execution ended (resolves when it ends), if it was started. */
  outcome(workflow: string, name: string): Promise<ExecutionOutcome> | undefined;
  /** Resolves once every execution started so far has ended. */
  settled(): Promise<void>;
  /** Aborts the executions still running and unregisters the workflows. */
  stop(): Promise<void>;
}

/**
 * Each local Task call starts this long after its state is entered, as a Lambda invocation would.
 * It also keeps a Task that follows a Wait from running before the Wait's timestamp: a Node timer
 * may fire a millisecond early by Date.now(), and a settle step called before `settleAt` would
 * find the rail not yet settled (and the workflow would wait another second).
 */
export const LOCAL_INVOKE_LATENCY_MS = 2;

/**
 * The fields of a Task's answer that a Wait state reads as its TimestampPath (`<ResultPath>.<field>`):
 * the runner moves such a timestamp that is past (or about to be) to PAST_TIMESTAMP_MARGIN_MS from
 * now. Waiting until a past time does not wait (in AWS as locally), but aws-local-stepfunctions
 * would set a negative timer, which Node warns about each time (a sandbox FedNow transfer settles
 * 33 ms after submission: often past once submitted); the margin covers the Choice in between.
 */
export const PAST_TIMESTAMP_MARGIN_MS = 10;

function waitedFieldsOf(workflow: WorkflowDeclaration, taskState: string): string[] {
  const task = workflow.definition.States[taskState];
  if (task?.Type !== 'Task') return [];
  return Object.values(workflow.definition.States).flatMap((state) => {
    const prefix = `${task.ResultPath}.`;
    return state.Type === 'Wait' &&
      state.TimestampPath?.startsWith(prefix) &&
      !state.TimestampPath.slice(prefix.length).includes('.')
      ? [state.TimestampPath.slice(prefix.length)]
      : [];
  });
}

function withPastTimestampsMoved(answer: JsonValue, fields: readonly string[]): JsonValue {
  if (fields.length === 0 || answer === null || typeof answer !== 'object' || Array.isArray(answer)) return answer;
  const soonest = Date.now() + PAST_TIMESTAMP_MARGIN_MS;
  const moved = { ...answer };
  for (const field of fields) {
    const value = moved[field];
    if (typeof value === 'string' && Date.parse(value) < soonest) moved[field] = new Date(soonest).toISOString();
  }
  return moved;
}

/** A Lambda ARN for the local run (the definition's placeholders need one; the Task states never call it). */
const localFunctionArn = (worker: string) => `arn:aws:lambda:us-east-1:000000000000:function:allowance-local-${worker}`;

export function startLocalWorkflows(options: LocalWorkflowsOptions): LocalWorkflowRuns {
  // Given workflows run with the task workers of the table they name; given workers run the
  // workflows of lib/workflows/ they serve (a test may run one of either). A workflow with only
  // some of its task workers is refused below, as a given worker no given workflow runs.
  const serves = (workflow: WorkflowDeclaration, worker: WorkerDefinition) =>
    Object.values(workflow.taskWorkers).includes(worker.name);
  const tasks = (options.workers ?? WORKERS).filter((worker) => worker.trigger.kind === 'workflow-task');
  const declarations =
    options.workflows ?? WORKFLOWS.filter((workflow) => tasks.some((worker) => serves(workflow, worker)));
  const workers = options.workers
    ? tasks
    : tasks.filter((worker) => declarations.some((workflow) => serves(workflow, worker)));
  const log = options.log ?? console;
  const problems = workflowProblems(declarations, workers);
  if (problems.length > 0) throw new Error(`invalid workflows:\n${problems.join('\n')}`);

  const executions = new Map<string, { outcome: Promise<ExecutionOutcome>; abort: () => void }>();
  const unregister: (() => void)[] = [];
  let stopped = false;

  for (const workflow of declarations) {
    const handlers: Record<string, (input: JsonValue) => Promise<JsonValue>> = {};
    const arns: Record<string, string> = {};
    for (const [key, workerName] of Object.entries(workflow.taskWorkers)) {
      const worker = workers.find((candidate) => candidate.name === workerName)!;
      arns[key] = localFunctionArn(worker.name);
      const load = options.handlerOf(worker);
      const invoke = async (input: JsonValue) => {
        const handler = await load();
        await delay(LOCAL_INVOKE_LATENCY_MS);
        const context = lambdaContext({
          requestId: randomUUID(),
          functionName: `allowance-local-${worker.name}`,
          timeoutMs: worker.timeoutSeconds * 1000,
          memoryMb: worker.memoryMb,
        });
        // The answer crosses a JSON boundary in AWS too.
        return JSON.parse(JSON.stringify((await handler(input, context)) ?? null)) as JsonValue;
      };
      for (const state of taskStatesOf(workflow, worker.name)) {
        const waited = waitedFieldsOf(workflow, state);
        handlers[state] = async (input) => withPastTimestampsMoved(await invoke(input), waited);
      }
    }
    const definition = renderDefinition(workflow, arns);
    const machine = new StateMachine(definition as unknown as LocalDefinition);
    const taskStates = Object.keys(handlers);
    const retryIntervalOverrides =
      options.retryDelayMs === undefined
        ? undefined
        : Object.fromEntries(taskStates.map((state) => [state, options.retryDelayMs!]));

    unregister.push(
      localWorkflows.register(workflow.name, {
        start(name, input) {
          const key = `${workflow.name}/${name}`;
          if (stopped || executions.has(key)) return;
          const run = machine.run(input, {
            overrides: {
              taskResourceLocalHandlers: handlers,
              ...(retryIntervalOverrides ? { retryIntervalOverrides } : {}),
            },
            context: {
              Execution: {
                Id: `${workflow.name}:${name}`,
                Name: name,
                Input: input,
                StartTime: new Date().toISOString(),
              },
            },
          });
          const outcome: Promise<ExecutionOutcome> = run.result.then(
            (output) => ({ status: 'SUCCEEDED', output }),
            (error: unknown) => {
              if (error instanceof ExecutionAbortedError) return { status: 'ABORTED' };
              log.error(`workflow ${workflow.name}: execution ${name} failed`, error);
              return { status: 'FAILED', error };
            },
          );
          executions.set(key, { outcome, abort: run.abort });
        },
      }),
    );
  }

  return {
    running: declarations.map((workflow) => workflow.name),
    outcome: (workflow, name) => executions.get(`${workflow}/${name}`)?.outcome,
    async settled() {
      await Promise.all([...executions.values()].map((execution) => execution.outcome));
    },
    async stop() {
      stopped = true;
      for (const off of unregister.splice(0)) off();
      for (const execution of executions.values()) execution.abort();
      await Promise.all([...executions.values()].map((execution) => execution.outcome));
    },
  };
}
