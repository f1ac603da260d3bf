/**
 * The one definition of the single table. The data stack (CDK) and the local run both build the
 * table from this module, so they cannot drift apart. Plain data only: no SDK imports.
 */
export const TABLE_KEY = { partition: 'PK', sort: 'SK' } as const;

/** Generic index attributes: what each index serves is declared per entity in INDEX_USAGE. */
export const GSI = {
  GSI1: { name: 'GSI1', partition: 'GSI1PK', sort: 'GSI1SK' },
  GSI2: { name: 'GSI2', partition: 'GSI2PK', sort: 'GSI2SK' },
  GSI3: { name: 'GSI3', partition: 'GSI3PK', sort: 'GSI3SK' },
  GSI4: { name: 'GSI4', partition: 'GSI4PK', sort: 'GSI4SK' },
} as const;

export type GsiName = keyof typeof GSI;

/**
 * What an entity's indexes serve: each entity module declares its own (`<ENTITY>_INDEXES`, keyed by
 * entity type, beside the keys that write them), joined in `entities/index-usage.ts` (INDEX_USAGE).
 * Every index sorts newest first by `${createdAt}#${id}` unless said otherwise. Entities that
 * declare none use the primary key only.
 *
 * Tenancy: an index partition that names a wallet also names the organization and environment of
 * the items it holds (`<KIND>#<org>#<env>#WALLET#<wal>`), so reading a wallet's partition never
 * reaches another organization's items, even where an item names a wallet of another organization
 * (a payment's payee). `WALLET_INDEXES_SHARED_ACROSS_ORGANIZATIONS` lists the one exception.
 */
export type IndexUsage = Readonly<Record<string, Partial<Record<GsiName, string>>>>;

/** Epoch seconds after which DynamoDB may delete the item (outbox events, stored events, deliveries, idempotency answers). */
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
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const },
  };
}
