import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { groupsWith } from './grants.js';
import { renderDefinition } from '../../lib/workflows/asl.js';
import { WORKFLOWS, workflowProblems } from '../../lib/workflows/index.js';
import { TRANSFER_STEPS_PLACEHOLDER, TRANSFER_WORKFLOW } from '../../lib/workflows/transfer-workflow.js';
import { ENV } from '../../shared/config/env-names.js';
import { TRANSFER_STATES } from '../../shared/domain/transfers/transfer-states.js';
import { TRANSFER_STATUSES } from '../../shared/domain/transfers/types.js';
import { TRANSFER_STEPS_WORKER, WORKERS } from '../../shared/workers.js';
import { isDataKeyStatement } from './data-key.js';
import {
  ALLOWED_INDEX_ACTIONS,
  ALLOWED_TABLE_ACTIONS,
  asArray,
  expectAuditDeny,
  expectNoOtherPolicyKinds,
  isExpirySchedulingStatement,
  resourcesOfType,
  statementsOfRole,
  tableReferences,
  XRAY_ACTIONS,
  type Statement,
} from './iam.js';
import { logicalIdOf, resolveCrossStack, synthStage } from './synth-stage.js';
import { isTransferWorkflowStartStatement, workflowsTemplateOf } from './workflows.js';

/**
 * The workflows stack against lib/workflows/ and the `workflow-task` entries of shared/workers.ts:
 * the state machine runs exactly the declared definition, its role invokes only its task function,
 * failures alarm, and only the functions that create transfers may start it.
 */
// The transfer-steps function is bundled for real: a handler that can not be bundled fails here.
const dev = synthStage('dev', { bundle: ['Workflows'] });
const template = workflowsTemplateOf(dev);
const mcpTemplate = Template.fromStack(dev.mcp);
const { Resources: resources } = template.toJSON() as {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
};
const tables = tableReferences(dev);
const transfer = dev.workflows.transfer;
const stateMachineId = logicalIdOf(transfer.stateMachine);
const stepsFunction = transfer.functions.get(TRANSFER_STEPS_WORKER)!;
const stepsFunctionId = logicalIdOf(stepsFunction.function);
const stepsWorker = WORKERS.find((worker) => worker.name === TRANSFER_STEPS_WORKER)!;
const stateMachine = resources[stateMachineId]!.Properties;
const deployedDefinition = JSON.parse(stateMachine.DefinitionString as string) as typeof TRANSFER_WORKFLOW.definition;
const getAttArn = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
/** The log delivery calls Step Functions needs to write to CloudWatch Logs (IAM only takes "*" for them). */
const LOG_DELIVERY_ACTIONS = [
  'logs:CreateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:DescribeLogGroups',
  'logs:DescribeResourcePolicies',
  'logs:GetLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:UpdateLogDelivery',
];

describe('workflows and workers agree', () => {
  it('every placeholder names a workflow-task worker of its workflow, and every such worker is run by its workflow', () => {
    expect(workflowProblems(WORKFLOWS, WORKERS)).toEqual([]);
    expect(stepsWorker).toMatchObject({
      entry: 'functions/transfer-steps/handler.ts',
      trigger: { kind: 'workflow-task', workflow: 'transfer' },
      dlq: { enabled: false },
      grants: ['table:readWrite', 'dataKey:seal', 'scheduler:create'],
    });
  });
});

