import { ENV } from './env-names.js';

export const DEFAULT_RATE_LIMIT_PER_SECOND = 100;
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6_000;
export const DEFAULT_PUBLIC_RATE_LIMIT_PER_SECOND = 20;
export const DEFAULT_WALLET_LIMIT = 100;
export const SANDBOX_FUNDING_MAX = '10000.00';
/** MCP tool names are `<prefix><tool>` (decisions.md section 0); MCP allows letters, digits, `_`, `-` and `.` in a name. */
export const DEFAULT_MCP_TOOL_PREFIX = 'allowance_';

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
  /** The service runs on one machine (npm start, LOCAL_RUN=1), never a deployed stage: sandbox webhooks may use loopback receivers. */
  localRun: boolean;
  /**
   * The process serves one request at a time (a Lambda execution environment, AWS_LAMBDA_FUNCTION_NAME
   * set): hot-wallet debits keep a sticky lane per process (shared/persistence/hot/hot-cache.ts).
   */
  oneRequestAtATime: boolean;
  /** The key of webhook secrets at rest, as hex (the local run, tests). */
  webhookEncryptionKey: string | undefined;
  /** Where that key lives (AWS: the data stack's secret), read once per process when the key itself is not set. */
  webhookEncryptionKeySecretArn: string | undefined;
  /** Seals sensitive values at rest (bank account numbers, card data) where no KMS key is given: the local run. */
  dataEncryptionKey: string | undefined;
  /** The stage's KMS key (id or ARN) for envelope encryption of sensitive values; wins over dataEncryptionKey. */
  dataKeyId: string | undefined;
  mcpAuthToken: string | undefined;
  /** Where the MCP function's token lives (AWS: its Secrets Manager secret); read by the compliance report, which never needs the value. */
  mcpAuthTokenSecretArn: string | undefined;
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
  /** The dispute deadline workflow's state machine (AWS); absent locally, as the transfer workflow's. */
  disputeStateMachineArn: string | undefined;
  /** The origin (and optional path prefix) clients reach the service at, without a trailing `/`: URLs of hosted pages start with it. */
  publicBaseUrl: string | undefined;
}

