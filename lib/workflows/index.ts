import type { WorkerDefinition } from '../../shared/workers.js';
import { placeholder, type WorkflowDeclaration } from './asl.js';
import { DISPUTE_WORKFLOW } from './dispute-workflow.js';
import { TRANSFER_WORKFLOW } from './transfer-workflow.js';

/** Every workflow: CDK deploys each (lib/stacks/workflows-stack.ts), the local run executes each (bin/local/workflows.ts). */
export const WORKFLOWS: readonly WorkflowDeclaration[] = [TRANSFER_WORKFLOW, DISPUTE_WORKFLOW];

/**
 * Problems between the workflows and the workers table (none when they agree): each placeholder
 * names a `workflow-task` worker of that workflow and is used by a Task state, every Task state
 * names a placeholder, and every `workflow-task` worker serves a declared workflow that uses it.
 */
export function workflowProblems(
  workflows: readonly WorkflowDeclaration[],
  workers: readonly WorkerDefinition[],
): string[] {
  const problems: string[] = [];
  for (const workflow of workflows) {
    const at = `workflow ${workflow.name}`;
    const tasks = Object.entries(workflow.definition.States).flatMap(([name, state]) =>
      state.Type === 'Task' ? [[name, state.Resource] as const] : [],
    );
    for (const [key, workerName] of Object.entries(workflow.taskWorkers)) {
      const worker = workers.find((candidate) => candidate.name === workerName);
      if (!worker) problems.push(`${at}: ${placeholder(key)} names no worker (${workerName})`);
      else if (worker.trigger.kind !== 'workflow-task' || worker.trigger.workflow !== workflow.name)
        problems.push(`${at}: worker ${workerName} is not a workflow-task worker of ${workflow.name}`);
      if (!tasks.some(([, resource]) => resource === placeholder(key)))
        problems.push(`${at}: no Task state uses ${placeholder(key)}`);
    }
    for (const [name, resource] of tasks) {
      if (!Object.keys(workflow.taskWorkers).some((key) => placeholder(key) === resource))
        problems.push(`${at}: Task ${name} names no declared placeholder (${resource})`);
    }
  }
  for (const worker of workers) {
    const { trigger } = worker;
    if (trigger.kind !== 'workflow-task') continue;
    const workflow = workflows.find((candidate) => candidate.name === trigger.workflow);
    if (!workflow || !Object.values(workflow.taskWorkers).includes(worker.name))
      problems.push(`worker ${worker.name}: no declared workflow runs it`);
  }
  return problems;
}
