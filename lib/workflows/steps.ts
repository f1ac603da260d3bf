import type { ChoiceRule, Retrier, TaskState, WaitState } from './asl.js';

/**
 * What the workflows of lib/workflows/ share: the retries of a Task that calls a step worker, the
 * Choice rule on the status a step answers, and the pause after a Wait on a timestamp.
 */

/**
 * Lambda's own transient failures (service errors, throttling): retried with backoff and jitter,
 * as AWS recommends for every Lambda task.
 */
export const LAMBDA_SERVICE_RETRY: Retrier = {
  ErrorEquals: [
    'Lambda.ServiceException',
    'Lambda.AWSLambdaException',
    'Lambda.SdkClientException',
    'Lambda.TooManyRequestsException',
  ],
  IntervalSeconds: 1,
  MaxAttempts: 6,
  BackoffRate: 2,
  MaxDelaySeconds: 30,
  JitterStrategy: 'FULL',
};

/**
 * Any other failure of the step (a conflict that outlasted the store's own retries, DynamoDB
 * throttling, a timeout): the step is idempotent, so it is run again a few times; then the
 * execution fails (alarm).
 */
export const STEP_FAILURE_RETRY: Retrier = {
  ErrorEquals: ['States.TaskFailed'],
  IntervalSeconds: 2,
  MaxAttempts: 3,
  BackoffRate: 2,
  MaxDelaySeconds: 30,
  JitterStrategy: 'FULL',
};

/** Every step Task's Retry: States.TaskFailed matches everything, so it comes last. */
export const STEP_RETRY = [LAMBDA_SERVICE_RETRY, STEP_FAILURE_RETRY] as const;

/** Where each step Task puts its answer (`{status, ...}`): the Choice after it reads `$.step.status`. */
export const STEP_RESULT_PATH = '$.step';

/** A Task calling a step worker: its answer in STEP_RESULT_PATH, retried by STEP_RETRY. */
export const stepTask = (task: Pick<TaskState, 'Comment' | 'Resource' | 'Parameters' | 'Next'>): TaskState => ({
  Type: 'Task',
  Comment: task.Comment,
  Resource: task.Resource,
  Parameters: task.Parameters,
  ResultPath: STEP_RESULT_PATH,
  Retry: STEP_RETRY,
  Next: task.Next,
});

/** A Choice rule: the step answered one of `statuses`. */
export const stepStatusIn = (statuses: readonly string[]): ChoiceRule => ({
  Or: statuses.map((status) => ({ Variable: `${STEP_RESULT_PATH}.status`, StringEquals: status })),
});

/** A Choice rule: the step answered `status` and a timestamp `field` to wait until. */
export const stepStatusWithTimestamp = (status: string, field: string): ChoiceRule => ({
  And: [
    { Variable: `${STEP_RESULT_PATH}.status`, StringEquals: status },
    { Variable: `${STEP_RESULT_PATH}.${field}`, IsPresent: true },
  ],
});

/** `A, B or C` (the comments and causes of the definitions). */
export const listed = (statuses: readonly string[]) => `${statuses.slice(0, -1).join(', ')} or ${statuses.at(-1)}`;

/**
 * Step Functions truncates a Wait timestamp to the second, so a step asked again after waiting
 * until the timestamp it answered may run up to a second early: the loop back waits this much more
 * (never a tight loop, whatever the timestamp says).
 */
export const TRUNCATED_WAIT_PAUSE_SECONDS = 1;

/** The Wait of TRUNCATED_WAIT_PAUSE_SECONDS after a Wait on a timestamp the step answered, before asking it again. */
export const truncatedWaitPause = (comment: string, next: string): WaitState => ({
  Type: 'Wait',
  Comment: comment,
  Seconds: TRUNCATED_WAIT_PAUSE_SECONDS,
  Next: next,
});
