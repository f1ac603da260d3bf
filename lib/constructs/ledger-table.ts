import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { createTableInput, GSI, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/persistence/table-schema.js';
import type { StageConfig } from '../config/stage-config.js';

export interface LedgerTableProps {
  readonly stage: StageConfig;
}

const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

/**
 * Stream view and projections come from the same CreateTable input the local run uses (the name
 * is irrelevant here). CDK's enum values are the DynamoDB API strings, so they map one to one.
 */
const SCHEMA = createTableInput('schema-only');
const STREAM_VIEW = SCHEMA.StreamSpecification.StreamViewType as dynamodb.StreamViewType;
const projectionOf = (indexName: string): dynamodb.ProjectionType => {
  const index = SCHEMA.GlobalSecondaryIndexes.find((candidate) => candidate.IndexName === indexName);
  if (!index) throw new Error(`index ${indexName} missing from createTableInput`);
  return index.Projection.ProjectionType as dynamodb.ProjectionType;
};

/**
 * The table operations the service calls (shared/persistence and the tools): ThrottledRequests and
 * SystemErrors are published per operation, so the alarms add these up (at most 10 metrics per alarm).
 */
export const TABLE_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'TransactWriteItems',
] as const;

/**
 * The single table (wallets, ledger entries, idempotency records, outbox, ...), built from
 * `shared/persistence/table-schema.ts` so the deployed table and DynamoDB Local cannot drift apart.
 *
 * `dynamodb.Table` rather than `TableV2`: the service is single-region, and a plain
 * `AWS::DynamoDB::Table` keeps PITR, TTL and deletion protection at the top level of the template.
 */
export class LedgerTable extends Construct {
  readonly table: dynamodb.Table;
  /**
   * Throttled requests (a hot partition: on-demand tables still have per-partition limits) and
   * system errors (DynamoDB's own 500s), any in a minute, summed over TABLE_OPERATIONS.
   */
  readonly alarms: { readonly throttledRequests: cloudwatch.Alarm; readonly systemErrors: cloudwatch.Alarm };

  constructor(scope: Construct, id: string, props: LedgerTableProps) {
    super(scope, id);
    const { stage } = props;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: stringKey(TABLE_KEY.partition),
      sortKey: stringKey(TABLE_KEY.sort),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      // AWS-owned keys would not show up in CloudTrail; a customer-managed key would force every
      // function policy to include kms actions. The AWS-managed key is the middle ground that keeps
      // function grants to the table alone.
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: {
        pointInTimeRecoveryEnabled: true,
        recoveryPeriodInDays: stage.pitrRecoveryDays,
      },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // The outbox publisher reads new items from the stream; old images are never needed.
      stream: STREAM_VIEW,
      deletionProtection: stage.deletionProtection,
      removalPolicy: stage.removalPolicy,
    });

    for (const index of Object.values(GSI)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: stringKey(index.partition),
        sortKey: stringKey(index.sort),
        projectionType: projectionOf(index.name),
      });
    }

    const period = Duration.minutes(1);
    const summed = (metricName: 'ThrottledRequests' | 'SystemErrors') =>
      new cloudwatch.MathExpression({
        label: `${metricName} (all operations)`,
        expression: `SUM([${TABLE_OPERATIONS.map((_, i) => `m${i}`).join(', ')}])`,
        usingMetrics: Object.fromEntries(
          TABLE_OPERATIONS.map((operation, i) => [
            `m${i}`,
            this.table.metric(metricName, {
              dimensionsMap: { TableName: this.table.tableName, Operation: operation },
              statistic: cloudwatch.Stats.SUM,
              period,
            }),
          ]),
        ),
        period,
      });
    const anyIn = (id: string, metricName: 'ThrottledRequests' | 'SystemErrors', what: string) =>
      new cloudwatch.Alarm(this, id, {
        alarmDescription: `${what} (ledger table, ${stage.name}): docs/runbook.md`,
        metric: summed(metricName),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    this.alarms = {
      throttledRequests: anyIn('ThrottledRequests', 'ThrottledRequests', 'DynamoDB throttled requests'),
      systemErrors: anyIn('SystemErrors', 'SystemErrors', 'DynamoDB system errors'),
    };
  }
}
