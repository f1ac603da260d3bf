import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { groupsWith } from './grants.js';
import { renderDefinition, type StateMachineDefinition, type WorkflowDeclaration } from '../../lib/workflows/asl.js';
import { DISPUTE_STEPS_PLACEHOLDER, DISPUTE_WORKFLOW } from '../../lib/workflows/dispute-workflow.js';
import { WORKFLOWS, workflowProblems } from '../../lib/workflows/index.js';
import { TRANSFER_STEPS_PLACEHOLDER, TRANSFER_WORKFLOW } from '../../lib/workflows/transfer-workflow.js';
import { ENV } from '../../shared/config/env-names.js';
import { DISPUTE_STATES } from '../../shared/domain/disputes/dispute-states.js';
import { DISPUTE_STATUSES } from '../../shared/domain/disputes/types.js';
import { TRANSFER_STATES } from '../../shared/domain/transfers/transfer-states.js';
import { TRANSFER_STATUSES } from '../../shared/domain/transfers/types.js';
import type { Grant } from '../../shared/grants.js';
import { DISPUTE_STEPS_WORKER, TRANSFER_STEPS_WORKER, WORKERS, type WorkflowName } from '../../shared/workers.js';
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
  actionsBesidesXray,
  isTableDeletesStatement,
  XRAY_ACTIONS,
  type Statement,
} from './iam.js';
import { logicalIdOf, resolveCrossStack, synthStage } from './synth-stage.js';
import { isWorkflowStartStatement, workflowsTemplateOf } from './workflows.js';

/**
 * The workflows stack against lib/workflows/ and the `workflow-task` entries of shared/workers.ts:
 * each state machine runs exactly the declared definition, its role invokes only its task function,
 * failures and timeouts alarm, and only the functions that create its subjects may start it.
 */
// The step functions are bundled for real: a handler that can not be bundled fails here.
const dev = synthStage('dev', { bundle: ['Workflows'] });
const template = workflowsTemplateOf(dev);
const mcpTemplate = Template.fromStack(dev.mcp);
const { Resources: resources } = template.toJSON() as {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
};
const tables = tableReferences(dev);
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

/** The states no trigger of a state table leaves, computed from the table itself. */
const endStatesOf = (statuses: readonly string[], table: Record<string, { from: readonly string[] }>) =>
  statuses.filter((status) => !Object.values(table).some((transition) => transition.from.includes(status)));

/** Each workflow as this file expects it, written out (not read from the declarations). */
const EXPECTED = [
  {
    name: 'transfer' as WorkflowName,
    declaration: TRANSFER_WORKFLOW,
    placeholder: TRANSFER_STEPS_PLACEHOLDER,
    worker: TRANSFER_STEPS_WORKER,
    tasks: ['Settle', 'Submit'],
    workerGrants: ['table:readWrite', 'dataKey:seal', 'scheduler:create'],
    startGrant: 'transferWorkflow:start' as Grant,
    startVariable: ENV.transferStateMachineArn,
    // Transfers; payment links: a claim to a bank or USDC address.
    starterGroups: ['payment-links', 'transfers'],
    // Their tools.
    mcpStarts: true,
  },
  {
    name: 'dispute' as WorkflowName,
    declaration: DISPUTE_WORKFLOW,
    placeholder: DISPUTE_STEPS_PLACEHOLDER,
    worker: DISPUTE_STEPS_WORKER,
    tasks: ['Deadline'],
    workerGrants: ['table:readWrite'],
    startGrant: 'disputeWorkflow:start' as Grant,
    startVariable: ENV.disputeStateMachineArn,
    // The DISPUTES group opens disputes; MCP: its open_dispute tool.
    starterGroups: ['disputes'],
    mcpStarts: true,
  },
] as const;

