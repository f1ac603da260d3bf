import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { ENV } from './env-names.js';

// zod/mini ships no messages: English ones for every schema of the process (validation errors name the problem).
z.config(en());

const flag = z._default(z.pipe(z.enum(['0', '1', 'true', 'false']), z.transform((value) => value === '1' || value === 'true')), false);

const positiveInt = (fallback: number) => z._default(z.coerce.number().check(z.int(), z.positive()), fallback);

export const DEFAULT_RATE_LIMIT_PER_SECOND = 100;
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6_000;
export const DEFAULT_PUBLIC_RATE_LIMIT_PER_SECOND = 20;
export const DEFAULT_WALLET_LIMIT = 100;
export const SANDBOX_FUNDING_MAX = '10000.00';
/** MCP tool names are `<prefix><tool>` (decisions.md section 0); MCP allows letters, digits, `_`, `-` and `.` in a name. */
export const DEFAULT_MCP_TOOL_PREFIX = 'allowance_';

const schema = z.object({
  [ENV.tableName]: z.string().check(z.minLength(3)),
  [ENV.stage]: z._default(z.string(), 'local'),
  [ENV.dynamodbEndpoint]: z.optional(z.url()),
  [ENV.awsRegion]: z._default(z.string(), 'us-east-1'),
  [ENV.cursorSecret]: z.optional(z.string().check(z.minLength(32))),
  [ENV.rateLimitPerSecond]: positiveInt(DEFAULT_RATE_LIMIT_PER_SECOND),
  [ENV.rateLimitPerMinute]: positiveInt(DEFAULT_RATE_LIMIT_PER_MINUTE),
  [ENV.publicRateLimitPerSecond]: positiveInt(DEFAULT_PUBLIC_RATE_LIMIT_PER_SECOND),
  [ENV.walletLimitPerEnvironment]: positiveInt(DEFAULT_WALLET_LIMIT),
  [ENV.timeScale]: z._default(z.coerce.number().check(z.positive()), 60),
  [ENV.kybAutoApprove]: flag,
  [ENV.webhookEncryptionKey]: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as hex'))),
  [ENV.dataEncryptionKey]: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as hex'))),
  [ENV.dataKeyId]: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  [ENV.mcpAuthToken]: z.optional(z.string().check(z.minLength(16))),
  [ENV.eventBusName]: z.optional(z.string().check(z.minLength(1))),
  [ENV.webhookQueueUrl]: z.optional(z.url()),
  [ENV.webhookDeadLetterUrl]: z.optional(z.url()),
  [ENV.expiryScheduleGroup]: z.optional(z.string().check(z.minLength(1))),
  [ENV.expirySchedulerRoleArn]: z.optional(z.string().check(z.minLength(1))),
  [ENV.expiryQueueArn]: z.optional(z.string().check(z.minLength(1))),
  [ENV.transferStateMachineArn]: z.optional(z.string().check(z.regex(/^arn:[^:]+:states:/, 'must be a state machine ARN'))),
  [ENV.mcpToolPrefix]: z._default(z.string().check(z.regex(/^[A-Za-z0-9_.-]{0,64}$/, 'must be at most 64 letters, digits, _, - or .')), DEFAULT_MCP_TOOL_PREFIX),
});

export interface Config {
  tableName: string;
  stage: string;
  dynamodbEndpoint: string | undefined;
  region: string;
  cursorSecret: string | undefined;
  rateLimit: { perSecond: number; perMinute: number; publicPerSecond: number };
  walletLimitPerEnvironment: number;
  timeScale: number;
  kybAutoApprove: boolean;
  webhookEncryptionKey: string | undefined;
  /** Seals sensitive values at rest (bank account numbers, card data) where no KMS key is given: the local run. */
  dataEncryptionKey: string | undefined;
  /** The stage's KMS key (id or ARN) for envelope encryption of sensitive values; wins over dataEncryptionKey. */
  dataKeyId: string | undefined;
  mcpAuthToken: string | undefined;
  mcpToolPrefix: string;
  /** The service's EventBridge bus (AWS); absent locally: the in-process bus. */
  eventBusName: string | undefined;
  /** The webhook-delivery queue and its DLQ (AWS); absent locally: the in-process queue. */
  webhookQueueUrl: string | undefined;
  webhookDeadLetterUrl: string | undefined;
  /** EventBridge Scheduler's group, role and target queue of one-time expiries (AWS); absent locally: the in-process scheduler. */
  expiryScheduling: { groupName: string; roleArn: string; queueArn: string } | undefined;
  /** The transfer workflow's state machine (AWS); absent locally: the local run executes the same definition in-process. */
  transferStateMachineArn: string | undefined;
}

/** Parses the environment once at cold start; a bad setting stops the function before it serves. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    tableName: e[ENV.tableName],
    stage: e[ENV.stage],
    dynamodbEndpoint: e[ENV.dynamodbEndpoint],
    region: e[ENV.awsRegion],
    cursorSecret: e[ENV.cursorSecret],
    rateLimit: { perSecond: e[ENV.rateLimitPerSecond], perMinute: e[ENV.rateLimitPerMinute], publicPerSecond: e[ENV.publicRateLimitPerSecond] },
    walletLimitPerEnvironment: e[ENV.walletLimitPerEnvironment],
    timeScale: e[ENV.timeScale],
    kybAutoApprove: e[ENV.kybAutoApprove],
    webhookEncryptionKey: e[ENV.webhookEncryptionKey],
    dataEncryptionKey: e[ENV.dataEncryptionKey],
    dataKeyId: e[ENV.dataKeyId],
    mcpAuthToken: e[ENV.mcpAuthToken],
    mcpToolPrefix: e[ENV.mcpToolPrefix],
    eventBusName: e[ENV.eventBusName],
    webhookQueueUrl: e[ENV.webhookQueueUrl],
    webhookDeadLetterUrl: e[ENV.webhookDeadLetterUrl],
    expiryScheduling: expirySchedulingOf(e[ENV.expiryScheduleGroup], e[ENV.expirySchedulerRoleArn], e[ENV.expiryQueueArn]),
    transferStateMachineArn: e[ENV.transferStateMachineArn],
  };
}

/** All three or none: a partial setting is a deployment mistake, refused at cold start. */
function expirySchedulingOf(groupName: string | undefined, roleArn: string | undefined, queueArn: string | undefined): Config['expiryScheduling'] {
  if (groupName === undefined && roleArn === undefined && queueArn === undefined) return undefined;
  if (groupName === undefined || roleArn === undefined || queueArn === undefined) {
    throw new Error(`invalid configuration: ${ENV.expiryScheduleGroup}, ${ENV.expirySchedulerRoleArn} and ${ENV.expiryQueueArn} go together`);
  }
  return { groupName, roleArn, queueArn };
}