describe('workflows stack: the transfer state machine', () => {
  it('is one STANDARD state machine running the definition of lib/workflows, its placeholder substituted by the transfer-steps function', () => {
    template.resourceCountIs('AWS::StepFunctions::StateMachine', 1);
    expect(stateMachine.StateMachineType).toBe('STANDARD');
    expect(deployedDefinition).toEqual(TRANSFER_WORKFLOW.definition);
    expect(stateMachine.DefinitionSubstitutions).toEqual({ [TRANSFER_STEPS_PLACEHOLDER]: getAttArn(stepsFunctionId) });
    // What CloudFormation runs: the placeholders replaced, as the local run renders it.
    const arn = 'arn:aws:lambda:eu-west-1:123456789012:function:transfer-steps';
    const substituted = (stateMachine.DefinitionString as string).replaceAll(`\${${TRANSFER_STEPS_PLACEHOLDER}}`, arn);
    expect(JSON.parse(substituted)).toEqual(renderDefinition(TRANSFER_WORKFLOW, { [TRANSFER_STEPS_PLACEHOLDER]: arn }));
    expect(substituted).not.toContain('${');
  });

  it('ends (Done) after either step on exactly the end states of the transfer state table; any other status but PENDING fails the execution', () => {
    // The states no trigger of transfer-states.ts leaves, computed here from the table itself.
    const endStates = TRANSFER_STATUSES.filter(
      (status) =>
        !Object.values(TRANSFER_STATES).some((transition) => (transition.from as readonly string[]).includes(status)),
    );
    expect(endStates.length).toBeGreaterThan(0);
    for (const name of ['Submitted', 'Settled']) {
      const choice = deployedDefinition.States[name];
      if (choice?.Type !== 'Choice') throw new Error(`${name} is not a Choice state`);
      const toDone = choice.Choices.filter((rule) => rule.Next === 'Done')
        .flatMap((rule) => rule.Or ?? [rule])
        .map((rule) => rule.StringEquals);
      expect(toDone.sort(), name).toEqual([...endStates].sort());
      expect(choice.Default, name).toBe('UnexpectedStatus');
    }
    expect(deployedDefinition.States.Done?.Type).toBe('Succeed');
  });

  it("retries both steps: Lambda's transient errors with backoff, then any failure of the step a few times", () => {
    const tasks = Object.entries(deployedDefinition.States).filter(([, state]) => state.Type === 'Task');
    expect(tasks.map(([name]) => name).sort()).toEqual(['Settle', 'Submit']);
    for (const [name, task] of tasks) {
      if (task.Type !== 'Task') continue;
      const errors = task.Retry.flatMap((retrier) => retrier.ErrorEquals);
      expect(errors, name).toEqual(
        expect.arrayContaining(['Lambda.ServiceException', 'Lambda.TooManyRequestsException', 'States.TaskFailed']),
      );
      for (const retrier of task.Retry) {
        expect(retrier.MaxAttempts, name).toBeGreaterThan(0);
        expect(retrier.BackoffRate, name).toBeGreaterThan(1);
      }
      // States.TaskFailed matches everything: it must come last, or the Lambda retrier never applies.
      expect(task.Retry.at(-1)!.ErrorEquals).toEqual(['States.TaskFailed']);
    }
  });

  it('waits for the rail on the settleAt the steps answer (a timestamp: scaled and real waits alike)', () => {
    const waits = Object.values(deployedDefinition.States).filter((state) => state.Type === 'Wait');
    expect(waits.filter((state) => state.TimestampPath === '$.step.settleAt')).toHaveLength(2);
  });

  it("logs errors (without the states' data) to its own log group with the stage's retention", () => {
    expect(stateMachine.LoggingConfiguration).toEqual({
      Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: getAttArn(logicalIdOf(transfer.logGroup)) } }],
      IncludeExecutionData: false,
      Level: 'ERROR',
    });
    expect(resources[logicalIdOf(transfer.logGroup)]!.Properties).toMatchObject({
      LogGroupName: '/aws/vendedlogs/states/allowance-dev-transfer',
      RetentionInDays: 30,
    });
  });

  it('alarms on any failed or timed-out execution', () => {
    const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut']) {
      const found = alarms.filter((alarm) => alarm.MetricName === metric);
      expect(found, metric).toHaveLength(1);
      expect(found[0], metric).toMatchObject({
        Namespace: 'AWS/States',
        Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: stateMachineId } }],
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('lets its role invoke the transfer-steps function and nothing else (besides log delivery)', () => {
    const role = transfer.stateMachine.role;
    const trust = (resources[logicalIdOf(role)]!.Properties.AssumeRolePolicyDocument as { Statement: Statement[] })
      .Statement;
    expect(trust).toHaveLength(1);
    expect(trust[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'sts:AssumeRole',
      Principal: { Service: 'states.amazonaws.com' },
    });
    // Tracing (a stage setting) would add X-Ray's own actions, which IAM only grants on "*".
    const statements = statementsOfRole(template, role).filter(
      (statement) => !asArray(statement.Action as string | string[]).every((action) => action.startsWith('xray:')),
    );
    expect(statements).toHaveLength(2);
    const invoke = statements.find((statement) => statement.Sid === 'InvokeTaskFunctions')!;
    expect(invoke).toMatchObject({
      Effect: 'Allow',
      Action: 'lambda:InvokeFunction',
      Resource: getAttArn(stepsFunctionId),
    });
    const delivery = statements.find((statement) => statement !== invoke)!;
    expect([...asArray(delivery.Action as string[])].sort()).toEqual(LOG_DELIVERY_ACTIONS);
    expect(delivery.Resource).toBe('*');
  });
});