const deployedOf = (name: WorkflowName) => {
  const deployed = dev.workflows.workflow(name);
  const stateMachineId = logicalIdOf(deployed.stateMachine);
  const properties = resources[stateMachineId]!.Properties;
  return {
    deployed,
    stateMachineId,
    properties,
    definition: JSON.parse(properties.DefinitionString as string) as StateMachineDefinition,
  };
};

/** The targets of the Choice rules that lead to `next` (Or rules flattened), by the status they compare. */
const statusesTo = (choice: StateMachineDefinition['States'][string] | undefined, next: string) => {
  if (choice?.Type !== 'Choice') throw new Error('not a Choice state');
  return choice.Choices.filter((rule) => rule.Next === next)
    .flatMap((rule) => rule.Or ?? [rule])
    .map((rule) => rule.StringEquals)
    .sort();
};

describe('workflows and workers agree', () => {
  it('every placeholder names a workflow-task worker of its workflow, and every such worker is run by its workflow', () => {
    expect(workflowProblems(WORKFLOWS, WORKERS)).toEqual([]);
    expect(WORKFLOWS.map((workflow) => workflow.name).sort()).toEqual(EXPECTED.map(({ name }) => name).sort());
    for (const expected of EXPECTED) {
      expect(
        WORKERS.find((worker) => worker.name === expected.worker),
        expected.worker,
      ).toMatchObject({
        entry: `functions/${expected.worker}/handler.ts`,
        trigger: { kind: 'workflow-task', workflow: expected.name },
        dlq: { enabled: false },
        grants: expected.workerGrants,
      });
    }
  });

  it('deploys one STANDARD state machine and one step function per workflow, no queue, no resource policy', () => {
    template.resourceCountIs('AWS::StepFunctions::StateMachine', EXPECTED.length);
    template.resourceCountIs('AWS::Lambda::Function', EXPECTED.length);
    template.resourceCountIs('AWS::SQS::Queue', 0);
    template.resourceCountIs('AWS::Lambda::EventInvokeConfig', 0);
    // No resource policy: only the state machines' roles (their identity policies) invoke the functions.
    template.resourceCountIs('AWS::Lambda::Permission', 0);
    expectNoOtherPolicyKinds(template);
  });
});

describe.each(EXPECTED)('workflows stack: the $name state machine', (expected) => {
  const { deployed, stateMachineId, properties, definition } = deployedOf(expected.name);
  const stepsFunction = deployed.functions.get(expected.worker)!;
  const stepsFunctionId = logicalIdOf(stepsFunction.function);
  const declaration: WorkflowDeclaration = expected.declaration;

  it('is STANDARD and runs the definition of lib/workflows, its placeholder substituted by its steps function', () => {
    expect(properties.StateMachineType).toBe('STANDARD');
    expect(definition).toEqual(declaration.definition);
    expect(properties.DefinitionSubstitutions).toEqual({ [expected.placeholder]: getAttArn(stepsFunctionId) });
    // What CloudFormation runs: the placeholders replaced, as the local run renders it.
    const arn = `arn:aws:lambda:eu-west-1:123456789012:function:${expected.worker}`;
    const substituted = (properties.DefinitionString as string).replaceAll(`\${${expected.placeholder}}`, arn);
    expect(JSON.parse(substituted)).toEqual(renderDefinition(declaration, { [expected.placeholder]: arn }));
    expect(substituted).not.toContain('${');
  });

  it("retries every Task: Lambda's transient errors with backoff, then any failure of the step a few times", () => {
    const tasks = Object.entries(definition.States).filter(([, state]) => state.Type === 'Task');
    expect(tasks.map(([name]) => name).sort()).toEqual(expected.tasks);
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

  it("logs errors (without the states' data) to its own log group with the stage's retention", () => {
    expect(properties.LoggingConfiguration).toEqual({
      Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: getAttArn(logicalIdOf(deployed.logGroup)) } }],
      IncludeExecutionData: false,
      Level: 'ERROR',
    });
    expect(resources[logicalIdOf(deployed.logGroup)]!.Properties).toMatchObject({
      LogGroupName: `/aws/vendedlogs/states/allowance-dev-${expected.name}`,
      RetentionInDays: 30,
    });
  });

  it('alarms on any failed or timed-out execution', () => {
    const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm')
      .map(([, alarm]) => alarm.Properties)
      .filter((alarm) => JSON.stringify(alarm.Dimensions).includes(`"${stateMachineId}"`));
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
    expect(alarms).toHaveLength(2);
  });

  it(`lets its role invoke the ${expected.worker} function and nothing else (besides log delivery)`, () => {
    const role = deployed.stateMachine.role;
    const trust = (resources[logicalIdOf(role)]!.Properties.AssumeRolePolicyDocument as { Statement: Statement[] })
      .Statement;
    expect(trust).toHaveLength(1);
    expect(trust[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'sts:AssumeRole',
      Principal: { Service: 'states.amazonaws.com' },
    });
    // Tracing (on in every stage) adds X-Ray's own actions, which IAM only grants on "*".
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
    // Log delivery and X-Ray (active tracing): the calls IAM takes on "*" only.
    const delivery = statements.find((statement) => statement !== invoke)!;
    expect(actionsBesidesXray(delivery).sort()).toEqual(LOG_DELIVERY_ACTIONS);
    expect(delivery.Resource).toBe('*');
  });

  it('runs its steps function on Node.js 24 arm64 with the timeout and memory of the workers table, and no DLQ (failures go back to the workflow)', () => {
    const worker = WORKERS.find((candidate) => candidate.name === expected.worker)!;
    expect(resources[stepsFunctionId]!.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: worker.timeoutSeconds,
      MemorySize: worker.memoryMb,
    });
  });
});

