import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { stageConfig } from '../../lib/config/stage-config.js';
import { createTableInput, GSI, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/persistence/table-schema.js';
import { synthStage } from './synth-stage.js';

// The data stack has no assets, so bundling is skipped: both stages synthesize in well under a second.
const dev = synthStage('dev', { bundle: false });
const production = synthStage('production', { bundle: false });
const TABLE = 'AWS::DynamoDB::Table';

describe('data stack: the ledger table', () => {
  it('is the only table, with the keys and attributes of table-schema.ts', () => {
    dev.dataTemplate.resourceCountIs(TABLE, 1);
    const schema = createTableInput('unused');
    dev.dataTemplate.hasResourceProperties(TABLE, {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE_KEY.partition, KeyType: 'HASH' },
        { AttributeName: TABLE_KEY.sort, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayEquals(schema.AttributeDefinitions),
    });
  });

  it('has both GSIs with ALL projection', () => {
    const indexes = Object.values(GSI).map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partition, KeyType: 'HASH' },
        { AttributeName: index.sort, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    }));
    dev.dataTemplate.hasResourceProperties(TABLE, { GlobalSecondaryIndexes: Match.arrayEquals(indexes) });
  });

  it("has point-in-time recovery, TTL, encryption at rest and a NEW_AND_OLD_IMAGES stream (the journal projector reads a MODIFY's old image)", () => {
    dev.dataTemplate.hasResourceProperties(TABLE, {
      PointInTimeRecoverySpecification: Match.objectLike({ PointInTimeRecoveryEnabled: true }),
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      SSESpecification: Match.objectLike({ SSEEnabled: true }),
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('is deletion protected and retained in production', () => {
    production.dataTemplate.hasResource(TABLE, {
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    expect(production.data.terminationProtection).toBe(true);
  });

  it('is disposable in dev', () => {
    dev.dataTemplate.hasResource(TABLE, {
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
      DeletionPolicy: 'Delete',
    });
    expect(dev.data.terminationProtection).toBe(false);
  });

  it('names stacks per stage', () => {
    expect([dev.data.stackName, dev.api.stackName]).toEqual(['Allowance-dev-Data', 'Allowance-dev-Api']);
    expect(production.api.stackName).toBe('Allowance-production-Api');
  });
});

describe('stage config', () => {
  it('treats only production stage names as production', () => {
    expect(stageConfig('production').production).toBe(true);
    expect(stageConfig('prod').production).toBe(true);
    expect(stageConfig('dev').production).toBe(false);
    expect(stageConfig('staging').deletionProtection).toBe(false);
  });

  it('rejects stage names that cannot be part of a stack name', () => {
    expect(() => stageConfig('Dev_1')).toThrow(/invalid stage name/);
    expect(() => stageConfig('')).toThrow(/invalid stage name/);
  });
});
