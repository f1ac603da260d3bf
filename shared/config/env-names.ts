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
  webhookEncryptionKey: 'WEBHOOK_ENCRYPTION_KEY',
  mcpAuthToken: 'MCP_AUTH_TOKEN',
  mcpToolPrefix: 'MCP_TOOL_PREFIX',
} as const;