/**
 * Reads the environment once at cold start; a bad setting stops the function before it serves,
 * with every problem named. Plain checks rather than a schema: every function (workers too) reads
 * its configuration, and a worker that validates nothing else then bundles no validation library.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const read = new EnvReader(env);
  const config: Config = {
    tableName: read.required(ENV.tableName, { min: 3 }),
    stage: read.text(ENV.stage) ?? 'local',
    dynamodbEndpoint: read.url(ENV.dynamodbEndpoint),
    region: read.text(ENV.awsRegion) ?? 'us-east-1',
    cursorSecret: read.text(ENV.cursorSecret, { min: 32 }),
    rateLimit: {
      perSecond: read.positiveInteger(ENV.rateLimitPerSecond) ?? DEFAULT_RATE_LIMIT_PER_SECOND,
      perMinute: read.positiveInteger(ENV.rateLimitPerMinute) ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
      publicPerSecond: read.positiveInteger(ENV.publicRateLimitPerSecond) ?? DEFAULT_PUBLIC_RATE_LIMIT_PER_SECOND,
    },
    walletLimitPerEnvironment: read.positiveInteger(ENV.walletLimitPerEnvironment) ?? DEFAULT_WALLET_LIMIT,
    timeScale: read.positiveNumber(ENV.timeScale) ?? 60,
    kybAutoApprove: read.flag(ENV.kybAutoApprove) ?? false,
    localRun: read.flag(ENV.localRun) ?? false,
    oneRequestAtATime: read.text(ENV.lambdaFunctionName, { min: 1 }) !== undefined,
    webhookEncryptionKey: read.text(ENV.webhookEncryptionKey, { pattern: HEX_KEY }),
    webhookEncryptionKeySecretArn: read.text(ENV.webhookEncryptionKeySecretArn, { pattern: SECRET_ARN }),
    dataEncryptionKey: read.text(ENV.dataEncryptionKey, { pattern: HEX_KEY }),
    dataKeyId: read.text(ENV.dataKeyId, { min: 1, max: 2048 }),
    mcpAuthToken: read.text(ENV.mcpAuthToken, { min: 16 }),
    mcpAuthTokenSecretArn: read.text(ENV.mcpAuthTokenSecretArn, { pattern: SECRET_ARN }),
    mcpToolPrefix: read.text(ENV.mcpToolPrefix, { pattern: MCP_TOOL_PREFIX }) ?? DEFAULT_MCP_TOOL_PREFIX,
    eventBusName: read.text(ENV.eventBusName, { min: 1 }),
    webhookQueueUrl: read.url(ENV.webhookQueueUrl),
    webhookDeadLetterUrl: read.url(ENV.webhookDeadLetterUrl),
    expiryScheduling: undefined,
    transferStateMachineArn: read.text(ENV.transferStateMachineArn, { pattern: STATE_MACHINE_ARN }),
    disputeStateMachineArn: read.text(ENV.disputeStateMachineArn, { pattern: STATE_MACHINE_ARN }),
    publicBaseUrl: read.url(ENV.publicBaseUrl)?.replace(/\/+$/, ''),
  };
  const expiryScheduling = [
    read.text(ENV.expiryScheduleGroup, { min: 1 }),
    read.text(ENV.expirySchedulerRoleArn, { min: 1 }),
    read.text(ENV.expiryQueueArn, { min: 1 }),
  ] as const;
  read.done();
  return { ...config, expiryScheduling: expirySchedulingOf(...expiryScheduling) };
}

export const HEX_KEY = { regex: /^[0-9a-fA-F]{64}$/, message: 'must be 32 bytes as hex' };
const MCP_TOOL_PREFIX = { regex: /^[A-Za-z0-9_.-]{0,64}$/, message: 'must be at most 64 letters, digits, _, - or .' };
const STATE_MACHINE_ARN = { regex: /^arn:[^:]+:states:/, message: 'must be a state machine ARN' };
const SECRET_ARN = {
  regex: /^arn:[^:]+:secretsmanager:[a-z0-9-]+:\d{12}:secret:[^:]+$/,
  message: 'must be a Secrets Manager secret ARN',
};
const FLAGS: Readonly<Record<string, boolean>> = { '1': true, true: true, '0': false, false: false };

interface TextRules {
  min?: number;
  max?: number;
  pattern?: { regex: RegExp; message: string };
}

/** Typed reads of environment variables; each problem is collected, and `done` throws them all. */
class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Record<string, string | undefined>) {}

  text(name: string, rules: TextRules = {}): string | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    if (rules.min !== undefined && value.length < rules.min)
      return this.problem(name, rules.min === 1 ? 'must not be empty' : `must be at least ${rules.min} characters`);
    if (rules.max !== undefined && value.length > rules.max)
      return this.problem(name, `must be at most ${rules.max} characters`);
    if (rules.pattern && !rules.pattern.regex.test(value)) return this.problem(name, rules.pattern.message);
    return value;
  }

  /** Surrounding white space is dropped (as zod's url() did). */
  url(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || URL.canParse(value) ? value : this.problem(name, 'must be a URL');
  }

  positiveNumber(name: string): number | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    const number = Number(value);
    return value.trim() !== '' && Number.isFinite(number) && number > 0
      ? number
      : this.problem(name, 'must be a number greater than 0');
  }

  positiveInteger(name: string): number | undefined {
    const number = this.positiveNumber(name);
    return number === undefined || Number.isSafeInteger(number)
      ? number
      : this.problem(name, `must be an integer of at most ${Number.MAX_SAFE_INTEGER}`);
  }

  flag(name: string): boolean | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    return Object.hasOwn(FLAGS, value) ? FLAGS[value] : this.problem(name, 'must be one of 0, 1, true, false');
  }

  /** A setting without a default ('' stands in until `done` throws, so every problem is named). */
  required(name: string, rules: TextRules = {}): string {
    if (this.env[name] === undefined) this.problem(name, 'is required');
    return this.text(name, rules) ?? '';
  }

  /** Throws every problem found so far, if any. */
  done(): void {
    if (this.problems.length) throw new Error(`invalid configuration: ${this.problems.join('; ')}`);
  }

  private problem(name: string, message: string): undefined {
    this.problems.push(`${name}: ${message}`);
    return undefined;
  }
}

/** All three or none: a partial setting is a deployment mistake, refused at cold start. */
function expirySchedulingOf(
  groupName: string | undefined,
  roleArn: string | undefined,
  queueArn: string | undefined,
): Config['expiryScheduling'] {
  if (groupName === undefined && roleArn === undefined && queueArn === undefined) return undefined;
  if (groupName === undefined || roleArn === undefined || queueArn === undefined) {
    throw new Error(
      `invalid configuration: ${ENV.expiryScheduleGroup}, ${ENV.expirySchedulerRoleArn} and ${ENV.expiryQueueArn} go together`,
    );
  }
  return { groupName, roleArn, queueArn };
}
