import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Environment } from '../domain/tenancy.js';
import { organizationEnvironmentKeys } from './entities/organization-environment.js';
import {
  MAX_ORGANIZATION_SHARDS,
  maxShardCount,
  ORG_SHARD_COUNT_ATTRIBUTE,
  ORG_SHARD_RAISE_DELAY_MS,
  ORG_SHARD_STEPS_ATTRIBUTE,
  ORG_SHARDS_CACHE_MS,
  shardStepsOf,
  type ShardStep,
} from './entities/shards.js';
import type { TableContext } from './table-context.js';

/**
 * The shard steps of organization environments (entities/shards.ts), as every writer and reader of
 * their projected keys sees them: read from the organization-environment item (an eventually
 * consistent read) at most once per ORG_SHARDS_CACHE_MS per process and table.
 */
const caches = new WeakMap<TableContext, Map<string, { steps: ShardStep[]; readAtMs: number }>>();
const cacheKey = (organizationId: string, environment: Environment) => `${organizationId}|${environment}`;

function cacheOf(table: TableContext) {
  let cache = caches.get(table);
  if (!cache) {
    cache = new Map();
    caches.set(table, cache);
  }
  return cache;
}

async function readSteps(table: TableContext, organizationId: string, environment: Environment, consistent: boolean) {
  const output = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: organizationEnvironmentKeys.primary(organizationId, environment),
      ...(consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return { item: output.Item, steps: shardStepsOf(output.Item) };
}

/** The steps of an organization environment (none: one shard, today's keys). */
export async function orgShardSteps(
  table: TableContext,
  organizationId: string,
  environment: Environment,
  nowMs = Date.now(),
): Promise<ShardStep[]> {
  const cache = cacheOf(table);
  const key = cacheKey(organizationId, environment);
  const cached = cache.get(key);
  if (cached && nowMs - cached.readAtMs < ORG_SHARDS_CACHE_MS) return cached.steps;
  const { steps } = await readSteps(table, organizationId, environment, false);
  cache.set(key, { steps, readAtMs: nowMs });
  return steps;
}

/** The steps of every organization environment named, each read once. */
export async function orgShardStepsOfAll(
  table: TableContext,
  scopes: { organizationId: string; environment: Environment }[],
): Promise<(organizationId: string, environment: Environment) => ShardStep[]> {
  const unique = new Map(scopes.map((scope) => [cacheKey(scope.organizationId, scope.environment), scope]));
  const found = new Map<string, ShardStep[]>();
  await Promise.all(
    [...unique].map(async ([key, scope]) =>
      found.set(key, await orgShardSteps(table, scope.organizationId, scope.environment)),
    ),
  );
  return (organizationId, environment) => found.get(cacheKey(organizationId, environment)) ?? [];
}

/** How many shards a reader merges for an organization environment. */
export async function orgShardCount(table: TableContext, organizationId: string, environment: Environment) {
  return maxShardCount(await orgShardSteps(table, organizationId, environment));
}

/** Attempts of a raise that lost a race with another raise of the same organization environment. */
const RAISE_ATTEMPTS = 5;

/**
 * Raises an organization environment's shard count to `count` (part ops calls it when a wallet of
 * the organization is promoted, with HOT_ORGANIZATION_SHARDS). It only grows: a count at or below
 * the present one changes nothing. The new count applies to items from `delayMs` after now
 * (ORG_SHARD_RAISE_DELAY_MS; tests pass 0 on an organization no process has cached yet).
 * Answers the count in force after the call.
 */
export async function raiseShards(
  table: TableContext,
  organizationId: string,
  environment: Environment,
  count: number,
  options: { delayMs?: number; now?: Date } = {},
): Promise<number> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_ORGANIZATION_SHARDS)
    throw new Error(`shard count ${count} is not an integer in 1..${MAX_ORGANIZATION_SHARDS}`);
  const now = options.now ?? new Date();
  const from = new Date(now.getTime() + (options.delayMs ?? ORG_SHARD_RAISE_DELAY_MS)).toISOString();
  for (let attempt = 1; ; attempt++) {
    const { item, steps } = await readSteps(table, organizationId, environment, true);
    if (!item) throw new Error(`organization environment ${organizationId} ${environment} not found`);
    const present = maxShardCount(steps);
    if (count <= present) return present;
    try {
      await table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: organizationEnvironmentKeys.primary(organizationId, environment),
          UpdateExpression: 'SET #steps = :steps, #count = :count',
          ConditionExpression:
            steps.length === 0
              ? 'attribute_exists(PK) AND attribute_not_exists(#count)'
              : 'attribute_exists(PK) AND #count = :present',
          ExpressionAttributeNames: { '#steps': ORG_SHARD_STEPS_ATTRIBUTE, '#count': ORG_SHARD_COUNT_ATTRIBUTE },
          ExpressionAttributeValues: {
            ':steps': [...steps, { count, from }],
            ':count': count,
            ...(steps.length === 0 ? {} : { ':present': present }),
          },
        }),
      );
      cacheOf(table).delete(cacheKey(organizationId, environment));
      return count;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) || attempt >= RAISE_ATTEMPTS) throw error;
    }
  }
}

/** The port part ops uses (a store method over the table). */
export function createOrgShardStore(table: TableContext) {
  return {
    raiseShards: (organizationId: string, environment: Environment, count: number, options?: { delayMs?: number }) =>
      raiseShards(table, organizationId, environment, count, options),
    orgShardCount: (organizationId: string, environment: Environment) =>
      orgShardCount(table, organizationId, environment),
  };
}
