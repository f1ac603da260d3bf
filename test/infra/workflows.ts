import { Template } from 'aws-cdk-lib/assertions';
import { asArray, sameJson, type Statement } from './iam.js';
import { logicalIdOf, resolveCrossStack, type SynthesizedStage } from './synth-stage.js';

const templates = new WeakMap<SynthesizedStage, Template>();
/** The workflows stack's template (one per synthesized stage). */
export function workflowsTemplateOf(stage: SynthesizedStage): Template {
  let template = templates.get(stage);
  if (!template) templates.set(stage, (template = Template.fromStack(stage.workflows)));
  return template;
}

/**
 * Whether a statement is exactly the grant of ServiceFunction.bindTransferWorkflow: StartExecution,
 * on the transfer workflow's state machine only, nothing else (written out here, not imported from
 * the construct: widening it must fail the tests).
 */
export function isTransferWorkflowStartStatement(stage: SynthesizedStage, statement: Statement): boolean {
  if (statement.Effect !== 'Allow' || statement.Sid !== 'TransferWorkflowStart' || statement.Condition !== undefined)
    return false;
  const actions = asArray(statement.Action as string | string[]);
  const resources = asArray(statement.Resource);
  if (!sameJson(actions, ['states:StartExecution']) || resources.length !== 1) return false;
  return sameJson(resolveCrossStack(resources[0], workflowsTemplateOf(stage)), {
    Ref: logicalIdOf(stage.workflows.transfer.stateMachine),
  });
}
