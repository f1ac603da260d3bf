/** Every environment variable the service reads: CDK sets them, the local run sets them, config parses them. */
export const ENV = {
  tableName: 'TABLE_NAME',
  stage: 'STAGE',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  awsRegion: 'AWS_REGION',
  cursorSecret: 'CURSOR_SECRET',
  rateLimitPerSecond: 'RATE_LIMIT_PER_SECOND',
  rateLimitPerMinute: 'RATE_LIMIT_PER_MINUTE',
  publicRateLimitPerSecond: 'PUBLIC_RATE_LIMIT_PER_SECOND',
  walletLimitPerEnvironment: 'WALLET_LIMIT_PER_ENVIRONMENT',
  timeScale: 'TIME_SCALE',
  kybAutoApprove: 'KYB_AUTO_APPROVE',
  /**
   * Set (1) only by the local run (npm start, bin/local.ts) and the test fixture that stands for it;
   * never by CDK, so no deployed stage has it: sandbox webhooks may then deliver to loopback.
   */
  localRun: 'LOCAL_RUN',
  /** Set by the Lambda runtime itself (never by CDK nor the local run): the process is an execution environment serving one request at a time. */
  lambdaFunctionName: 'AWS_LAMBDA_FUNCTION_NAME',
  webhookEncryptionKey: 'WEBHOOK_ENCRYPTION_KEY',
  /** The secret holding WEBHOOK_ENCRYPTION_KEY (AWS): read at the first use, when WEBHOOK_ENCRYPTION_KEY itself is not set. */
  webhookEncryptionKeySecretArn: 'WEBHOOK_ENCRYPTION_KEY_SECRET_ARN',
  dataEncryptionKey: 'DATA_ENCRYPTION_KEY',
  dataKeyId: 'DATA_KEY_ID',
  mcpAuthToken: 'MCP_AUTH_TOKEN',
  /** The secret holding the MCP token (AWS), for the compliance report: its ARN, never its value. */
  mcpAuthTokenSecretArn: 'MCP_AUTH_TOKEN_SECRET_ARN',
  mcpToolPrefix: 'MCP_TOOL_PREFIX',
  eventBusName: 'EVENT_BUS_NAME',
  webhookQueueUrl: 'WEBHOOK_QUEUE_URL',
  webhookDeadLetterUrl: 'WEBHOOK_DLQ_URL',
  expiryScheduleGroup: 'EXPIRY_SCHEDULE_GROUP',
  expirySchedulerRoleArn: 'EXPIRY_SCHEDULER_ROLE_ARN',
  expiryQueueArn: 'EXPIRY_QUEUE_ARN',
  transferStateMachineArn: 'TRANSFER_STATE_MACHINE_ARN',
  disputeStateMachineArn: 'DISPUTE_STATE_MACHINE_ARN',
  /** Where clients reach the service (hosted pages' URLs): the local server, the e2e fixture's server, the stage's HTTP API endpoint. */
  publicBaseUrl: 'PUBLIC_BASE_URL',
  /**
   * Powertools for AWS Lambda reads these itself (logger, metrics, tracer); CDK sets them on every
   * function (lib/constructs/service-function.ts), the local run sets the same.
   * `allowance-<group>`: the `service` field of a function's log lines (metrics use METRICS_SERVICE).
   */
  powertoolsServiceName: 'POWERTOOLS_SERVICE_NAME',
  /** The stage's log level (StageConfig.logLevel): INFO in production, DEBUG elsewhere. */
  powertoolsLogLevel: 'POWERTOOLS_LOG_LEVEL',
  /** METRICS_NAMESPACE of shared/observability/metric-names.ts. */
  powertoolsMetricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
  /** 'true' when the stage traces (StageConfig.tracing), else 'false'. */
  powertoolsTraceEnabled: 'POWERTOOLS_TRACE_ENABLED',
  /** Always 'false': responses carry secrets shown once (API keys, webhook secrets), never put in a trace. */
  powertoolsTracerCaptureResponse: 'POWERTOOLS_TRACER_CAPTURE_RESPONSE',
} as const;
