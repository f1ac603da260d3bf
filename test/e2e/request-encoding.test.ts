import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { ENV } from '../../shared/config/env-names.js';
import { TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { mcpHeaders, rpc } from '../fixtures/mcp-events.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

/** JSON text with one raw 0xff byte (never valid UTF-8) where `<FF>` marks the spot. */
function withInvalidByte(json: string): Uint8Array {
  const [before, after] = json.split('<FF>') as [string, string];
  return Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from([0xff]), Buffer.from(after, 'utf8')]);
}

/** Request bodies are JSON text in UTF-8, sent as `application/json` (docs/api.md, Conventions). */
describe('request body encoding and media type', () => {
  const { service, ledger, org } = setupE2e({
    env: { [ENV.mcpAuthToken]: TEST_MCP_TOKEN },
    organizations: { org: 'Encoding' },
  });

  const send = (method: string, path: string, rawBody: string | Uint8Array, contentType?: string) =>
    service.call(method, path, {
      key: org.key,
      rawBody,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
    });
  const agentCount = async () => {
    const response = await service.call('GET', '/v1/agents?limit=100', { key: org.key });
    expectStatus(response, 200);
    return (response.body.data as unknown[]).length;
  };
  const paymentCount = async (walletId: string) => {
    const response = await service.call('GET', `/v1/payments?walletId=${walletId}&limit=100`, { key: org.key });
    expectStatus(response, 200);
    return (response.body.data as unknown[]).length;
  };

  describe('a body that is not valid UTF-8 executes nothing', () => {
    it('POST /v1/payments with a 0xff byte inside the description: 400 VALIDATION_ERROR on body, no payment, no money moves', async () => {
      // Prepare
      const payer = await ledger.fundedWallet(org, '100.00');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');
      const body = withInvalidByte(JSON.stringify({ from: payer, to: payee, amount: '10.00', description: 'caf<FF>' }));

      // Act
      const response = await send('POST', '/v1/payments', body, 'application/json');

      // Assess
      const error = expectApiError(response, 400, 'VALIDATION_ERROR');
      expect(error.details?.field).toBe('body');
      expect(error.message).toMatch(/UTF-8/);
      expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
      expect(await paymentCount(payer)).toBe(0);
    });

    it('POST /v1/agents with a 0xff byte inside the name: 400 VALIDATION_ERROR on body, no agent', async () => {
      // Prepare
      const before = await agentCount();

      // Act
      const response = await send('POST', '/v1/agents', withInvalidByte('{"name": "Shop<FF>per"}'), 'application/json');

      // Assess
      expect(expectApiError(response, 400, 'VALIDATION_ERROR').details?.field).toBe('body');
      expect(await agentCount()).toBe(before);
    });

    it('the same bodies in valid UTF-8 are executed (the refusal is about the bytes)', async () => {
      // Act
      const response = await send('POST', '/v1/agents', Buffer.from('{"name": "Café ☕"}', 'utf8'), 'application/json');

      // Assess
      expectStatus(response, 201);
      expect(response.body.name).toBe('Café ☕');
    });
  });

  describe('the Content-Type of a body', () => {
    it('refuses a JSON body sent as text/plain, as a form (curl -d) or without Content-Type: 415 UNSUPPORTED_MEDIA_TYPE, nothing created', async () => {
      // Prepare
      const before = await agentCount();
      const body = JSON.stringify({ name: 'Typed' });

      // Act
      const responses = [
        await send('POST', '/v1/agents', body, 'text/plain'),
        await send('POST', '/v1/agents', body, 'application/x-www-form-urlencoded'),
        await send('POST', '/v1/agents', Buffer.from(body, 'utf8')),
        await send('POST', '/v1/agents', body, 'application/merge-patch+json'),
        await send('POST', '/v1/agents', body, 'application/json; charset=iso-8859-1'),
      ];

      // Assess
      for (const response of responses) {
        const error = expectApiError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect(error.details?.accepted).toEqual(['application/json']);
        expect(response.headers.get('accept')).toBe('application/json');
      }
      expect(await agentCount()).toBe(before);
    });

    it('accepts application/json with a charset of utf-8, in any case', async () => {
      // Act
      const lower = await send(
        'POST',
        '/v1/agents',
        JSON.stringify({ name: 'Lower' }),
        'application/json; charset=utf-8',
      );
      const upper = await send(
        'POST',
        '/v1/agents',
        JSON.stringify({ name: 'Upper' }),
        'Application/JSON;Charset="UTF-8"',
      );

      // Assess
      expectStatus(lower, 201);
      expectStatus(upper, 201);
    });

    it('needs no Content-Type when there is no body (approve takes an optional body)', async () => {
      // Prepare
      const payer = await ledger.fundedWallet(org, '100.00');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');
      await ledger.createPolicy(org.key, { walletId: payer, requireHumanApproval: true });
      const requester = await ledger.createKey(org, ['payments:write', 'payments:read'], 'Requester');
      const { approvalId } = await ledger.queuedPayment(requester.key, { from: payer, to: payee, amount: '5.00' });

      // Act
      const response = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key });

      // Assess
      expectStatus(response, 200);
    });

    it('checks the key before the media type (a bad body never hides a 401)', async () => {
      // Act
      const response = await service.call('POST', '/v1/agents', {
        rawBody: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

      // Assess
      expectApiError(response, 401, 'UNAUTHORIZED');
    });
  });

  describe('MCP (JSON-RPC over POST /mcp)', () => {
    const post = (body: Uint8Array) =>
      fetch(`${service.baseUrl}/mcp`, { method: 'POST', headers: mcpHeaders(TEST_MCP_TOKEN, org.key), body });

    it('answers a JSON-RPC parse error (-32700, HTTP 400) to a body that is not valid UTF-8, and runs no tool', async () => {
      // Prepare
      const before = await agentCount();
      const call = JSON.stringify(
        rpc(1, 'tools/call', { name: 'allowance_create_agent', arguments: { name: 'Mcp<FF>agent' } }),
      );

      // Act
      const response = await post(withInvalidByte(call));

      // Assess
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error: { code: number; message: string } };
      expect(answer.error.code).toBe(-32700);
      expect(answer.error.message).toMatch(/UTF-8/);
      expect(await agentCount()).toBe(before);
    });

    it('answers 415 to a JSON body declared in another charset, and runs no tool', async () => {
      // Prepare
      const before = await agentCount();
      const call = JSON.stringify(
        rpc(1, 'tools/call', { name: 'allowance_create_agent', arguments: { name: 'Latin' } }),
      );

      // Act
      const response = await fetch(`${service.baseUrl}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders(TEST_MCP_TOKEN, org.key), 'content-type': 'application/json; charset=iso-8859-1' },
        body: call,
      });

      // Assess
      expect(response.status).toBe(415);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32000);
      expect(await agentCount()).toBe(before);
    });

    it('runs the same call in valid UTF-8', async () => {
      // Prepare
      const before = await agentCount();
      const call = JSON.stringify(
        rpc(1, 'tools/call', { name: 'allowance_create_agent', arguments: { name: 'Mcp agent' } }),
      );

      // Act
      const response = await post(Buffer.from(call, 'utf8'));

      // Assess
      expect(response.status).toBe(200);
      expect(await agentCount()).toBe(before + 1);
    });
  });
});
