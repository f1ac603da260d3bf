import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createMcpFunctionUrlHandler } from '../../shared/mcp/function-url.js';
import type { McpRuntime } from '../../shared/mcp/server.js';
import { observedEdge } from '../../shared/observability/invocation.js';
import { captureStreamsPerTest } from '../fixtures/stream-capture.js';

/**
 * Review of issue 26: "an unexpected failure adds one ERROR line (`unexpected error`, the redacted
 * error) with the same `requestId`" (docs/architecture.md). An edge whose handler throws past its
 * own error handling (the MCP function URL turning its event into a web Request) wrote only the
 * `request` line with status 500: what failed was nowhere in the function's log.
 */
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';

const streams = captureStreamsPerTest();

const lines = () => streams.jsonLines();

const context = { awsRequestId: 'lambda-req-edge', functionName: 'f' } as Context;

describe('an edge whose handler throws', () => {
  it('logs the failure (redacted) beside its request line, then throws it on', async () => {
    const edge = observedEdge(async (): Promise<{ statusCode: number }> => {
      throw new Error('broke with whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw in hand');
    });
    await expect(edge({ routeKey: 'POST /x', requestContext: { requestId: 'req-edge-1' } }, context)).rejects.toThrow(
      'broke',
    );
    const written = lines();
    const failure = written.find((line) => line.level === 'ERROR');
    expect(failure).toMatchObject({ message: 'unexpected error', requestId: 'req-edge-1' });
    expect(JSON.stringify(failure!.error)).toContain('broke with');
    expect(streams.text()).not.toContain('whsec_MfKQ');
    expect(written.find((line) => line.message === 'request')).toMatchObject({ status: 500, requestId: 'req-edge-1' });
  });

  it('the MCP function URL: an event that is no valid request is logged, not lost', async () => {
    const handler = createMcpFunctionUrlHandler(() => ({}) as McpRuntime);
    const event = {
      rawPath: '/mcp',
      headers: { 'x-forwarded-proto': 'not a scheme' },
      requestContext: { requestId: 'req-edge-2', http: { method: 'POST', sourceIp: '192.0.2.1' } },
      body: '{}',
      isBase64Encoded: false,
    };
    await expect(handler(event as never, context)).rejects.toThrow();
    expect(lines().find((line) => line.level === 'ERROR')).toMatchObject({
      message: 'unexpected error',
      requestId: 'req-edge-2',
    });
  });
});
