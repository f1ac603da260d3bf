import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_ENV } from '../../bin/mcp.js';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callOk, callTool, connectWith, expectToolError, TEST_MCP_TOKEN, toolNames } from '../fixtures/mcp-client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run mcp` and `npx allowance mcp`: stdio relayed to the running service's POST /mcp. */
describe('MCP over stdio', () => {
  let service: TestService;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;
  const clients: Client[] = [];
  beforeAll(async () => {
    service = await startTestService({ [ENV.mcpAuthToken]: TEST_MCP_TOKEN });
    org = await service.createOrganization('MCP Stdio Org');
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await service.close();
  });

  async function spawnClient(command: string, args: string[], apiKey: string): Promise<Client> {
    const env = {
      ...process.env,
      [BRIDGE_ENV.url]: `${service.baseUrl}/mcp`,
      [BRIDGE_ENV.token]: TEST_MCP_TOKEN,
      [BRIDGE_ENV.apiKey]: apiKey,
    } as Record<string, string>;
    const client = await connectWith(new StdioClientTransport({ command, args, cwd: ROOT, env, stderr: 'ignore' }));
    clients.push(client);
    return client;
  }

  it.each([
    ['npm run mcp', 'npm', ['run', '--silent', 'mcp']],
    ['npx allowance mcp', 'npx', ['--offline', 'allowance', 'mcp']],
  ])('%s lists the tools of the key and runs one', async (_name, command, args) => {
    // Prepare
    const client = await spawnClient(command, args, org.key);

    // Act
    const names = await toolNames(client);
    const funded = await callOk(client, 'fund_wallet', { id: org.mainWalletId, amount: '10.00' });
    const balance = await callOk(client, 'get_balance', { id: org.mainWalletId });

    // Assess
    expect(names).toEqual(expect.arrayContaining(['create_payment', 'get_balance', 'create_agent']));
    expect(funded).toMatchObject({ walletId: org.mainWalletId });
    expect(Number(balance.balance)).toBeGreaterThanOrEqual(10);
  });

  it('relays tool errors unchanged (the REST code as isError)', async () => {
    // Prepare
    const client = await spawnClient('npm', ['run', '--silent', 'mcp'], org.key);

    // Act
    const result = await callTool(client, 'get_balance', { id: 'wal_doesnotexist000000000000' });

    // Assess
    expectToolError(result, 'WALLET_NOT_FOUND');
  });

  it('answers every request with a JSON-RPC error when the service refuses the token', async () => {
    // Prepare
    const env = {
      ...process.env,
      [BRIDGE_ENV.url]: `${service.baseUrl}/mcp`,
      [BRIDGE_ENV.token]: 'wrong-token-0123456789abcdef',
      [BRIDGE_ENV.apiKey]: org.key,
    } as Record<string, string>;
    const transport = new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp'],
      cwd: ROOT,
      env,
      stderr: 'ignore',
    });

    // Act
    const connecting = connectWith(transport);

    // Assess
    await expect(connecting).rejects.toThrow(/401/);
    await transport.close();
  });
});
