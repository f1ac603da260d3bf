import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/mcp/handler.js';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { functionUrlEvent, mcpHeaders, rpc } from '../fixtures/mcp-events.js';

/** The AWS handler (functions/mcp/handler.ts) fed function URL events (payload 2.0) directly. */
describe('MCP function URL handler', () => {
  let service: TestService;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;
  let headers: Record<string, string>;
  beforeAll(async () => {
    service = await startTestService({ [ENV.mcpAuthToken]: TEST_MCP_TOKEN });
    org = await service.createOrganization('MCP Function URL Org');
    headers = mcpHeaders(TEST_MCP_TOKEN, org.key, LATEST_PROTOCOL_VERSION);
  });
  afterAll(() => service.close());

  const json = (body: string) => JSON.parse(body) as Record<string, any>;

  it('answers initialize with JSON (no session id), the security headers and the request id', async () => {
    // Act
    const result = await handler(
      functionUrlEvent({
        headers,
        message: rpc(1, 'initialize', {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        }),
      }),
    );

    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    expect(result.headers['mcp-session-id']).toBeUndefined();
    expect(result.headers['strict-transport-security']).toBeTruthy();
    expect(result.headers['x-request-id']).toBeTruthy();
    expect(json(result.body).result).toMatchObject({ serverInfo: { name: 'allowance' }, capabilities: { tools: {} } });
  });

  it('answers 406 to a POST whose Accept lacks text/event-stream', async () => {
    // Act
    const withoutAccept = await handler(
      functionUrlEvent({ headers: { ...headers, accept: '' }, message: rpc(1, 'tools/list') }),
    );
    const jsonOnly = await handler(
      functionUrlEvent({ headers: { ...headers, accept: 'application/json' }, message: rpc(1, 'tools/list') }),
    );

    // Assess
    expect(withoutAccept.statusCode).toBe(406);
    expect(jsonOnly.statusCode).toBe(406);
    expect(json(jsonOnly.body).error.message).toMatch(/text\/event-stream/);
  });

  it('answers 401 without the MCP token, with the error envelope', async () => {
    // Prepare
    const { authorization: _token, ...withoutToken } = headers;

    // Act
    const result = await handler(functionUrlEvent({ headers: withoutToken, message: rpc(1, 'tools/list') }));

    // Assess
    expect(result.statusCode).toBe(401);
    expect(json(result.body).error.code).toBe('UNAUTHORIZED');
    expect(result.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('runs a tool call from a base64-encoded body and answers with the tool result', async () => {
    // Act
    const result = await handler(
      functionUrlEvent({
        headers,
        base64: true,
        message: rpc(2, 'tools/call', { name: 'allowance_get_balance', arguments: { id: org.mainWalletId } }),
      }),
    );

    // Assess
    expect(result.statusCode).toBe(200);
    const answer = json(result.body).result;
    expect(answer.isError ?? false).toBe(false);
    expect(answer.structuredContent).toMatchObject({ walletId: org.mainWalletId, currency: 'USD' });
  });

  it('answers a notification with 202 and no body', async () => {
    // Act
    const result = await handler(
      functionUrlEvent({ headers, message: { jsonrpc: '2.0', method: 'notifications/initialized' } }),
    );

    // Assess
    expect(result.statusCode).toBe(202);
    expect(result.body).toBe('');
  });

  it('answers GET with 405 (no event stream without sessions) and other paths with 404', async () => {
    // Act
    const get = await handler(functionUrlEvent({ method: 'GET', headers }));
    const elsewhere = await handler(functionUrlEvent({ path: '/', headers, message: rpc(1, 'tools/list') }));

    // Assess
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(elsewhere.statusCode).toBe(404);
    expect(json(elsewhere.body).error.code).toBe('NOT_FOUND');
  });

  it('answers an unknown tool with a JSON-RPC error, not a tool result', async () => {
    // Act
    const result = await handler(
      functionUrlEvent({ headers, message: rpc(3, 'tools/call', { name: 'allowance_no_such_tool', arguments: {} }) }),
    );

    // Assess
    expect(result.statusCode).toBe(200);
    expect(json(result.body).error).toMatchObject({ code: -32602 });
  });

  it('answers a tool call whose arguments are null or an array with invalid params (-32602), not an internal error, and runs nothing', async () => {
    for (const [id, args] of [
      [4, null],
      [5, [1, 2]],
    ] as const) {
      // Act
      const result = await handler(
        functionUrlEvent({
          headers,
          message: rpc(id, 'tools/call', { name: 'allowance_get_balance', arguments: args }),
        }),
      );

      // Assess
      expect(result.statusCode).toBe(200);
      const body = json(result.body);
      expect(body.result).toBeUndefined();
      expect(body.error).toMatchObject({ code: -32602 });
    }
  });
});
