import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Change } from '../domain/changes.js';
import type { Store } from '../domain/ports.js';
import type { Environment } from '../domain/tenancy.js';
import type { Page, PageRequest } from '../domain/types.js';
import { toTransactWrites } from './change-writer.js';
import { apiKeyCodec, ENTITY, organizationCodec, walletCodec, type Item } from './items/codecs.js';
import { keys, type ItemKey } from './keys.js';
import { GSI } from './table-schema.js';
import { transactWrite, type TransactOptions } from './transact.js';

export interface DynamoStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  transact?: TransactOptions;
}

export function createDynamoStore({ client, tableName, transact }: DynamoStoreOptions): Store {
  async function get(key: ItemKey): Promise<Item | undefined> {
    const output = await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    return output.Item;
  }

  async function queryIndex<T>(
    index: (typeof GSI)[keyof typeof GSI],
    partition: string,
    page: PageRequest,
    decode: (item: Item) => T,
  ): Promise<Page<T>> {
    const output = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partition },
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: page.limit,
        ...(page.startKey ? { ExclusiveStartKey: page.startKey } : {}),
      }),
    );
    return {
      items: (output.Items ?? []).map(decode),
      ...(output.LastEvaluatedKey ? { lastKey: output.LastEvaluatedKey } : {}),
    };
  }

  return {
    async getOrganization(organizationId) {
      const item = await get(keys.organization(organizationId));
      return item ? organizationCodec.fromItem(item) : undefined;
    },
    async getMainWalletId(organizationId: string, environment: Environment) {
      const item = await get(keys.organizationEnvironment(organizationId, environment));
      return typeof item?.mainWalletId === 'string' ? item.mainWalletId : undefined;
    },
    async getWallet(walletId) {
      const item = await get(keys.wallet(walletId));
      return item ? walletCodec.fromItem(item) : undefined;
    },
    listWallets(organizationId, environment, page) {
      return queryIndex(GSI.GSI1, keys.walletsOfOrganization(organizationId, environment).GSI1PK, page, walletCodec.fromItem);
    },
    async getApiKeyById(keyId) {
      const pointer = await get(keys.apiKeyById(keyId));
      if (typeof pointer?.hash !== 'string') return undefined;
      const item = await get(keys.apiKeyByHash(pointer.hash));
      return item ? apiKeyCodec.fromItem(item) : undefined;
    },
    listApiKeys(organizationId, page) {
      return queryIndex(GSI.GSI1, keys.apiKeysOfOrganization(organizationId).GSI1PK, page, apiKeyCodec.fromItem);
    },
    async getApiKeyByHash(hash) {
      const item = await get(keys.apiKeyByHash(hash));
      return item ? apiKeyCodec.fromItem(item) : undefined;
    },
    async touchApiKey(hash, now, minIntervalMs) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKeyByHash(hash),
            UpdateExpression: 'SET lastUsedAt = :now',
            ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :threshold)',
            ExpressionAttributeValues: { ':now': now.toISOString(), ':threshold': new Date(now.getTime() - minIntervalMs).toISOString() },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
    async getOrCreateSecret(name, create) {
      const existing = await get(keys.config(name));
      if (typeof existing?.value === 'string') return existing.value;
      try {
        const value = create();
        await client.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.config(name), entityType: ENTITY.config, value },
            ConditionExpression: 'attribute_not_exists(PK)',
          }),
        );
        return value;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const winner = await get(keys.config(name));
        return String(winner?.value);
      }
    },
    async commit(changes: Change[]) {
      await transactWrite(client, toTransactWrites(tableName, changes), transact);
    },
  };
}
