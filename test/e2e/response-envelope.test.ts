import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callOk, connectMcp, TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { mcpHeaders, rpc } from '../fixtures/mcp-events.js';
import { expectStatus, ledgerClient, type Organization } from '../fixtures/payments-client.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** A request whose answer is read byte for byte (fetch would decompress it on its own). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const varyOf = (response: RawResponse) => String(response.headers.vary ?? '').toLowerCase();

describe('response envelope details', () => {
  let service: TestService;
  let org: Organization;
  const clients: Client[] = [];

  beforeAll(async () => {
    service = await startTestService({ [ENV.mcpAuthToken]: TEST_MCP_TOKEN });
    org = await service.createOrganization('Envelope');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await service.close();
  });

  describe('the audit log pages like every other list', () => {
    it('answers {data, cursor, hasMore}, keeps the deprecated nextCursor beside cursor, and walks to the end with cursor', async () => {
      // Prepare
      const ledger = ledgerClient(service);
      for (const name of ['A', 'B', 'C']) await ledger.createWallet(org.key, name);
      await service.projected();

      // Act
      const pages: Array<Record<string, any>> = [];
      let cursor: string | null = null;
      do {
        const response = await service.call(
          'GET',
          `/v1/audit-logs?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key: org.key },
        );
        expectStatus(response, 200);
        pages.push(response.body);
        cursor = response.body.cursor as string | null;
      } while (cursor && pages.length < 20);

      // Assess
      expect(pages.length).toBeGreaterThanOrEqual(2);
      const [first] = pages;
      const last = pages.at(-1)!;
      expect(first).toMatchObject({ hasMore: true, cursor: expect.any(String) });
      expect(first!.nextCursor).toBe(first!.cursor);
      expect(last).toMatchObject({ cursor: null, hasMore: false });
      expect(last).not.toHaveProperty('nextCursor');
      expect(pages.flatMap((page) => page.data).length).toBeGreaterThanOrEqual(3);
    });

    it('answers the same shape through the MCP tool, valid against its output schema', async () => {
      // Prepare
      const client = await connectMcp(service.baseUrl, org.key);
      clients.push(client);

      // Act
      const page = await callOk(client, 'query_audit_logs', { limit: 1 });

      // Assess
      expect(page).toMatchObject({ hasMore: true, cursor: expect.any(String) });
      expect(page.data).toHaveLength(1);
    });
  });

  describe('large answers are compressed when the client accepts it', () => {
    it('gzips the OpenAPI document for Accept-Encoding: gzip, with Vary: Accept-Encoding, and the same JSON inside', async () => {
      // Act
      const plain = await raw(`${service.baseUrl}/v1/openapi.json`);
      const zipped = await raw(`${service.baseUrl}/v1/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });

      // Assess
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(varyOf(zipped)).toContain('accept-encoding');
      expect(varyOf(plain)).toContain('accept-encoding');
      expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 3);
      expect(JSON.parse(gunzipSync(zipped.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
    });

    it('prefers br when the client accepts both, and honours q=0', async () => {
      // Act
      const both = await raw(`${service.baseUrl}/v1/openapi.json`, {
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      const refused = await raw(`${service.baseUrl}/v1/openapi.json`, {
        headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
      });

      // Assess
      expect(both.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(both.bytes).toString('utf8'))).toHaveProperty('openapi');
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(refused.bytes.toString('utf8'))).toHaveProperty('openapi');
    });

    it('leaves a small answer as it is', async () => {
      // Act
      const small = await raw(`${service.baseUrl}/v1/wallets/${org.mainWalletId}`, {
        headers: { authorization: `Bearer ${org.key}`, 'accept-encoding': 'gzip, br' },
      });

      // Assess
      expect(small.status).toBe(200);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(small.bytes.toString('utf8'))).toMatchObject({ id: org.mainWalletId });
    });

    it('compresses MCP tools/list (about 260 KB) over HTTP', async () => {
      // Act
      const body = JSON.stringify(rpc(1, 'tools/list'));
      const headers = mcpHeaders(TEST_MCP_TOKEN, org.key);
      const plain = await raw(`${service.baseUrl}/mcp`, { method: 'POST', headers, body });
      const zipped = await raw(`${service.baseUrl}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'accept-encoding': 'gzip' },
        body,
      });

      // Assess
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(varyOf(zipped)).toContain('accept-encoding');
      expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 4);
      const answer = JSON.parse(gunzipSync(zipped.bytes).toString('utf8')) as { result: { tools: unknown[] } };
      expect(answer.result.tools.length).toBeGreaterThan(50);
    });
  });

  describe('JSON-RPC error messages', () => {
    it('say the problem once: no "MCP error <code>:" prefix in the message, so clients that add one show it once', async () => {
      // Prepare
      const post = (message: unknown) =>
        fetch(`${service.baseUrl}/mcp`, {
          method: 'POST',
          headers: mcpHeaders(TEST_MCP_TOKEN, org.key),
          body: JSON.stringify(message),
        }).then(async (r) => (await r.json()) as { error: { code: number; message: string } });

      // Act
      const unknownTool = await post(rpc(1, 'tools/call', { name: 'allowance_no_such_tool', arguments: {} }));
      const badArguments = await post(rpc(2, 'tools/call', { name: 'allowance_get_balance', arguments: [1, 2] }));

      // Assess
      expect(unknownTool.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Unknown tool: allowance_no_such_tool\./),
      });
      expect(badArguments.error.code).toBe(-32602);
      expect(badArguments.error.message).not.toMatch(/MCP error/);
    });

    it('reach the official SDK client with one prefix', async () => {
      // Prepare
      const client = await connectMcp(service.baseUrl, org.key);
      clients.push(client);

      // Act
      const failure = await client.callTool({ name: 'allowance_no_such_tool', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );

      // Assess
      expect(failure?.message).toMatch(/^MCP error -32602: Unknown tool/);
      expect(failure?.message).not.toMatch(/MCP error -32602: MCP error/);
    });
  });
});
