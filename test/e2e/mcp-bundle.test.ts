import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionBuildOptions } from '../../bench/bundles.js';
import { ENV } from '../../shared/config/env-names.js';
import { MCP_FUNCTION } from '../../shared/mcp/function.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { functionUrlEvent, mcpHeaders, rpc } from '../fixtures/mcp-events.js';

/**
 * The MCP function as deployed: the bundle CDK builds (esbuild with BUNDLE_ALIASES, so Ajv is a
 * stub that throws if constructed), imported and fed function URL events. The other MCP tests run
 * the sources, where the real Ajv is present; this one would fail if the SDK started to use Ajv.
 */
describe('MCP function bundle (as deployed, without Ajv)', () => {
  let service: TestService;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;
  let headers: Record<string, string>;
  let handler: (
    event: APIGatewayProxyEventV2,
  ) => Promise<APIGatewayProxyStructuredResultV2 & { statusCode: number; body: string }>;
  let outDir: string;
  beforeAll(async () => {
    service = await startTestService({ [ENV.mcpAuthToken]: TEST_MCP_TOKEN });
    org = await service.createOrganization('MCP Bundle Org');
    headers = mcpHeaders(TEST_MCP_TOKEN, org.key, LATEST_PROTOCOL_VERSION);
    outDir = mkdtempSync(path.join(tmpdir(), 'allowance-mcp-bundle-'));
    const outfile = path.join(outDir, 'index.mjs');
    await build({ ...functionBuildOptions(MCP_FUNCTION.name), outfile });
    ({ handler } = (await import(pathToFileURL(outfile).href)) as { handler: typeof handler });
  });
  afterAll(async () => {
    await service.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  const json = (body: string) => JSON.parse(body) as Record<string, any>;

  it('initializes, lists the tools and runs one', async () => {
    // Act
    const initialized = await handler(
      functionUrlEvent({
        headers,
        message: rpc(1, 'initialize', {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        }),
      }),
    );
    const listed = await handler(functionUrlEvent({ headers, message: rpc(2, 'tools/list') }));
    const called = await handler(
      functionUrlEvent({
        headers,
        message: rpc(3, 'tools/call', { name: 'allowance_get_balance', arguments: { id: org.mainWalletId } }),
      }),
    );

    // Assess
    expect(initialized.statusCode).toBe(200);
    expect(json(initialized.body).result).toMatchObject({ serverInfo: { name: 'allowance' } });
    const tools = json(listed.body).result.tools as { name: string; outputSchema?: unknown }[];
    expect(tools.map((tool) => tool.name)).toContain('allowance_create_payment');
    expect(tools.every((tool) => tool.outputSchema !== undefined)).toBe(true);
    expect(json(called.body).result).toMatchObject({
      structuredContent: { walletId: org.mainWalletId, currency: 'USD' },
    });
  });

  it('answers invalid tool arguments with the English VALIDATION_ERROR, as the sources do', async () => {
    // Act
    const result = await handler(
      functionUrlEvent({
        headers,
        message: rpc(4, 'tools/call', { name: 'allowance_create_wallet', arguments: { name: 5 } }),
      }),
    );

    // Assess
    const answer = json(result.body).result;
    expect(answer.isError).toBe(true);
    expect(JSON.parse(answer.content[1].text)).toMatchObject({
      error: { code: 'VALIDATION_ERROR', message: 'name: Invalid input: expected string, received number' },
    });
  });
});