describe('the transfer workflow', () => {
  const { definition } = deployedOf('transfer');

  it('ends (Done) after either step on exactly the end states of the transfer state table; any other status but PENDING fails the execution', () => {
    const endStates = endStatesOf(TRANSFER_STATUSES, TRANSFER_STATES);
    expect(endStates.length).toBeGreaterThan(0);
    for (const name of ['Submitted', 'Settled']) {
      expect(statusesTo(definition.States[name], 'Done'), name).toEqual([...endStates].sort());
      const choice = definition.States[name];
      expect(choice?.Type === 'Choice' && choice.Default, name).toBe('UnexpectedStatus');
    }
    expect(definition.States.Done?.Type).toBe('Succeed');
  });

  it('waits for the rail on the settleAt the steps answer (a timestamp: scaled and real waits alike)', () => {
    const waits = Object.values(definition.States).filter((state) => state.Type === 'Wait');
    expect(waits.filter((state) => state.TimestampPath === '$.step.settleAt')).toHaveLength(2);
  });
});

describe('the dispute deadline workflow', () => {
  const { definition } = deployedOf('dispute');

  it('waits until the respondBy of its input, then runs the deadline step on the dispute of its input', () => {
    expect(definition.StartAt).toBe('WaitForDeadline');
    expect(definition.States.WaitForDeadline).toMatchObject({
      Type: 'Wait',
      TimestampPath: '$.respondBy',
      Next: 'Deadline',
    });
    expect(definition.States.Deadline).toMatchObject({
      Type: 'Task',
      Parameters: { step: 'deadline', 'disputeId.$': '$.disputeId' },
      ResultPath: '$.step',
      Next: 'Decided',
    });
    // The response window is 7 days: the execution may last a little longer, not forever.
    expect(definition.TimeoutSeconds).toBeGreaterThan(7 * 24 * 3600);
    expect(definition.TimeoutSeconds).toBeLessThanOrEqual(14 * 24 * 3600);
  });

  it('ends (Done) on RESPONDED and on exactly the end states of the dispute state table; any other status but OPEN fails the execution', () => {
    const endStates = endStatesOf(DISPUTE_STATUSES, DISPUTE_STATES);
    expect(endStates.sort()).toEqual(['CLOSED', 'RESOLVED_AGENT', 'RESOLVED_MERCHANT']);
    expect(statusesTo(definition.States.Decided, 'Done')).toEqual(['RESPONDED', ...endStates].sort());
    const decided = definition.States.Decided;
    expect(decided?.Type === 'Choice' && decided.Default).toBe('UnexpectedStatus');
    expect(definition.States.UnexpectedStatus?.Type).toBe('Fail');
    expect(definition.States.Done?.Type).toBe('Succeed');
  });

  it('asks again, never in a tight loop, when the step answers OPEN with respondBy (it ran early): until that respondBy and a second more', () => {
    const decided = definition.States.Decided;
    if (decided?.Type !== 'Choice') throw new Error('Decided is not a Choice state');
    const again = decided.Choices.filter((rule) => rule.Next === 'WaitForDeadlineAgain');
    expect(again).toHaveLength(1);
    expect(again[0]!.And).toEqual([
      { Variable: '$.step.status', StringEquals: 'OPEN' },
      { Variable: '$.step.respondBy', IsPresent: true },
    ]);
    expect(definition.States.WaitForDeadlineAgain).toMatchObject({
      Type: 'Wait',
      TimestampPath: '$.step.respondBy',
      Next: 'NotDueYet',
    });
    expect(definition.States.NotDueYet).toMatchObject({ Type: 'Wait', Seconds: 1, Next: 'Deadline' });
  });
});

