import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
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

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    this.table = new LedgerTable(this, 'Ledger', { stage: props.stage }).table;

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
  }
}
