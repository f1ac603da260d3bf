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
 * The single table (wallets, ledger entries, idempotency records, outbox, ...), built from
 * `shared/persistence/table-schema.ts` so the deployed table and DynamoDB Local cannot drift apart.
 *
 * `dynamodb.Table` rather than `TableV2`: the service is single-region, and a plain
 * `AWS::DynamoDB::Table` keeps PITR, TTL and deletion protection at the top level of the template.
 */
export class LedgerTable extends Construct {
  readonly table: dynamodb.Table;

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
  }
}
