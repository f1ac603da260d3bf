import type { Grant } from '../../shared/grants.js';
import { FUNCTION_GROUPS, grantsOf, type FunctionGroup } from '../../shared/operations/index.js';
import { isDataKeyStatement, isWebhookKeyStatement } from './data-key.js';
import { asArray, isExpirySchedulingStatement, type Statement } from './iam.js';
import { logicalIdOf, type SynthesizedStage } from './synth-stage.js';
import { isWorkflowStartStatement } from './workflows.js';

/** The HTTP function groups whose catalog entry declares `grant` (shared/operations, `grants`). */
export const groupsWith = (grant: Grant): FunctionGroup[] =>
  FUNCTION_GROUPS.filter((group) => grantsOf(group).includes(grant));

/**
 * What each grant may add to an HTTP or MCP function's role, as whole statements, written out here
 * rather than imported from the construct (widening a grant must fail the tests). The table grants
 * are checked action by action against ALLOWED_TABLE_ACTIONS by the tests themselves (`table:scan`
 * adds dynamodb:Scan on the table); `mcpToken:locate` adds no statement (the ARN only).
 */
export function grantStatements(stage: SynthesizedStage): { readonly [G in Grant]: (statement: Statement) => boolean } {
  return {
    'table:readWrite': () => false,
    'table:readStream': () => false,
    'table:scan': () => false,
    'bus:put': (statement) =>
      statement.Effect === 'Allow' &&
      asArray(statement.Action as string | string[]).every((action) => action === 'events:PutEvents') &&
      JSON.stringify(statement.Resource).includes(logicalIdOf(stage.events.bus)),
    'mcpToken:locate': () => false,
    'transferWorkflow:start': (statement) => isWorkflowStartStatement(stage, statement, 'transfer'),
    'disputeWorkflow:start': (statement) => isWorkflowStartStatement(stage, statement, 'dispute'),
    // SendMessage on the webhook-delivery queue and its DLQ only.
    'queue:send': (statement) => {
      const actions = asArray(statement.Action as string | string[]);
      const resources = asArray(statement.Resource);
      return (
        statement.Effect === 'Allow' &&
        actions.length === 1 &&
        actions[0] === 'sqs:SendMessage' &&
        resources.length === 2 &&
        resources.every((resource) => /Queuewebhookdelivery|Dlqwebhookdelivery/.test(JSON.stringify(resource)))
      );
    },
    'scheduler:create': (statement) => isExpirySchedulingStatement(statement),
    'webhookKey:read': (statement) => isWebhookKeyStatement(stage, statement),
    'dataKey:seal': (statement) => isDataKeyStatement(stage, statement),
  };
}
