import type { Context } from 'aws-lambda';

/** The Lambda context the local run passes to a handler: the remaining time is its function's timeout, as in AWS. */
export function lambdaContext(options: {
  requestId: string;
  functionName: string;
  timeoutMs: number;
  memoryMb: number;
}): Context {
  const deadline = Date.now() + options.timeoutMs;
  return {
    awsRequestId: options.requestId,
    functionName: options.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${options.functionName}`,
    memoryLimitInMB: String(options.memoryMb),
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
