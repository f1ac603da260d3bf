import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ENV } from '../../shared/config/env-names.js';

/**
 * Per-stage settings. A stage is chosen with `-c stage=<name>`; every stage is a full, separate
 * copy of the service (its own table and API). Only production stages keep their data when a stack
 * is deleted or a resource is replaced.
 */
export const DEFAULT_STAGE = 'dev';

/** Stage names that hold real customer money: deletion protection and retained resources. */
export const PRODUCTION_STAGES: readonly string[] = ['production', 'prod'];

/** Stage names end up in stack and resource names, so keep them short and DNS-safe. */
const STAGE_NAME_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/** HTTP API stage throttling (account-level limits are higher; this caps one stage's blast radius). */
export const DEFAULT_THROTTLE = { burstLimit: 200, rateLimit: 100 } as const;

/** Lambda logs are for debugging; the audit trail lives in the table, not in CloudWatch. */
const NON_PRODUCTION_LOG_RETENTION = RetentionDays.ONE_MONTH;
/** Production keeps logs long enough to investigate incidents reported weeks later. */
const PRODUCTION_LOG_RETENTION = RetentionDays.ONE_YEAR;

/** Days of continuous backups kept by point-in-time recovery (35 is DynamoDB's maximum). */
const PITR_RECOVERY_DAYS = 35;

/** Powertools log levels the stages use (POWERTOOLS_LOG_LEVEL). */
export type LogLevel = 'DEBUG' | 'INFO';
/** Production logs what an operator needs (every request's line, warnings, errors); other stages log debug lines too. */
const PRODUCTION_LOG_LEVEL: LogLevel = 'INFO';
const NON_PRODUCTION_LOG_LEVEL: LogLevel = 'DEBUG';

/** Where a stage's alarms go: an SNS topic, by name, in the stage's account and region. */
export interface AlarmTopic {
  /** The topic's name: `allowance-<stage>-alarms` unless `-c alarmTopic=<name>` names another one. */
  readonly name: string;
  /**
   * Whether the stage creates the topic (the monitoring stack) or uses one that already exists (an
   * on-call topic shared by stages, subscribed to a pager): `-c alarmTopic=<name>` sets false.
   */
  readonly create: boolean;
}

/** The alarm topic a stage creates when none is named: `allowance-<stage>-alarms`. */
export const defaultAlarmTopicName = (stage: string) => `allowance-${stage}-alarms`;
/** SNS topic names: letters, digits, `-` and `_`, up to 256 characters. */
const TOPIC_NAME_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

export interface StageConfig {
  /** The stage name as given on the command line. */
  readonly name: string;
  readonly production: boolean;
  /** Applied to stateful resources (table, log groups). */
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly pitrRecoveryDays: number;
  readonly logRetention: RetentionDays;
  /** AWS X-Ray active tracing on the functions and the state machines (POWERTOOLS_TRACE_ENABLED). */
  readonly tracing: boolean;
  /** POWERTOOLS_LOG_LEVEL of every function. */
  readonly logLevel: LogLevel;
  /** Every alarm of the stage notifies this topic (alarm and back to OK). */
  readonly alarmTopic: AlarmTopic;
  readonly throttle: { readonly burstLimit: number; readonly rateLimit: number };
  /** Environment variables every function of the stage gets (the table name is bound separately). */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * The stage's custom domain as an origin (`https://pay.example.com`), when it has one: then every
   * function's PUBLIC_BASE_URL (the start of the hosted page links the service hands out) is this
   * rather than the HTTP API's endpoint. The domain itself (certificate, API Gateway domain name and
   * API mapping, or a CDN) is set up outside this app. From `-c publicBaseUrl=<origin>`.
   */
  readonly publicBaseUrl?: string;
}

export interface StageOptions {
  /** The stage's custom domain (StageConfig.publicBaseUrl). */
  readonly publicBaseUrl?: string;
  /** An existing SNS topic's name for the stage's alarms (`-c alarmTopic=<name>`); default: the stage creates its own. */
  readonly alarmTopic?: string;
}

/**
 * A custom domain as every function will use it: an https origin (no path, query, fragment or
 * credentials), without the trailing `/`, so `${publicBaseUrl}/hosted/...` is the page's address.
 */
export function publicBaseUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`invalid publicBaseUrl "${value}": expected an https origin such as https://pay.example.com`);
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`invalid publicBaseUrl "${value}": expected an https origin (no path, query or fragment)`);
  }
  return url.origin;
}

function alarmTopicOf(stage: string, existing: string | undefined): AlarmTopic {
  if (existing === undefined) return { name: defaultAlarmTopicName(stage), create: true };
  if (!TOPIC_NAME_PATTERN.test(existing))
    throw new Error(`invalid alarmTopic "${existing}": expected an SNS topic name (${TOPIC_NAME_PATTERN.source})`);
  return { name: existing, create: false };
}

export function isProductionStage(name: string): boolean {
  return PRODUCTION_STAGES.includes(name);
}

export function stageConfig(name: string = DEFAULT_STAGE, options: StageOptions = {}): StageConfig {
  if (!STAGE_NAME_PATTERN.test(name)) {
    throw new Error(`invalid stage name "${name}": expected ${STAGE_NAME_PATTERN.source}`);
  }
  const production = isProductionStage(name);
  return {
    name,
    production,
    removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    deletionProtection: production,
    pitrRecoveryDays: PITR_RECOVERY_DAYS,
    logRetention: production ? PRODUCTION_LOG_RETENTION : NON_PRODUCTION_LOG_RETENTION,
    tracing: true,
    logLevel: production ? PRODUCTION_LOG_LEVEL : NON_PRODUCTION_LOG_LEVEL,
    alarmTopic: alarmTopicOf(name, options.alarmTopic),
    throttle: DEFAULT_THROTTLE,
    environment: {
      [ENV.stage]: name,
    },
    ...(options.publicBaseUrl === undefined ? {} : { publicBaseUrl: publicBaseUrlOf(options.publicBaseUrl) }),
  };
}

/**
 * The stage as its functions are built: its environment plus PUBLIC_BASE_URL (the endpoint stack's
 * `publicBaseUrl`: the custom domain, or the HTTP API's endpoint), so every function of every stack
 * builds the same hosted page links (API groups, hosted pages, MCP tools, workers that present
 * invoices).
 */
export function withPublicBaseUrl(stage: StageConfig, publicBaseUrl: string): StageConfig {
  return { ...stage, environment: { ...stage.environment, [ENV.publicBaseUrl]: publicBaseUrl } };
}

/** `Allowance-<stage>-<part>`, e.g. `Allowance-dev-Data`. */
export function stackNameOf(stage: StageConfig, part: string): string {
  return `Allowance-${stage.name}-${part}`;
}
