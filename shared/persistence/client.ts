import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';
import { traced } from '../observability/tracer.js';
import Big from 'big.js';

export interface ClientOptions {
  endpoint?: string | undefined;
  region?: string | undefined;
}

/**
 * A document client that never turns a stored number into a float: numbers are read as
 * NumberValue (their exact decimal text) and written from decimal text.
 */
export function createDocumentClient(options: ClientOptions = {}): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    region: options.region ?? 'us-east-1',
    maxAttempts: 3,
  });
  // The SDK's logger middleware copies and filters every input and output for a logger that
  // discards them (NoOpLogger): about a tenth of the SDK's CPU per call, for nothing.
  base.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(traced(base), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: true },
  });
}

/** An exact DynamoDB Number from a big.js value. */
export function toNumberAttribute(value: Big): NumberValue {
  return NumberValue.from(value.toFixed());
}

/** Reads an exact DynamoDB Number (wrapped by the client) as big.js. */
export function readBig(value: unknown): Big {
  if (value instanceof NumberValue) return new Big(value.value);
  if (value && typeof value === 'object' && 'value' in value && typeof value.value === 'string') {
    return new Big(value.value);
  }
  if (typeof value === 'string') return new Big(value);
  throw new Error(`expected an exact DynamoDB number, got ${typeof value}`);
}

/** Reads a small integer attribute (counters) stored as a Number. */
export function readInt(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return Number(readBig(value).toFixed(0));
}

export function readOptionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
