import { Template } from 'aws-cdk-lib/assertions';
import type { WorkflowName } from '../../shared/workers.js';
import { asArray, sameJson, type Statement } from './iam.js';
import { logicalIdOf, resolveCrossStack, type SynthesizedStage } from './synth-stage.js';

const templates = new WeakMap<SynthesizedStage, Template>();
/** The workflows stack's template (one per synthesized stage). */
export function workflowsTemplateOf(stage: SynthesizedStage): Template {
  let template = templates.get(stage);
  if (!template) templates.set(stage, (template = Template.fromStack(stage.workflows)));
  return template;
}

/** The statement ids of the workflows' start grants (written out: a renamed statement must be seen). */
const START_SIDS: { readonly [W in WorkflowName]: string } = {
  transfer: 'TransferWorkflowStart',
  dispute: 'DisputeWorkflowStart',
};

/**
 * Whether a statement is exactly the grant of ServiceFunction.bindWorkflowStart for `workflow`:
 * StartExecution, on that workflow's state machine only, nothing else (written out here, not
 * imported from the construct: widening it must fail the tests).
 */
export function isWorkflowStartStatement(
  stage: SynthesizedStage,
  statement: Statement,
  workflow: WorkflowName,
): boolean {
  if (statement.Effect !== 'Allow' || statement.Sid !== START_SIDS[workflow] || statement.Condition !== undefined)
    return false;
  const actions = asArray(statement.Action as string | string[]);
  const resources = asArray(statement.Resource);
  if (!sameJson(actions, ['states:StartExecution']) || resources.length !== 1) return false;
  return sameJson(resolveCrossStack(resources[0], workflowsTemplateOf(stage)), {
    Ref: logicalIdOf(stage.workflows.workflow(workflow).stateMachine),
  });
}
