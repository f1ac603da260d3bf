import {
  Stack,
  Validations,
  type CfnResource,
  type IPolicyValidationContext,
  type IPolicyValidationPlugin,
  type PolicyValidationPluginReport,
  type PolicyViolation,
} from 'aws-cdk-lib';
import { CfnRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnPolicy, CfnRole } from 'aws-cdk-lib/aws-iam';
import { CfnEventSourceMapping, CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { AwsSolutionsChecks, ServerlessChecks, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { DeadLetterQueue } from './constructs/dead-letter-queue.js';
import { ServiceFunction } from './constructs/service-function.js';

/**
 * cdk-nag (AwsSolutions and Serverless packs) over every stack of the app: `bin/app.ts` registers
 * the packs with `applyNagChecks`, so `cdk synth` (and deploy) fails on any finding that is not
 * acknowledged below. Every acknowledgment is in NAG_ACKNOWLEDGMENTS (this file, nowhere else),
 * with the rule, the findings and resources it covers and its reason; test/infra/nag.test.ts counts
 * them, fails on any finding left and on any acknowledgment that no longer matches anything.
 *
 * Findings fixed rather than acknowledged: access logging (JSON) on the HTTP API stage, X-Ray
 * tracing on every function and state machine, a dead-letter queue on the bus rule's SQS target,
 * TLS-only SNS and SQS, log retention on every log group, explicit memory and timeout.
 */
export interface NagAcknowledgment {
  /** The rule: `<pack>-<rule>`, e.g. `AwsSolutions-IAM5`. */
  readonly rule: string;
  /**
   * For rules that report findings (`AwsSolutions-IAM5[Resource::*]`): the findings covered. Without
   * it, only the rule's plain violation (no finding) is covered.
   */
  readonly finding?: RegExp;
  /** The resources covered (a CloudFormation resource of the tree). */
  readonly on: (resource: CfnResource) => boolean;
  /** Why the finding is accepted. */
  readonly reason: string;
}

const ancestors = (construct: IConstruct): IConstruct[] => construct.node.scopes.slice(0, -1).reverse();
const withinServiceFunction = (resource: CfnResource) => ancestors(resource).some((c) => c instanceof ServiceFunction);
const withinDeadLetterQueue = (resource: CfnResource) => ancestors(resource).some((c) => c instanceof DeadLetterQueue);
/** The resource is the secret of the construct with this id (e.g. `WebhookEncryptionKey`). */
const secretOf = (id: string) => (resource: CfnResource) =>
  resource instanceof CfnSecret && resource.node.scope?.node.id === id;

/** Actions IAM grants on `Resource: *` only, and that our roles may hold there. */
export const STAR_ONLY_ACTIONS: ReadonlySet<string> = new Set([
  // X-Ray active tracing (Lambda and Step Functions).
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
  // A stream consumer lists the table's streams (Lambda's DynamoDB event source).
  'dynamodb:ListStreams',
  // Step Functions' log delivery to CloudWatch Logs.
  'logs:CreateLogDelivery',
  'logs:GetLogDelivery',
  'logs:UpdateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:DescribeResourcePolicies',
  'logs:DescribeLogGroups',
]);

interface Statement {
  readonly Action?: string | string[];
  readonly Resource?: unknown;
}
/** Every statement of the policy that names `Resource: *` grants only STAR_ONLY_ACTIONS. */
function starOnlyForStarActions(resource: CfnResource): boolean {
  if (!(resource instanceof CfnPolicy)) return false;
  const document = Stack.of(resource).resolve(resource.policyDocument) as { Statement: Statement[] };
  const list = <T>(value: T | T[] | undefined): T[] =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];
  return document.Statement.filter((statement) => list(statement.Resource).includes('*')).every((statement) =>
    list(statement.Action).every((action) => STAR_ONLY_ACTIONS.has(action)),
  );
}

export const NAG_ACKNOWLEDGMENTS: readonly NagAcknowledgment[] = [
  {
    rule: 'AwsSolutions-IAM4',
    finding: /^Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole$/,
    on: (resource) => resource instanceof CfnRole && withinServiceFunction(resource),
    reason:
      "AWSLambdaBasicExecutionRole grants only CloudWatch Logs writes (CreateLogGroup, CreateLogStream, PutLogEvents) for the function's own logs; everything else a function may do is an inline statement of a bind* method.",
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::\*$/,
    on: starOnlyForStarActions,
    reason:
      'Only actions IAM grants on "*" alone: X-Ray trace segments and sampling (active tracing), dynamodb:ListStreams (a stream consumer) and the CloudWatch Logs delivery calls of a state machine (STAR_ONLY_ACTIONS; any other action on "*" is still a finding).',
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::.+\/index\/\*$/,
    on: (resource) => resource instanceof CfnPolicy && withinServiceFunction(resource),
    reason:
      "dynamodb:Query on the ledger table's own indexes (GSI1 to GSI4 of shared/persistence/table-schema.ts): the wildcard stands for those indexes of that one table, read-only.",
  },
  {
    rule: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule\/[^/]+\/\*$/,
    on: (resource) => resource instanceof CfnPolicy && withinServiceFunction(resource),
    reason:
      'scheduler:CreateSchedule on the schedules of the one expiry schedule group: each schedule is named at run time after its subject (an approval, a hold), so only the group can be named here.',
  },
  {
    rule: 'AwsSolutions-SMG4',
    on: secretOf('WebhookEncryptionKey'),
    reason:
      'WEBHOOK_ENCRYPTION_KEY must never change on its own: every stored webhook secret is sealed under it and would stop opening. Rotating it needs a re-encryption of the stored secrets (docs/deploy.md "Webhook encryption key", docs/runbook.md).',
  },
  {
    rule: 'AwsSolutions-SMG4',
    on: secretOf('McpAuthToken'),
    reason:
      'The MCP bearer token lives in the MCP clients\' configuration: an automatic rotation would lock them out. It is rotated by hand (docs/runbook.md "Rotate the MCP token"); the function picks a new value up within 5 minutes.',
  },
  {
    rule: 'AwsSolutions-SMG4',
    on: secretOf('SigningSecret'),
    reason:
      'The card network signing secret is shared with the issuing processor, which must sign with both values during a rotation: rotated by hand in step with the processor (docs/deploy.md, CardNetwork stack).',
  },
  {
    rule: 'AwsSolutions-SQS3',
    on: (resource) => resource instanceof CfnQueue && withinDeadLetterQueue(resource),
    reason:
      "This queue is a dead-letter queue: the on-failure destination of a stream mapping or of asynchronous invocations, or an EventBridge target's DLQ, which the rule does not recognise (it only knows SQS redrive targets).",
  },
  {
    rule: 'Serverless-SQSRedrivePolicy',
    on: (resource) => resource instanceof CfnQueue && withinDeadLetterQueue(resource),
    reason:
      'A dead-letter queue has no dead-letter queue of its own: messages stay 14 days and any message alarms (docs/runbook.md "Dead-letter queue not empty").',
  },
  {
    rule: 'AwsSolutions-SF1',
    on: (resource) => resource instanceof CfnStateMachine,
    reason:
      'Executions log at ERROR level without execution data: ALL would log every state transition of every transfer and dispute (cost), and the data would carry transfer facts; failed executions alarm and keep their full history in Step Functions (90 days).',
  },
  {
    rule: 'AwsSolutions-APIG4',
    on: (resource) => resource instanceof CfnRoute,
    reason:
      "Authentication is the service's own, in the function, for every route: API keys (X-Api-Key, hashed, per environment and wallet scope), dashboard session cookies, and the public hosted pages (decisions.md sections 2 and 12); an API Gateway authorizer can not check these keys or answer with the spec's error envelope.",
  },
  {
    rule: 'Serverless-LambdaDLQ',
    on: (resource) => resource instanceof CfnFunction && withinServiceFunction(resource),
    reason:
      "No function is invoked asynchronously without a failure path: HTTP API, function URLs and Step Functions invoke synchronously (the caller sees the error), stream and queue workers fail to their DLQs through the mapping or the queue's redrive policy, and scheduled workers send failed invocations to their DLQ through an on-failure destination (the newer form of a function DLQ).",
  },
  {
    rule: 'Serverless-LambdaEventSourceMappingDestination',
    // SqsEventSource names its mapping `SqsEventSource:<queue>` (a stream's is `DynamoDBEventSource:...`).
    on: (resource) =>
      resource instanceof CfnEventSourceMapping && resource.node.scope?.node.id.startsWith('SqsEventSource:') === true,
    reason:
      "An SQS event source mapping can not have an on-failure destination: a message that keeps failing goes to the queue's own DLQ through its redrive policy (maxReceiveCount in shared/workers.ts).",
  },
];

/** The packs synth runs. */
export function nagPacks(): NagPack[] {
  return [new AwsSolutionsChecks(), new ServerlessChecks()];
}

/** What one pack found, split into what the acknowledgments cover and what is left. */
export interface NagOutcome {
  readonly violations: PolicyViolation[];
  /** Per acknowledgment (index in NAG_ACKNOWLEDGMENTS), how many findings it covered. */
  readonly covered: number[];
}

/** Splits a pack's report over `root`'s tree into findings left and findings each acknowledgment covers. */
export function nagOutcome(
  pack: NagPack,
  root: IConstruct,
  acknowledgments: readonly NagAcknowledgment[] = NAG_ACKNOWLEDGMENTS,
): NagOutcome {
  const byPath = new Map(root.node.findAll().map((construct) => [construct.node.path, construct] as const));
  const covered = acknowledgments.map(() => 0);
  const violations: PolicyViolation[] = [];
  for (const violation of pack.validateScope(root).violations) {
    const [, rule, finding] = /^([^[]+)(?:\[(.*)\])?$/s.exec(violation.ruleName) ?? [];
    const left = violation.violatingResources.filter((violating) => {
      const resource = byPath.get(violating.constructPath ?? '') as CfnResource | undefined;
      const index = acknowledgments.findIndex(
        (ack) =>
          ack.rule === rule &&
          (finding === undefined
            ? ack.finding === undefined
            : ack.finding !== undefined && ack.finding.test(finding)) &&
          resource !== undefined &&
          ack.on(resource),
      );
      if (index < 0) return true;
      covered[index]! += 1;
      return false;
    });
    if (left.length > 0) violations.push({ ...violation, violatingResources: left });
  }
  return { violations, covered };
}

/**
 * A pack as a CDK validation plugin that leaves out what NAG_ACKNOWLEDGMENTS covers: CDK stops
 * synthesis and prints the report when anything is left.
 */
class AcknowledgingNagPack implements IPolicyValidationPlugin {
  readonly name: string;

  constructor(private readonly pack: NagPack) {
    this.name = `cdk-nag ${pack.name}`;
  }

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const { violations } = nagOutcome(this.pack, context.appConstruct);
    return { success: violations.length === 0, violations };
  }
}

/** Registers the packs on the app (bin/app.ts): synthesis fails on any finding not acknowledged. */
export function applyNagChecks(app: IConstruct): void {
  Validations.of(app).addPlugins(...nagPacks().map((pack) => new AcknowledgingNagPack(pack)));
}
