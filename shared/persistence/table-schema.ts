/**
 * The one definition of the single table. The data stack (CDK) and the local run both build the
 * table from this module, so they cannot drift apart. Plain data only: no SDK imports.
 */
export const TABLE_KEY = { partition: 'PK', sort: 'SK' } as const;

export const GSI = {
  /** Lists per owner (organization wallets, keys, transactions), ordered by creation. */
  GSI1: { name: 'GSI1', partition: 'GSI1PK', sort: 'GSI1SK' },
  /** Secondary lists (per wallet, per resource). */
  GSI2: { name: 'GSI2', partition: 'GSI2PK', sort: 'GSI2SK' },
  /** Third access pattern (audit entries by actor). */
  GSI3: { name: 'GSI3', partition: 'GSI3PK', sort: 'GSI3SK' },
  /** Fourth access pattern (audit entries by wallet, for wallet-scoped keys). */
  GSI4: { name: 'GSI4', partition: 'GSI4PK', sort: 'GSI4SK' },
} as const;

export type GsiName = keyof typeof GSI;

/** Epoch seconds after which DynamoDB may delete the item (idempotency records, outbox). */
export const TTL_ATTRIBUTE = 'ttlEpochS';

export const TABLE_ATTRIBUTES = [
  TABLE_KEY.partition,
  TABLE_KEY.sort,
  ...Object.values(GSI).flatMap((index) => [index.partition, index.sort]),
] as const;

/** CreateTable input for DynamoDB Local and tests (on-demand, same keys and indexes as CDK). */
export function createTableInput(tableName: string) {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: TABLE_ATTRIBUTES.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE_KEY.partition, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEY.sort, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: Object.values(GSI).map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partition, KeyType: 'HASH' as const },
        { AttributeName: index.sort, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' as const },
  };
}
