import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Change } from '../domain/changes.js';
import type { Store } from '../domain/ports.js';
import type { Environment } from '../domain/tenancy.js';
import { toTransactWrites } from './change-writer.js';
import { apiKeyCodec, auditCodec, ENTITY, organizationCodec, walletCodec, type Item } from './items/codecs.js';
import { approvalCodec, APPROVAL_ENTITY, idempotencyCodec, merchantCodec, policyCodec, POLICY_ENTITY, SPEND_ENTITY, spendCounterCodec, transactionCodec } from './items/ledger-codecs.js';
import { readBig, readInt } from './client.js';
import type { StatementEntry } from '../domain/types.js';
import Big from 'big.js';
import { keys, type ItemKey } from './keys.js';
import { GSI } from './table-schema.js';
import { transactWrite, type TransactOptions } from './transact.js';
import { createQueries, equalityFilter } from './queries.js';

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

  const { queryIndex, mergedPages } = createQueries(client, tableName);

  async function walletState(walletId: string): Promise<{ balance: Big; entryCount: number } | undefined> {
    const item = await get(keys.wallet(walletId));
    return item ? { balance: readBig(item.balance), entryCount: readInt(item.entryCount) } : undefined;
  }

  return {
    async getWalletSnapshot(walletId) {
      // One consistent query of the wallet's partition from "POLICY#": policies, spend counters, the wallet.
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          ConsistentRead: true,
          KeyConditionExpression: 'PK = :pk AND SK >= :from',
          ExpressionAttributeValues: { ':pk': keys.walletPartition(walletId), ':from': keys.policyPrefix },
        }),
      );
      const items = output.Items ?? [];
      const walletItem = items.find((item) => item.entityType === ENTITY.wallet);
      if (!walletItem) return undefined;
      return {
        wallet: walletCodec.fromItem(walletItem),
        policies: items.filter((item) => item.entityType === POLICY_ENTITY).map(policyCodec.fromItem),
        counters: items.filter((item) => item.entityType === SPEND_ENTITY).map(spendCounterCodec.fromItem),
      };
    },
    async getStatement(walletId, page) {
      // The first page anchors on the wallet balance; the wallet's entry count read before and
      // after the query proves no posting landed in between (else read again).
      const anchor = page.startKey?.balanceBefore;
      const startKey = page.startKey ? { PK: page.startKey.PK, SK: page.startKey.SK } : undefined;
      for (let attempt = 0; ; attempt++) {
        const before = anchor === undefined ? await walletState(walletId) : undefined;
        const result = await queryIndex(null, keys.walletPartition(walletId), { limit: page.limit, ...(startKey ? { startKey } : {}) }, (item) => item, undefined, keys.ledgerEntryPrefix);
        const after = anchor === undefined ? await walletState(walletId) : undefined;
        if (anchor === undefined && before?.entryCount !== after?.entryCount && attempt < 3) continue;
        let running = anchor === undefined ? (after?.balance ?? new Big(0)) : new Big(String(anchor));
        const items: StatementEntry[] = result.items.map((item) => {
          const amount = readBig(item.amount);
          const entry: StatementEntry = { transactionId: String(item.transactionId), type: String(item.transactionType), amount, balanceAfter: running, createdAt: String(item.createdAt), ...(typeof item.description === 'string' ? { description: item.description } : {}) };
          running = running.minus(amount);
          return entry;
        });
        return { items, ...(result.lastKey ? { lastKey: { ...result.lastKey, balanceBefore: running.toFixed() } } : {}) };
      }
    },
    async getTransaction(transactionId) {
      const item = await get(keys.transaction(transactionId));
      return item ? transactionCodec.fromItem(item) : undefined;
    },
    listTransactions(organizationId, environment, filter, page) {
      // Payments sent and received: the payer-side and payee-side indexes, merged.
      if (filter.walletId) {
        const sources = [
          { index: GSI.GSI2, partition: keys.paymentsFromWallet(filter.walletId) },
          { index: GSI.GSI3, partition: keys.paymentsToWallet(filter.walletId) },
        ];
        return mergedPages(sources, page, transactionCodec.fromItem, equalityFilter({ status: filter.status, environment }));
      }
      const sources = [
        { index: GSI.GSI1, partition: keys.paymentsFromOrganization(organizationId, environment) },
        { index: GSI.GSI4, partition: keys.paymentsToOrganization(organizationId, environment) },
      ];
      return mergedPages(sources, page, transactionCodec.fromItem, equalityFilter({ status: filter.status }));
    },
    async getIdempotencyRecord(organizationId, environment, key) {
      const item = await get(keys.idempotency(organizationId, environment, key));
      return item ? idempotencyCodec.fromItem(item) : undefined;
    },
    async completeIdempotencyRecord(organizationId, environment, key, status, body) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.idempotency(organizationId, environment, key),
          UpdateExpression: 'SET #status = :status, #body = :body',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#status': 'status', '#body': 'body' },
          ExpressionAttributeValues: { ':status': status, ':body': body },
        }),
      );
    },
    async getPolicy(policyId) {
      const pointer = await get(keys.policyPointer(policyId));
      if (typeof pointer?.walletId !== 'string') return undefined;
      const item = await get(keys.policy(pointer.walletId, policyId));
      return item ? policyCodec.fromItem(item) : undefined;
    },
    listPolicies(organizationId, environment, walletId, page) {
      const active = equalityFilter({ status: 'ACTIVE' });
      if (walletId) return queryIndex(null, keys.walletPartition(walletId), page, policyCodec.fromItem, active, keys.policyPrefix);
      return queryIndex(GSI.GSI1, keys.policiesOfOrganization(organizationId, environment).GSI1PK, page, policyCodec.fromItem, active);
    },
    async getApproval(approvalId) {
      const item = await get(keys.approval(approvalId));
      return item ? approvalCodec.fromItem(item) : undefined;
    },
    listApprovals(organizationId, environment, filter, page) {
      return queryIndex(GSI.GSI1, keys.approvalsOfOrganization(organizationId, environment).GSI1PK, page, approvalCodec.fromItem, equalityFilter({ status: filter.status, walletId: filter.walletId }));
    },
    async listExpiredApprovals(now, limit) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: GSI.GSI2.name,
          KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :now',
          ExpressionAttributeValues: { ':pk': keys.pendingApprovals().GSI2PK, ':now': now.toISOString() },
          Limit: limit,
        }),
      );
      return (output.Items ?? []).filter((item) => item.entityType === APPROVAL_ENTITY).map(approvalCodec.fromItem);
    },
    async keyHygiene(now) {
      let activeKeysWithoutPermissions = 0;
      let expiredActiveKeys = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: 'entityType = :type AND #status = :active',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':type': ENTITY.apiKey, ':active': 'ACTIVE' },
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          if (!Array.isArray(item.permissions) || item.permissions.length === 0) activeKeysWithoutPermissions++;
          if (typeof item.expiresAt === 'string' && item.expiresAt <= now.toISOString()) expiredActiveKeys++;
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return { activeKeysWithoutPermissions, expiredActiveKeys };
    },
    async sampleWebhookSecrets(limit) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: GSI.GSI2.name,
          KeyConditionExpression: 'GSI2PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.allWebhooks().GSI2PK },
          Limit: limit,
        }),
      );
      return (output.Items ?? []).map((item) => String(item.secret ?? ''));
    },
    listAuditEntries(organizationId, environment, query, page) {
      // The most selective filter picks the index; the others narrow it as filter expressions.
      const choice = query.resourceId
        ? { index: GSI.GSI2, partition: keys.auditByResource(organizationId, environment, query.resourceId), used: 'resourceId' }
        : query.actorId
          ? { index: GSI.GSI3, partition: keys.auditByActor(organizationId, environment, query.actorId), used: 'actorId' }
          : query.walletId
            ? { index: GSI.GSI4, partition: keys.auditByWallet(organizationId, environment, query.walletId), used: 'walletId' }
            : query.action
              ? { index: GSI.GSI1, partition: keys.auditByAction(organizationId, environment, query.action), used: 'action' }
              : { index: null, partition: keys.auditPartition(organizationId, environment), used: '' };
      const remaining = { action: query.action, resourceId: query.resourceId, actorId: query.actorId, walletId: query.walletId };
      delete remaining[choice.used as keyof typeof remaining];
      const range = { from: query.from, to: query.to === undefined ? undefined : `${query.to}#\uffff` };
      return queryIndex(choice.index, choice.partition, page, auditCodec.fromItem, equalityFilter(remaining), undefined, range);
    },
    async getMerchant(environment, domain) {
      const item = await get(keys.merchant(environment, domain));
      return item ? merchantCodec.fromItem(item) : undefined;
    },
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
    listAgents(organizationId, environment, includeDeleted, page) {
      const filter = includeDeleted
        ? equalityFilter({ walletType: 'AGENT' })
        : { expression: '#f_walletType = :f_walletType AND attribute_not_exists(deletedAt)', names: { '#f_walletType': 'walletType' }, values: { ':f_walletType': 'AGENT' } };
      return queryIndex(GSI.GSI1, keys.walletsOfOrganization(organizationId, environment).GSI1PK, page, walletCodec.fromItem, filter);
    },
    async getApiKeyById(keyId) {
      const pointer = await get(keys.apiKeyById(keyId));
      if (typeof pointer?.hash !== 'string') return undefined;
      const item = await get(keys.apiKeyByHash(pointer.hash));
      return item ? apiKeyCodec.fromItem(item) : undefined;
    },
    listApiKeys(organizationId, environment, page) {
      return queryIndex(GSI.GSI1, keys.apiKeysOfOrganization(organizationId).GSI1PK, page, apiKeyCodec.fromItem, equalityFilter({ environment }));
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
