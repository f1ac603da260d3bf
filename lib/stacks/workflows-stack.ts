import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { WORKERS, workerTableProblems, type WorkerDefinition, type WorkflowName } from '../../shared/workers.js';
import type { StageConfig } from '../config/stage-config.js';
import { ServiceFunction } from '../constructs/service-function.js';
import { bindWorkerGrants } from '../constructs/grants.js';
import type { ExpiryScheduling } from './events-stack.js';
import type { WorkflowDeclaration } from '../workflows/asl.js';
import { WORKFLOWS, workflowProblems } from '../workflows/index.js';

export interface WorkflowsStackProps extends StackProps {
  readonly stage: StageConfig;
  /** The ledger table of the data stack (CDK turns the reference into a stack export). */
  readonly table: dynamodb.ITable;
  /** The stage's data key (data stack), for workers with the `dataKey:seal` grant. */
  readonly dataKey?: kms.IKey;
  /** The stage's webhook encryption key (data stack), for workers with the `webhookKey:read` grant. */
  readonly webhookEncryptionKey?: secretsmanager.ISecret;
  /** The one-time expiry schedules (events stack), for workers with the `scheduler:create` grant. */
  readonly expiryScheduling?: ExpiryScheduling;
  /** The workers table (its `workflow-task` entries); only tests pass another one. */
  readonly workers?: readonly WorkerDefinition[];
  /** The workflows of lib/workflows/; only tests pass others. */
  readonly workflows?: readonly WorkflowDeclaration[];
}

/** What one workflow of lib/workflows/ became. */
export interface DeployedWorkflow {
  readonly declaration: WorkflowDeclaration;
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;
  /** Its task workers by name (functions only its state machine invokes). */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  /** Executions failed, executions timed out. */
  readonly alarms: readonly cloudwatch.Alarm[];
}

/** Execution history in CloudWatch Logs: errors only, without the states' data (transfer facts). */
export const WORKFLOW_LOG_LEVEL = sfn.LogLevel.ERROR;

/**
 * The Step Functions workflows of lib/workflows/ (STANDARD), each with the functions of its task
 * workers (the `workflow-task` entries of shared/workers.ts). A state machine's role may invoke its
 * own task functions and nothing else (plus the log delivery calls CloudWatch Logs requires); an
 * execution that fails or times out alarms. API functions that start executions get
 * ServiceFunction.bindWorkflowStart through their `<workflow>Workflow:start` grant (the state
 * machines reach the grants as `stateMachines`: lib/stacks/stage-stacks.ts).
 */
export class WorkflowsStack extends Stack {
  readonly workflows: ReadonlyMap<WorkflowName, DeployedWorkflow>;

  constructor(scope: Construct, id: string, props: WorkflowsStackProps) {
    super(scope, id, props);
    const workers = props.workers ?? WORKERS;
    const declarations = props.workflows ?? WORKFLOWS;
    const problems = [...workerTableProblems(workers), ...workflowProblems(declarations, workers)];
    if (problems.length > 0) throw new Error(`invalid workflows:\n${problems.join('\n')}`);

    const deployed = new Map<WorkflowName, DeployedWorkflow>();
    for (const declaration of declarations)
      deployed.set(declaration.name, this.addWorkflow(declaration, workers, props));
    this.workflows = deployed;
  }

  /** A deployed workflow of lib/workflows/ by name. */
  workflow(name: WorkflowName): DeployedWorkflow {
    const found = this.workflows.get(name);
    if (!found) throw new Error(`the ${name} workflow is not deployed`);
    return found;
  }

  /** Every deployed state machine by workflow name (what the `<workflow>Workflow:start` grants point at). */
  get stateMachines(): { readonly [W in WorkflowName]?: sfn.IStateMachine } {
    return Object.fromEntries([...this.workflows].map(([name, deployed]) => [name, deployed.stateMachine]));
  }

  private addWorkflow(
    declaration: WorkflowDeclaration,
    workers: readonly WorkerDefinition[],
    props: WorkflowsStackProps,
  ): DeployedWorkflow {
    const { stage, table, dataKey, webhookEncryptionKey, expiryScheduling } = props;
    const { name } = declaration;
    const functions = new Map<string, ServiceFunction>();
    const substitutions: Record<string, string> = {};
    for (const [key, workerName] of Object.entries(declaration.taskWorkers)) {
      const worker = workers.find((candidate) => candidate.name === workerName)!;
      let fn = functions.get(workerName);
      if (!fn) {
        fn = new ServiceFunction(this, `Fn-${workerName}`, {
          group: workerName,
          stage,
          entry: worker.entry,
          timeoutSeconds: worker.timeoutSeconds,
          memoryMb: worker.memoryMb,
        });
        bindWorkerGrants(fn, worker.grants, {
          table,
          ...(dataKey ? { dataKey } : {}),
          ...(webhookEncryptionKey ? { webhookEncryptionKey } : {}),
          ...(expiryScheduling ? { expiryScheduling } : {}),
        });
        functions.set(workerName, fn);
      }
      substitutions[key] = fn.function.functionArn;
    }

    // Step Functions' vended logs: a /aws/vendedlogs/ name keeps the log group's resource policy small.
    const logGroup = new logs.LogGroup(this, `Logs-${name}`, {
      logGroupName: `/aws/vendedlogs/states/allowance-${stage.name}-${name}`,
      retention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    });
    const stateMachine = new sfn.StateMachine(this, `StateMachine-${name}`, {
      comment: declaration.definition.Comment,
      stateMachineType: sfn.StateMachineType.STANDARD,
      // The definition as lib/workflows declares it; its `${Placeholder}`s become the functions' ARNs.
      definitionBody: sfn.DefinitionBody.fromString(JSON.stringify(declaration.definition)),
      definitionSubstitutions: substitutions,
      logs: { destination: logGroup, level: WORKFLOW_LOG_LEVEL, includeExecutionData: false },
      tracingEnabled: stage.tracing,
      removalPolicy: stage.removalPolicy,
    });
    // Invoke its own task functions (unqualified ARNs, as the definition names them), nothing else.
    stateMachine.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'InvokeTaskFunctions',
        actions: ['lambda:InvokeFunction'],
        resources: [...functions.values()].map((fn) => fn.function.functionArn),
      }),
    );

    const alarmOn = (id: string, metric: cloudwatch.Metric, what: string) =>
      new cloudwatch.Alarm(this, `${id}-${name}`, {
        alarmDescription: `${what} (${name} workflow, ${stage.name}): docs/runbook.md`,
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    const alarms = [
      alarmOn(
        'ExecutionsFailed',
        stateMachine.metricFailed({ period: Duration.minutes(1) }),
        'An execution failed: a step kept failing or answered a status the workflow can not act on',
      ),
      alarmOn(
        'ExecutionsTimedOut',
        stateMachine.metricTimedOut({ period: Duration.minutes(1) }),
        'An execution timed out: its subject never reached a final state',
      ),
    ];
    return { declaration, stateMachine, logGroup, functions, alarms };
  }
}