describe('workflows stack: what the step functions may use', () => {
  const functionOf = (name: WorkflowName, worker: string) => dev.workflows.workflow(name).functions.get(worker)!;

  /** Every Allow statement of the role is one of `allowed`, or an action on the table or its indexes. */
  const expectOnlyTableAnd = (statements: Statement[], allowed: readonly ((statement: Statement) => boolean)[]) => {
    for (const statement of statements.filter((candidate) => candidate.Effect !== 'Deny')) {
      const actions = asArray(statement.Action as string | string[]);
      if (actions.every((action) => XRAY_ACTIONS.has(action))) continue;
      if (isTableDeletesStatement(statement, tables.classify)) continue;
      if (allowed.some((isAllowed) => isAllowed(statement))) continue;
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
  };
  const variablesOf = (logicalId: string) =>
    (resources[logicalId]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

  it("transfer-steps knows the table, the data key and the expiry schedules (an ACH deposit's clearing), and may use exactly them", () => {
    const fn = functionOf('transfer', TRANSFER_STEPS_WORKER);
    const statements = statementsOfRole(template, fn.function.role!);
    const variables = variablesOf(logicalIdOf(fn.function));
    expect(tables.resolve(variables[ENV.tableName])).toEqual(tables.tableName);
    expect(resolveCrossStack(variables[ENV.dataKeyId], dev.dataTemplate)).toEqual(
      getAttArn(logicalIdOf(dev.data.dataKey)),
    );
    for (const name of [ENV.expiryScheduleGroup, ENV.expirySchedulerRoleArn, ENV.expiryQueueArn])
      expect(variables[name], name).toBeDefined();
    expectAuditDeny(statements, tables.classify, TRANSFER_STEPS_WORKER);
    expectOnlyTableAnd(statements, [
      (statement) => isDataKeyStatement(dev, statement),
      (statement) => isExpirySchedulingStatement(statement),
    ]);
    expect(statements.filter((statement) => isDataKeyStatement(dev, statement))).toHaveLength(1);
    expect(statements.filter((statement) => isExpirySchedulingStatement(statement))).toHaveLength(2);
  });

  it('dispute-steps knows the table and may use the table only (the lapse is one table transaction)', () => {
    const fn = functionOf('dispute', DISPUTE_STEPS_WORKER);
    const statements = statementsOfRole(template, fn.function.role!);
    const variables = variablesOf(logicalIdOf(fn.function));
    expect(tables.resolve(variables[ENV.tableName])).toEqual(tables.tableName);
    for (const name of [
      ENV.dataKeyId,
      ENV.expiryScheduleGroup,
      ENV.transferStateMachineArn,
      ENV.disputeStateMachineArn,
    ])
      expect(variables[name], name).toBeUndefined();
    expectAuditDeny(statements, tables.classify, DISPUTE_STEPS_WORKER);
    expectOnlyTableAnd(statements, []);
  });
});

describe.each(EXPECTED)('who may start the $name workflow', (expected) => {
  const { stateMachineId } = deployedOf(expected.name);
  const startersOf = (statements: Statement[]) =>
    statements.filter((statement) =>
      asArray(statement.Action as string | string[]).some((action) => action.startsWith('states:')),
    );
  const isStart = (statement: Statement) => isWorkflowStartStatement(dev, statement, expected.name);

  it(`the MCP function ${expected.mcpStarts ? '(its tools): StartExecution on this state machine only, and its ARN' : 'not'}`, () => {
    const starting = startersOf(statementsOfRole(mcpTemplate, dev.mcp.function.function.role!)).filter(isStart);
    const variables = (
      resourcesOfType(mcpTemplate, 'AWS::Lambda::Function').find(
        ([id]) => id === logicalIdOf(dev.mcp.function.function),
      )![1].Properties.Environment as { Variables: Record<string, unknown> }
    ).Variables;
    expect(starting).toHaveLength(expected.mcpStarts ? 1 : 0);
    expect(resolveCrossStack(variables[expected.startVariable], template)).toEqual(
      expected.mcpStarts ? { Ref: stateMachineId } : undefined,
    );
  });

  it('the API groups that create its subjects, and no other group', () => {
    for (const [group, fn] of dev.api.functions) {
      const starting = startersOf(statementsOfRole(dev.apiTemplate, fn.function.role!)).filter(isStart);
      const variables = (
        resourcesOfType(dev.apiTemplate, 'AWS::Lambda::Function').find(([id]) => id === logicalIdOf(fn.function))![1]
          .Properties.Environment as { Variables: Record<string, unknown> }
      ).Variables;
      if (groupsWith(expected.startGrant).includes(group)) {
        expect(starting, group).toHaveLength(1);
        expect(resolveCrossStack(variables[expected.startVariable], template), group).toEqual({
          Ref: stateMachineId,
        });
      } else {
        expect(starting, group).toEqual([]);
        expect(variables[expected.startVariable], group).toBeUndefined();
      }
    }
  });

  it('is granted in the catalog to exactly the groups that create its subjects', () => {
    expect(groupsWith(expected.startGrant).sort()).toEqual([...expected.starterGroups]);
  });

  it('no worker', () => {
    for (const worker of dev.events.workers.values()) {
      expect(
        startersOf(statementsOfRole(dev.eventsTemplate, worker.function.function.role!)),
        worker.definition.name,
      ).toEqual([]);
    }
    for (const deployed of dev.workflows.workflows.values())
      for (const fn of deployed.functions.values())
        expect(startersOf(statementsOfRole(template, fn.function.role!))).toEqual([]);
  });
});

describe('every statement of a function that starts workflows is a start grant of one workflow', () => {
  it('MCP and the API groups: no states: action beyond StartExecution on a state machine of the stage', () => {
    const roles = [
      [mcpTemplate, dev.mcp.function.function.role!] as const,
      ...[...dev.api.functions.values()].map((fn) => [dev.apiTemplate, fn.function.role!] as const),
    ];
    for (const [stackTemplate, role] of roles) {
      for (const statement of statementsOfRole(stackTemplate, role)) {
        if (!asArray(statement.Action as string | string[]).some((action) => action.startsWith('states:'))) continue;
        expect(
          EXPECTED.some(({ name }) => isWorkflowStartStatement(dev, statement, name)),
          JSON.stringify(statement),
        ).toBe(true);
      }
    }
  });
});
