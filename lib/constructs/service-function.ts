import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ENV } from '../../shared/config/env-names.js';
import { timeoutOf } from '../../shared/http/routes.js';
import { METRICS_NAMESPACE } from '../../shared/observability/metric-names.js';
import { DELETABLE_KEY_PATTERNS, DELETE_ACTIONS } from '../../shared/persistence/entities/deletable-keys.js';
import type { WorkflowName } from '../../shared/workers.js';
import type { StageConfig } from '../config/stage-config.js';
import { BUNDLING, bundleAliases } from './bundling.js';

/** Repository root: entries, the lock file and esbuild's working directory are resolved from it. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const FUNCTION_MEMORY_MB = 512;
/** Below API Gateway's 29 s integration limit, so a slow call fails in our code, with our envelope. */
export const functionTimeout = (group: string) => Duration.seconds(timeoutOf(group));
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_24_X;
export const FUNCTION_ARCHITECTURE = lambda.Architecture.ARM_64;
const OUTPUT_FORMAT = { esm: OutputFormat.ESM, cjs: OutputFormat.CJS } as const;
if (FUNCTION_RUNTIME.name !== `nodejs${BUNDLING.target.slice('node'.length)}.x`) {
  throw new Error(`esbuild target ${BUNDLING.target} does not match the Lambda runtime ${FUNCTION_RUNTIME.name}`);
}

/**
 * Item-level actions on the table. A TransactWriteItems call is authorised per item against
 * PutItem/UpdateItem/ConditionCheckItem, so it needs no action of its own. No DeleteItem (ledger
 * and audit items are immutable) and no Scan (every access pattern is a key or an index query).
 */
export const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:Query',
] as const;

/** Denied on audit items (leading key AUDIT#...), whatever else a role is granted. */
export const AUDIT_DENIED_ACTIONS = ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'] as const;
export const AUDIT_LEADING_KEY_PATTERN = 'AUDIT#*';

/** Envelope encryption: a data key per sealed value, unwrapped to open it (shared/sealing/kms-sealer.ts). */
export const DATA_KEY_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'] as const;

/** Indexes are only ever queried. */
export const INDEX_ACTIONS = ['dynamodb:Query'] as const;

export interface ServiceFunctionProps {
  /** The folder under `functions/` holding `handler.ts` (an endpoint group or a worker). */
  readonly group: string;
  readonly stage: StageConfig;
  /** The handler module relative to the repository root (default `functions/<group>/handler.ts`). */
  readonly entry?: string;
  /** Default: the group's timeout from the route table. */
  readonly timeoutSeconds?: number;
  /** Default: FUNCTION_MEMORY_MB. */
  readonly memoryMb?: number;
}

/**
 * The Powertools environment of a function (read by Powertools itself): its service name
 * `allowance-<group>` (the `service` field of its log lines), the stage's log level, the metrics
 * namespace, tracing as the stage has it, and never a response in a trace (responses carry secrets
 * shown once). POWERTOOLS_DEV stays unset (it would pretty-print and drop the JSON lines).
 */
/** The Powertools version package.json pins (the layer must match the logger and metrics we bundle). */
const POWERTOOLS_VERSION: string = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
).dependencies['@aws-lambda-powertools/tracer']!;

/** AWS's public Powertools for AWS Lambda (TypeScript) layer, of the version package.json pins, resolved per region at deploy. */
export const POWERTOOLS_LAYER_PARAMETER = `/aws/service/powertools/typescript/generic/all/${POWERTOOLS_VERSION}`;

function powertoolsLayer(scope: Construct): lambda.ILayerVersion {
  const arn = ssm.StringParameter.valueForStringParameter(scope, POWERTOOLS_LAYER_PARAMETER);
  return lambda.LayerVersion.fromLayerVersionArn(scope, 'PowertoolsLayer', arn);
}

export function powertoolsEnvironment(group: string, stage: StageConfig): Record<string, string> {
  return {
    [ENV.powertoolsServiceName]: serviceNameOf(group),
    [ENV.powertoolsLogLevel]: stage.logLevel,
    [ENV.powertoolsMetricsNamespace]: METRICS_NAMESPACE,
    [ENV.powertoolsTraceEnabled]: stage.tracing ? 'true' : 'false',
    [ENV.powertoolsTracerCaptureResponse]: 'false',
  };
}

