import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config.js';
import { LedgerTable } from '../constructs/ledger-table.js';

export interface DataStackProps extends StackProps {
  readonly stage: StageConfig;
}

/**
 * Stateful resources of a stage. Kept apart from the API so the API stack can be torn down and
 * redeployed freely while the table (and, in production, its deletion protection) stays put.
 */
export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  /**
   * Wraps the data keys of sensitive values at rest (bank account numbers, card data): yearly
   * rotation, and retained whatever the stage's removal policy, since nothing sealed under it could
   * be opened again without it.
   */
  readonly dataKey: kms.Key;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    this.table = new LedgerTable(this, 'Ledger', { stage: props.stage }).table;
    this.dataKey = new kms.Key(this, 'DataKey', {
      description: `Allowance ${props.stage.name}: envelope key of sensitive values at rest`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'DataKeyArn', { value: this.dataKey.keyArn, description: 'KMS key wrapping the data keys of sensitive values (DATA_KEY_ID)' });
  }
}
