import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SignInChange, SignInStore } from '../domain/sign-in/ports.js';
import { createCommitter } from './change-writer.js';
import { challengeCodec, credentialsCodec, sessionCodec, signInKeys } from './entities/sign-in.js';
import { getItem, type TableContext } from './table-context.js';
import { GSI, TTL_ATTRIBUTE } from './table-schema.js';
import { readBig } from './client.js';
import { auditWriters } from './writers/audit-writers.js';
import { signInWriters } from './writers/sign-in-writers.js';

/** The most sessions listed for a user (open and recently ended). */
const SESSION_LIST_LIMIT = 100;

/** Sign-in's items: credentials, sessions, failure counters, WebAuthn challenges. */
export function createSignInStore(table: TableContext): SignInStore {
  const { client, tableName } = table;
  return {
    async getCredentials(userId) {
      const item = await getItem(table, signInKeys.credentials(userId));
      return item ? credentialsCodec.fromItem(item) : undefined;
    },
    async getSession(hash) {
      const item = await getItem(table, signInKeys.session(hash));
      return item ? sessionCodec.fromItem(item) : undefined;
    },
    async listSessions(userId) {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: GSI.GSI1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': GSI.GSI1.partition },
          ExpressionAttributeValues: { ':pk': signInKeys.userSessions(userId) },
          ScanIndexForward: false,
          Limit: SESSION_LIST_LIMIT,
        }),
      );
      return (output.Items ?? []).map(sessionCodec.fromItem);
    },
    async failures(key, windowStart) {
      const item = await getItem(table, signInKeys.attempts(key, windowStart));
      return item?.count === undefined ? 0 : Number(readBig(item.count));
    },
    async recordFailure(key, windowStart, expiresAtEpochS) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: signInKeys.attempts(key, windowStart),
          UpdateExpression: 'ADD #count :one SET entityType = :entity, #ttl = :ttl',
          ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':one': 1, ':entity': 'SIGN_IN_ATTEMPTS', ':ttl': expiresAtEpochS },
        }),
      );
    },
    async putChallenge(record) {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: challengeCodec.toItem(record),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    },
    async takeChallenge(hash, now) {
      try {
        const output = await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: signInKeys.challenge(hash),
            UpdateExpression: 'SET takenAt = :now',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(takenAt) AND expiresAt > :now',
            ExpressionAttributeValues: { ':now': now.toISOString() },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return output.Attributes ? challengeCodec.fromItem(output.Attributes) : undefined;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return undefined;
        throw error;
      }
    },
    commit: createCommitter<SignInChange>(table, { ...signInWriters, ...auditWriters }).commit,
  };
}