/** A function's service name in its logs and traces: `allowance-<group>`. */
export const serviceNameOf = (group: string) => `allowance-${group}`;

/**
 * One Lambda function per endpoint group, bundled locally with esbuild (no Docker). Resources are
 * attached with `bind*` methods that set the environment variable and the IAM grant together, so a
 * function never knows a resource it may not use, nor may use one it does not know.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly group: string;
  /** Errors (a crash, a timeout, a failed cold start: not an answered 500) and throttles, any in a minute. */
  readonly alarms: { readonly errors: cloudwatch.Alarm; readonly throttles: cloudwatch.Alarm };

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { group, stage } = props;
    this.group = group;

    // An explicit log group (instead of the deprecated `logRetention` custom resource) so retention
    // and removal follow the stage.
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    });

    this.function = new NodejsFunction(this, 'Function', {
      description: `Allowance ${stage.name}: ${group}`,
      entry: path.join(REPO_ROOT, props.entry ?? path.join('functions', group, 'handler.ts')),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      runtime: FUNCTION_RUNTIME,
      architecture: FUNCTION_ARCHITECTURE,
      memorySize: props.memoryMb ?? FUNCTION_MEMORY_MB,
      timeout: props.timeoutSeconds === undefined ? functionTimeout(group) : Duration.seconds(props.timeoutSeconds),
      logGroup,
      tracing: stage.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      // The tracer is not bundled (aws-xray-sdk-core would break the bundle budgets): a traced
      // function loads it from AWS's Powertools layer of the version we pin (shared/observability/tracer.ts).
      ...(stage.tracing ? { layers: [powertoolsLayer(this)] } : {}),
      environment: {
        ...stage.environment,
        ...powertoolsEnvironment(group, stage),
        // Stack traces point into the TypeScript sources rather than the minified bundle.
        NODE_OPTIONS: '--enable-source-maps',
      },
      // The options of bundling.ts (shared with the bundle benchmark), in CDK's spelling.
      bundling: {
        format: OUTPUT_FORMAT[BUNDLING.format],
        target: BUNDLING.target,
        minify: BUNDLING.minify,
        sourceMap: BUNDLING.sourcemap,
        sourcesContent: BUNDLING.sourcesContent,
        mainFields: [...BUNDLING.mainFields],
        banner: BUNDLING.banner,
        externalModules: [...BUNDLING.external],
        esbuildArgs: Object.fromEntries(
          Object.entries(bundleAliases(group)).map(([module, replacement]) => [`--alias:${module}`, replacement]),
        ),
      },
    });

    // Every function alarms on its own errors and throttles (docs/runbook.md "Function errors",
    // "Function throttles"); the stage's alarm topic is attached to every alarm (lib/constructs/alarms.ts).
    const period = Duration.minutes(1);
    const anyIn = (id: string, metric: cloudwatch.IMetric, what: string) =>
      new cloudwatch.Alarm(this, id, {
        alarmDescription: `${what} (${group}, ${stage.name}): docs/runbook.md`,
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    this.alarms = {
      errors: anyIn(
        'ErrorsAlarm',
        this.function.metricErrors({ period, statistic: cloudwatch.Stats.SUM }),
        'Function errors: an invocation crashed, timed out or failed its cold start',
      ),
      throttles: anyIn(
        'ThrottlesAlarm',
        this.function.metricThrottles({ period, statistic: cloudwatch.Stats.SUM }),
        'Function throttles: invocations refused for lack of concurrency',
      ),
    };
  }

  /**
   * Gives the function the table: its name in `ENV.tableName` and exactly the item actions it
   * needs on the table and its indexes (no Scan, no DeleteItem, nothing on other resources).
   */
  bindTable(table: dynamodb.ITable): void {
    this.function.addEnvironment(ENV.tableName, table.tableName);
    // Audit entries are immutable: no role may update or delete an item whose key starts AUDIT#.
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'AuditEntriesImmutable',
        effect: iam.Effect.DENY,
        actions: [...AUDIT_DENIED_ACTIONS],
        resources: [table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [AUDIT_LEADING_KEY_PATTERN] } },
      }),
    );
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'LedgerTableItems',
        actions: [...TABLE_ACTIONS],
        resources: [table.tableArn],
      }),
    );
    // Deletes only of the few items the service deletes (hot sub-items, the hot registry, a freed
    // email slot): DELETABLE_KEY_PATTERNS. AUDIT# keys stay denied above whatever this allows.
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'LedgerTableDeletes',
        actions: [...DELETE_ACTIONS],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...DELETABLE_KEY_PATTERNS] } },
      }),
    );
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'LedgerTableIndexes',
        actions: [...INDEX_ACTIONS],
        resources: [`${table.tableArn}/index/*`],
      }),
    );
  }

  /** Lets the function Scan the table (operator reports only: the compliance check counts key items across organizations). */
  bindTableScan(table: dynamodb.ITable): void {
    this.function.addToRolePolicy(
      new iam.PolicyStatement({ sid: 'LedgerTableScan', actions: ['dynamodb:Scan'], resources: [table.tableArn] }),
    );
  }

  /** Gives the function the service's event bus: its name in EVENT_BUS_NAME and PutEvents on it only. */
  bindBus(bus: events.IEventBus): void {
    this.function.addEnvironment(ENV.eventBusName, bus.eventBusName);
    this.function.addToRolePolicy(
      new iam.PolicyStatement({ sid: 'EventBusPut', actions: ['events:PutEvents'], resources: [bus.eventBusArn] }),
    );
  }

  /**
   * Gives the function the webhook-delivery queue and its DLQ (WEBHOOK_QUEUE_URL, WEBHOOK_DLQ_URL):
   * SendMessage on those two queues only (attempts scheduled later, deliveries dead-lettered).
   */
  bindDeliveryQueue(queue: sqs.IQueue, deadLetter: sqs.IQueue): void {
    this.function.addEnvironment(ENV.webhookQueueUrl, queue.queueUrl);
    this.function.addEnvironment(ENV.webhookDeadLetterUrl, deadLetter.queueUrl);
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'DeliveryQueueSend',
        actions: ['sqs:SendMessage'],
        resources: [queue.queueArn, deadLetter.queueArn],
      }),
    );
  }

  /**
   * Lets the function schedule one-time expiries (EXPIRY_SCHEDULE_GROUP, EXPIRY_SCHEDULER_ROLE_ARN,
   * EXPIRY_QUEUE_ARN): `scheduler:CreateSchedule` on the schedules of `group` only, and
   * `iam:PassRole` on Scheduler's `role` only, passed to Scheduler only. No read, update or delete:
   * Scheduler deletes each schedule after it fired (ActionAfterCompletion DELETE).
   */
  bindExpiryScheduler(group: scheduler.IScheduleGroup, role: iam.IRole, queue: sqs.IQueue): void {
    this.function.addEnvironment(ENV.expiryScheduleGroup, group.scheduleGroupName);
    this.function.addEnvironment(ENV.expirySchedulerRoleArn, role.roleArn);
    this.function.addEnvironment(ENV.expiryQueueArn, queue.queueArn);
    const schedules = Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${group.scheduleGroupName}/*`,
    });
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'ExpiryScheduleCreate',
        actions: ['scheduler:CreateSchedule'],
        resources: [schedules],
      }),
    );
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'ExpirySchedulerRolePass',
        actions: ['iam:PassRole'],
        resources: [role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }

  /**
   * Gives the function the stage's data key (DATA_KEY_ID) for envelope encryption of sensitive
   * values (shared/sealing/kms-sealer.ts): kms:GenerateDataKey and kms:Decrypt on that key only
   * (no Encrypt, no ReEncrypt, no key management).
   */
  bindDataKey(key: kms.IKey): void {
    this.function.addEnvironment(ENV.dataKeyId, key.keyArn);
    this.function.addToRolePolicy(
      new iam.PolicyStatement({ sid: 'DataKeyEnvelope', actions: [...DATA_KEY_ACTIONS], resources: [key.keyArn] }),
    );
  }

  /**
   * Gives the function one Secrets Manager secret to read at run time: its ARN in `variable` and
   * secretsmanager:GetSecretValue on that secret only (no DescribeSecret, no listing, no write;
   * the secret is encrypted with the AWS-managed key, so no KMS grant either).
   */
  bindSecret(variable: string, secret: secretsmanager.ISecret): void {
    if (secret.encryptionKey)
      throw new Error('bindSecret: a secret under a customer managed key would need kms:Decrypt too');
    this.function.addEnvironment(variable, secret.secretArn);
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        sid: secretReadSid(variable),
        actions: ['secretsmanager:GetSecretValue'],
        resources: [secret.secretArn],
      }),
    );
  }

  /**
   * Gives the function the stage's webhook encryption key (webhook secrets at rest are AES-256-GCM
   * under it, decisions.md section 8): the secret's ARN in WEBHOOK_ENCRYPTION_KEY_SECRET_ARN and
   * GetSecretValue on that secret only. The function reads the value at its first use and keeps it
   * for the process (shared/webhooks/secret-cipher.ts), so it is in neither the template, the code
   * nor the function's configuration.
   */
  bindWebhookEncryptionKey(secret: secretsmanager.ISecret): void {
    this.bindSecret(ENV.webhookEncryptionKeySecretArn, secret);
  }

  /**
   * Tells the function where the MCP token lives (MCP_AUTH_TOKEN_SECRET_ARN), for the compliance
   * report's `access_control.mcp_auth_token` control: the ARN only, and no permission on it (the
   * report asks whether the endpoint has a token, never for its value).
   */
  bindMcpTokenReference(secret: secretsmanager.ISecret): void {
    this.function.addEnvironment(ENV.mcpAuthTokenSecretArn, secret.secretArn);
  }

  /**
   * Lets the function start executions of `workflow` (its state machine's ARN in the variable of
   * WORKFLOW_START, e.g. TRANSFER_STATE_MACHINE_ARN): states:StartExecution on that state machine
   * only (no describe, stop or redrive: a second start of the same subject is answered
   * ExecutionAlreadyExists, which the adapter takes as started).
   */
  bindWorkflowStart(workflow: WorkflowName, stateMachine: sfn.IStateMachine): void {
    const { variable, sid } = WORKFLOW_START[workflow];
    this.function.addEnvironment(variable, stateMachine.stateMachineArn);
    this.function.addToRolePolicy(
      new iam.PolicyStatement({ sid, actions: ['states:StartExecution'], resources: [stateMachine.stateMachineArn] }),
    );
  }

  /**
   * Sends the events of asynchronous invocations (EventBridge rules, ...) that still fail after
   * Lambda's retries to `queue`, with the request and the error (an on-failure destination). The
   * role gets `sqs:SendMessage` on that queue only, which is all Lambda needs (CDK's SqsDestination
   * would add GetQueueAttributes and GetQueueUrl). No environment variable: the code never
   * writes to its own dead-letter queue.
   */
  sendAsyncFailuresTo(queue: sqs.IQueue): void {
    this.function.addToRolePolicy(
      new iam.PolicyStatement({ sid: 'AsyncFailuresToDlq', actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
    this.function.configureAsyncInvoke({ onFailure: { bind: () => ({ destination: queue.queueArn }) } });
  }
}

/** Per workflow: the variable its adapter reads the state machine's ARN from (shared/runtime/workflows.ts), and the statement id of its start. */
export const WORKFLOW_START: { readonly [W in WorkflowName]: { readonly variable: string; readonly sid: string } } = {
  transfer: { variable: ENV.transferStateMachineArn, sid: 'TransferWorkflowStart' },
  dispute: { variable: ENV.disputeStateMachineArn, sid: 'DisputeWorkflowStart' },
};

/** The statement id of a secret's read, unique per variable (a function may read several): `Read` + the variable in PascalCase. */
export function secretReadSid(variable: string): string {
  return `Read${variable
    .toLowerCase()
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
}
