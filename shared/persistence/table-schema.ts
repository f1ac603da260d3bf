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
 * Which entity uses which index, and for what (keyed by entity type; the keys themselves are
 * built in shared/persistence/entities). Every index sorts newest first by `${createdAt}#${id}`
 * unless said otherwise. Entities not named here use the primary key only.
 *
 * Tenancy: an index partition that names a wallet also names the organization and environment of
 * the items it holds (`<KIND>#<org>#<env>#WALLET#<wal>`), so reading a wallet's partition never
 * reaches another organization's items, even where an item names a wallet of another organization
 * (a payment's payee). `WALLET_INDEXES_SHARED_ACROSS_ORGANIZATIONS` lists the one exception.
 */
export const INDEX_USAGE = {
  API_KEY: { GSI1: 'keys of an organization (both environments, agent keys included)' },
  TRANSACTION: {
    GSI2: 'journal records by paying (debited) wallet: statements and payments of a wallet',
    GSI3: 'journal records by receiving (credited) wallet: statements and payments of a wallet',
  },
  POLICY: { GSI1: 'policies of an organization environment' },
  APPROVAL: {
    GSI1: 'approvals of an organization environment',
    GSI2: 'pending approvals by expiry (sparse: a decision removes the attributes)',
  },
  AUDIT_ENTRY: {
    GSI1: 'entries by action',
    GSI2: 'entries by resource id',
    GSI3: 'entries by actor',
    GSI4: 'entries by wallet (wallet-scoped keys)',
  },
  BANK_ACCOUNT: { GSI1: 'bank accounts of an organization environment (removed on delete)' },
  WEBHOOK: {
    GSI1: 'webhooks of an organization environment (removed on delete)',
    GSI2: 'every webhook of every organization, by id (compliance samples secrets; removed on delete)',
  },
  TRANSFER: {
    GSI1: 'transfers of an organization environment',
    GSI2: 'transfers of the wallet credited or debited, within the organization environment',
    GSI3: 'internal transfers by receiving wallet, within the organization environment',
    GSI4: 'transfers with work ahead, by reconcileAt (sparse: removed once nothing is left to do)',
  },
  CARD: {
    GSI1: 'cards of an organization environment',
    GSI2: 'cards of a wallet, within the organization environment',
  },
  CARDHOLDER: { GSI1: 'cardholders of an organization environment' },
  CARD_AUTHORIZATION: {
    GSI1: 'authorizations of a card',
    GSI4: 'APPROVED authorizations, by expiresAt (sparse: removed by the capture or reversal)',
  },
  EVENT: {
    GSI1: 'events of an organization environment (events API)',
    GSI2: 'events of the organization environment by the first wallet they concern (wallet-scoped keys)',
    GSI3: 'events of the organization environment by the second wallet they concern',
    GSI4: 'events of an organization environment in the order they became visible, oldest first by `${visibleAt}#${id}` (the polling feed)',
  },
} as const satisfies Record<string, Partial<Record<GsiName, string>>>;

/**
 * Wallet index partitions keyed by the wallet alone, and why that is right: a journal record is
 * in the partitions of the wallets whose money it moved (statements, a wallet's payments), and a
 * payment between organizations is on both wallets' statements (decisions.md section 3: the payee
 * sees the payment; its presenters never show the payer's idempotency key).
 */
export const WALLET_INDEXES_SHARED_ACROSS_ORGANIZATIONS: Partial<Record<keyof typeof INDEX_USAGE, readonly GsiName[]>> =
  { TRANSACTION: ['GSI2', 'GSI3'] };

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
