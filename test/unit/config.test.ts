import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MCP_TOOL_PREFIX,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_RATE_LIMIT_PER_SECOND,
  loadConfig,
} from '../../shared/config/config.js';

const HEX = 'ab'.repeat(32);

describe('loadConfig', () => {
  it('fills the defaults of a minimal environment', () => {
    const config = loadConfig({ TABLE_NAME: 'allowance' });
    expect(config).toMatchObject({
      tableName: 'allowance',
      stage: 'local',
      region: 'us-east-1',
      dynamodbEndpoint: undefined,
      rateLimit: {
        perSecond: DEFAULT_RATE_LIMIT_PER_SECOND,
        perMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
        publicPerSecond: 20,
      },
      walletLimitPerEnvironment: 100,
      timeScale: 60,
      kybAutoApprove: false,
      oneRequestAtATime: false,
      mcpToolPrefix: DEFAULT_MCP_TOOL_PREFIX,
      expiryScheduling: undefined,
    });
  });

  it('reads every typed setting', () => {
    const config = loadConfig({
      TABLE_NAME: 'allowance',
      STAGE: 'prod',
      DYNAMODB_ENDPOINT: 'http://localhost:8000',
      AWS_REGION: 'eu-west-1',
      RATE_LIMIT_PER_SECOND: '5',
      RATE_LIMIT_PER_MINUTE: '300',
      PUBLIC_RATE_LIMIT_PER_SECOND: '2',
      WALLET_LIMIT_PER_ENVIRONMENT: '7',
      TIME_SCALE: '0.5',
      KYB_AUTO_APPROVE: 'true',
      DATA_ENCRYPTION_KEY: HEX,
      MCP_TOOL_PREFIX: '',
      EXPIRY_SCHEDULE_GROUP: 'group',
      EXPIRY_SCHEDULER_ROLE_ARN: 'arn:aws:iam::1:role/r',
      EXPIRY_QUEUE_ARN: 'arn:aws:sqs:eu-west-1:1:q',
      TRANSFER_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:1:stateMachine:t',
      DISPUTE_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:1:stateMachine:d',
      MCP_AUTH_TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:McpAuthToken-AbCdEf',
      WEBHOOK_ENCRYPTION_KEY_SECRET_ARN:
        'arn:aws:secretsmanager:eu-west-1:123456789012:secret:WebhookEncryptionKey-AbCdEf',
    });
    expect(config).toMatchObject({
      stage: 'prod',
      dynamodbEndpoint: 'http://localhost:8000',
      region: 'eu-west-1',
      rateLimit: { perSecond: 5, perMinute: 300, publicPerSecond: 2 },
      walletLimitPerEnvironment: 7,
      timeScale: 0.5,
      kybAutoApprove: true,
      dataEncryptionKey: HEX,
      mcpToolPrefix: '',
      expiryScheduling: { groupName: 'group', roleArn: 'arn:aws:iam::1:role/r', queueArn: 'arn:aws:sqs:eu-west-1:1:q' },
      transferStateMachineArn: 'arn:aws:states:eu-west-1:1:stateMachine:t',
      disputeStateMachineArn: 'arn:aws:states:eu-west-1:1:stateMachine:d',
      mcpAuthTokenSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:McpAuthToken-AbCdEf',
      webhookEncryptionKeySecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:WebhookEncryptionKey-AbCdEf',
    });
    expect(loadConfig({ TABLE_NAME: 'allowance', KYB_AUTO_APPROVE: '0' }).kybAutoApprove).toBe(false);
    // A Lambda execution environment (the runtime sets the function's name) serves one request at a time.
    expect(loadConfig({ TABLE_NAME: 'allowance', AWS_LAMBDA_FUNCTION_NAME: 'pay' }).oneRequestAtATime).toBe(true);
    expect(loadConfig({ TABLE_NAME: 'allowance', KYB_AUTO_APPROVE: '1' }).kybAutoApprove).toBe(true);
    expect(
      loadConfig({ TABLE_NAME: 'allowance', WEBHOOK_QUEUE_URL: ' https://sqs.eu-west-1.amazonaws.com/1/q\n' })
        .webhookQueueUrl,
    ).toBe('https://sqs.eu-west-1.amazonaws.com/1/q');
  });

  it.each([
    [{ TABLE_NAME: undefined }, 'TABLE_NAME: is required'],
    [{ TABLE_NAME: 'ab' }, 'TABLE_NAME: must be at least 3 characters'],
    [{ DYNAMODB_ENDPOINT: 'not a url' }, 'DYNAMODB_ENDPOINT: must be a URL'],
    [{ CURSOR_SECRET: 'short' }, 'CURSOR_SECRET: must be at least 32 characters'],
    [{ RATE_LIMIT_PER_SECOND: '0' }, 'RATE_LIMIT_PER_SECOND: must be a number greater than 0'],
    [{ RATE_LIMIT_PER_MINUTE: '' }, 'RATE_LIMIT_PER_MINUTE: must be a number greater than 0'],
    [{ WALLET_LIMIT_PER_ENVIRONMENT: '2.5' }, 'WALLET_LIMIT_PER_ENVIRONMENT: must be an integer'],
    [{ RATE_LIMIT_PER_SECOND: '1e16' }, 'RATE_LIMIT_PER_SECOND: must be an integer of at most 9007199254740991'],
    [{ TIME_SCALE: 'fast' }, 'TIME_SCALE: must be a number greater than 0'],
    [{ KYB_AUTO_APPROVE: 'yes' }, 'KYB_AUTO_APPROVE: must be one of 0, 1, true, false'],
    [{ KYB_AUTO_APPROVE: 'constructor' }, 'KYB_AUTO_APPROVE: must be one of 0, 1, true, false'],
    [{ KYB_AUTO_APPROVE: '__proto__' }, 'KYB_AUTO_APPROVE: must be one of 0, 1, true, false'],
    [{ EVENT_BUS_NAME: '' }, 'EVENT_BUS_NAME: must not be empty'],
    [{ WEBHOOK_ENCRYPTION_KEY: 'abc' }, 'WEBHOOK_ENCRYPTION_KEY: must be 32 bytes as hex'],
    [{ DATA_KEY_ID: 'k'.repeat(2049) }, 'DATA_KEY_ID: must be at most 2048 characters'],
    [{ MCP_AUTH_TOKEN: 'short' }, 'MCP_AUTH_TOKEN: must be at least 16 characters'],
    [{ MCP_TOOL_PREFIX: 'bad prefix' }, 'MCP_TOOL_PREFIX: must be at most 64 letters, digits, _, - or .'],
    [{ WEBHOOK_QUEUE_URL: 'queue' }, 'WEBHOOK_QUEUE_URL: must be a URL'],
    [{ TRANSFER_STATE_MACHINE_ARN: 'arn:aws:lambda:x' }, 'TRANSFER_STATE_MACHINE_ARN: must be a state machine ARN'],
    [{ DISPUTE_STATE_MACHINE_ARN: 'arn:aws:lambda:x' }, 'DISPUTE_STATE_MACHINE_ARN: must be a state machine ARN'],
    [{ MCP_AUTH_TOKEN_SECRET_ARN: 'McpAuthToken' }, 'MCP_AUTH_TOKEN_SECRET_ARN: must be a Secrets Manager secret ARN'],
    [
      { WEBHOOK_ENCRYPTION_KEY_SECRET_ARN: 'WebhookEncryptionKey' },
      'WEBHOOK_ENCRYPTION_KEY_SECRET_ARN: must be a Secrets Manager secret ARN',
    ],
    [
      { MCP_AUTH_TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:notasecret' },
      'MCP_AUTH_TOKEN_SECRET_ARN: must be a Secrets Manager secret ARN',
    ],
    [{ EXPIRY_SCHEDULE_GROUP: 'group' }, 'go together'],
  ])('refuses %j at cold start', (env, problem) => {
    expect(() => loadConfig({ TABLE_NAME: 'allowance', ...env })).toThrow(problem);
  });

  it('names every problem at once', () => {
    expect(() => loadConfig({ TIME_SCALE: '-1', KYB_AUTO_APPROVE: 'maybe' })).toThrow(
      'invalid configuration: TABLE_NAME: is required; TIME_SCALE: must be a number greater than 0; KYB_AUTO_APPROVE: must be one of 0, 1, true, false',
    );
  });
});
