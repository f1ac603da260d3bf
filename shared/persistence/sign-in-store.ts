import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SignInChange, SignInStore } from '../domain/sign-in/ports.js';
import { createCommitter } from './change-writer.js';
import {
  challengeCodec,
  credentialsCodec,
  sessionCodec,
  SIGN_IN_ATTEMPTS_ENTITY,
  signInKeys,
} from './entities/sign-in.js';
import type { StoredSession } from '../domain/sign-in/types.js';
import { getItem, type TableContext } from './table-context.js';
import { GSI, TTL_ATTRIBUTE } from './table-schema.js';
import { auditWriters } from './writers/audit-writers.js';
import { signInWriters } from './writers/sign-in-writers.js';
import { userWriters } from './writers/user-writers.js';

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
      // Every session not revoked, page after page: ended sessions (any number of them) never hide an open one.
      const sessions: StoredSession[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const output = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: GSI.GSI1.name,
            KeyConditionExpression: '#pk = :pk',
            FilterExpression: 'attribute_not_exists(revokedAt)',
            ExpressionAttributeNames: { '#pk': GSI.GSI1.partition },
            ExpressionAttributeValues: { ':pk': signInKeys.userSessions(userId) },
            ScanIndexForward: false,
            ...(startKey ? { ExclusiveStartKey: startKey } : {}),
          }),
        );
        sessions.push(...(output.Items ?? []).map(sessionCodec.fromItem));
        startKey = output.LastEvaluatedKey;
      } while (startKey);
      return sessions;
    },
    async reserveAttempt(key, windowStart, max, expiresAtEpochS) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: signInKeys.attempts(key, windowStart),
            UpdateExpression: 'ADD #count :one SET entityType = :entity, #ttl = :ttl',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
            ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: {
              ':one': 1,
              ':max': max,
              ':entity': SIGN_IN_ATTEMPTS_ENTITY,
              ':ttl': expiresAtEpochS,
            },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
    async releaseAttempt(key, windowStart) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: signInKeys.attempts(key, windowStart),
            UpdateExpression: 'ADD #count :minus',
            ConditionExpression: '#count > :zero',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
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
    commit: createCommitter<SignInChange>(table, { ...signInWriters, ...auditWriters, ...userWriters }).commit,
  };
}