describe('workflows stack: the transfer-steps function', () => {
  const properties = resources[stepsFunctionId]!.Properties;
  const statements = statementsOfRole(template, stepsFunction.function.role!);

  it('runs on Node.js 24 arm64 with the timeout and memory of the workers table, and no DLQ (failures go back to the workflow)', () => {
    expect(properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: stepsWorker.timeoutSeconds,
      MemorySize: stepsWorker.memoryMb,
    });
    template.resourceCountIs('AWS::Lambda::Function', 1);
    template.resourceCountIs('AWS::SQS::Queue', 0);
    template.resourceCountIs('AWS::Lambda::EventInvokeConfig', 0);
    // No resource policy: only the state machine's role (its identity policy) invokes it.
    template.resourceCountIs('AWS::Lambda::Permission', 0);
  });

  it("knows the table, the data key and the expiry schedules (an ACH deposit's clearing), and may use exactly them", () => {
    const variables = (properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(tables.resolve(variables[ENV.tableName])).toEqual(tables.tableName);
    expect(resolveCrossStack(variables[ENV.dataKeyId], dev.dataTemplate)).toEqual(
      getAttArn(logicalIdOf(dev.data.dataKey)),
    );
    for (const name of [ENV.expiryScheduleGroup, ENV.expirySchedulerRoleArn, ENV.expiryQueueArn])
      expect(variables[name], name).toBeDefined();
    expectNoOtherPolicyKinds(template);
    expectAuditDeny(statements, tables.classify, TRANSFER_STEPS_WORKER);
    for (const statement of statements.filter((candidate) => candidate.Effect !== 'Deny')) {
      const actions = asArray(statement.Action as string | string[]);
      if (actions.every((action) => XRAY_ACTIONS.has(action))) continue;
      if (isDataKeyStatement(dev, statement)) continue;
      if (isExpirySchedulingStatement(statement)) continue;
      for (const resource of asArray(statement.Resource)) {
        const kind = tables.classify(resource);
        for (const action of actions) {
          expect(
            (kind === 'table' && ALLOWED_TABLE_ACTIONS.has(action)) ||
              (kind === 'index' && ALLOWED_INDEX_ACTIONS.has(action)),
            `${action} on ${JSON.stringify(resource)}`,
          ).toBe(true);
        }
      }
    }
    expect(statements.filter((statement) => isDataKeyStatement(dev, statement))).toHaveLength(1);
    expect(statements.filter((statement) => isExpirySchedulingStatement(statement))).toHaveLength(2);
  });
});

describe('who may start the transfer workflow', () => {
  const startersOf = (statements: Statement[]) =>
    statements.filter((statement) =>
      asArray(statement.Action as string | string[]).some((action) => action.startsWith('states:')),
    );

  it('the MCP function (its transfer tools): StartExecution on the transfer state machine only, and its ARN', () => {
    const mcp = statementsOfRole(mcpTemplate, dev.mcp.function.function.role!);
    const starting = startersOf(mcp);
    expect(starting).toHaveLength(1);
    expect(isTransferWorkflowStartStatement(dev, starting[0]!), JSON.stringify(starting[0])).toBe(true);
    const variables = (
      resourcesOfType(mcpTemplate, 'AWS::Lambda::Function').find(
        ([id]) => id === logicalIdOf(dev.mcp.function.function),
      )![1].Properties.Environment as { Variables: Record<string, unknown> }
    ).Variables;
    expect(resolveCrossStack(variables[ENV.transferStateMachineArn], template)).toEqual({ Ref: stateMachineId });
  });

  it('the API groups that create transfers, and no other group', () => {
    for (const [group, fn] of dev.api.functions) {
      const starting = startersOf(statementsOfRole(dev.apiTemplate, fn.function.role!));
      const variables = (
        resourcesOfType(dev.apiTemplate, 'AWS::Lambda::Function').find(([id]) => id === logicalIdOf(fn.function))![1]
          .Properties.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      if (groupsWith('transferWorkflow:start').includes(group)) {
        expect(starting, group).toHaveLength(1);
        expect(isTransferWorkflowStartStatement(dev, starting[0]!), group).toBe(true);
        expect(resolveCrossStack(variables[ENV.transferStateMachineArn], template), group).toEqual({
          Ref: stateMachineId,
        });
      } else {
        expect(starting, group).toEqual([]);
        expect(variables[ENV.transferStateMachineArn], group).toBeUndefined();
      }
    }
  });

  it('is granted to the groups that create transfers in the catalog (transfers; payment links: a claim to a bank or USDC address), and to no other group', () => {
    expect(groupsWith('transferWorkflow:start').sort()).toEqual(['payment-links', 'transfers']);
  });

  it('no worker', () => {
    for (const worker of dev.events.workers.values()) {
      expect(
        startersOf(statementsOfRole(dev.eventsTemplate, worker.function.function.role!)),
        worker.definition.name,
      ).toEqual([]);
    }
    expect(startersOf(statementsOfRole(template, stepsFunction.function.role!))).toEqual([]);
  });
});
