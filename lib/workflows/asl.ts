/**
 * The slice of the Amazon States Language our workflows use, as plain data (no CDK, no SDK): CDK
 * (lib/stacks/workflows-stack.ts) deploys a definition as its JSON, the local run
 * (bin/local/workflows.ts) and the integration tests execute the same object with
 * aws-local-stepfunctions.
 */

import type { WorkflowName } from '../../shared/workers.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Retrier {
  readonly ErrorEquals: readonly string[];
  readonly IntervalSeconds: number;
  readonly MaxAttempts: number;
  readonly BackoffRate: number;
  readonly MaxDelaySeconds?: number;
  readonly JitterStrategy?: 'FULL' | 'NONE';
}

/** A Lambda task invoked by its function ARN (the function's answer is the task's result, unwrapped). */
export interface TaskState {
  readonly Type: 'Task';
  readonly Comment?: string;
  readonly Resource: string;
  readonly Parameters: { readonly [key: string]: JsonValue };
  readonly ResultPath: string;
  readonly Retry: readonly Retrier[];
  readonly Next: string;
}

export interface ChoiceRule {
  readonly Variable?: string;
  readonly StringEquals?: string;
  readonly IsPresent?: boolean;
  readonly And?: readonly ChoiceRule[];
  readonly Or?: readonly ChoiceRule[];
  readonly Next?: string;
}

export interface ChoiceState {
  readonly Type: 'Choice';
  readonly Comment?: string;
  readonly Choices: readonly (ChoiceRule & { readonly Next: string })[];
  readonly Default: string;
}

export interface WaitState {
  readonly Type: 'Wait';
  readonly Comment?: string;
  readonly Seconds?: number;
  readonly TimestampPath?: string;
  readonly Next: string;
}

export interface SucceedState {
  readonly Type: 'Succeed';
  readonly Comment?: string;
}

export interface FailState {
  readonly Type: 'Fail';
  readonly Comment?: string;
  readonly Error: string;
  readonly Cause: string;
}

export type State = TaskState | ChoiceState | WaitState | SucceedState | FailState;

export interface StateMachineDefinition {
  readonly Comment: string;
  readonly StartAt: string;
  /** The execution fails with States.Timeout after this long (Step Functions' ExecutionsTimedOut). */
  readonly TimeoutSeconds: number;
  readonly States: { readonly [name: string]: State };
}

/**
 * A workflow: its definition, whose Task states name their Lambda function by a `${Placeholder}`
 * (CloudFormation's DefinitionSubstitutions syntax), and the worker of shared/workers.ts each
 * placeholder stands for. CDK substitutes the functions' ARNs; the local run substitutes a local
 * ARN and runs those Task states with the worker's handler module.
 */
export interface WorkflowDeclaration {
  /** The workflow's name, as workers name it in their `workflow-task` trigger. */
  readonly name: WorkflowName;
  readonly definition: StateMachineDefinition;
  /** Placeholder name (without `${}`) -> worker name. */
  readonly taskWorkers: { readonly [placeholder: string]: string };
}

export const placeholder = (name: string) => `\${${name}}`;

/** The definition with each `${Placeholder}` of a Task's Resource replaced by its value. */
export function renderDefinition(
  workflow: WorkflowDeclaration,
  values: { readonly [placeholder: string]: string },
): StateMachineDefinition {
  const states: Record<string, State> = {};
  for (const [name, state] of Object.entries(workflow.definition.States)) {
    if (state.Type !== 'Task') {
      states[name] = state;
      continue;
    }
    const key = Object.keys(workflow.taskWorkers).find((candidate) => placeholder(candidate) === state.Resource);
    if (key === undefined)
      throw new Error(`workflow ${workflow.name}: task ${name} names no declared placeholder (${state.Resource})`);
    const value = values[key];
    if (value === undefined) throw new Error(`workflow ${workflow.name}: no value for ${placeholder(key)}`);
    states[name] = { ...state, Resource: value };
  }
  return { ...workflow.definition, States: states };
}

/** The Task states of a workflow run by `worker` (those whose Resource is the worker's placeholder). */
export function taskStatesOf(workflow: WorkflowDeclaration, worker: string): string[] {
  const placeholders = Object.entries(workflow.taskWorkers)
    .filter(([, name]) => name === worker)
    .map(([key]) => placeholder(key));
  return Object.entries(workflow.definition.States)
    .filter(([, state]) => state.Type === 'Task' && placeholders.includes(state.Resource))
    .map(([name]) => name);
}
