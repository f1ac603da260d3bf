import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** An API Gateway HTTP API (payload 2.0) event, as API Gateway hands it to the Lambda. */
export function apiEvent(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'allowance-bench',
    ...(options.headers ?? {}),
  };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const now = new Date();
  const routeKey = `${method} ${path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'bench.local',
      domainPrefix: 'bench',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.10', userAgent: 'allowance-bench' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    isBase64Encoded: false,
  };
}

export function lambdaContext(): Context {
  return {
    awsRequestId: randomUUID(),
    functionName: 'allowance-bench-payments',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:allowance-bench-payments',
    memoryLimitInMB: '1024',
    logGroupName: 'bench',
    logStreamName: 'bench',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface LambdaResult {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
}

export type PaymentsHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<LambdaResult>;
