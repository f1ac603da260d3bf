import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { callOk, callTool, connectMcp, TEST_MCP_TOKEN } from '../fixtures/mcp-client.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

/**
 * The webhook and event tools of the MCP edge as an organization's agent runs them: the same
 * services as REST (until 2026-11-23 the MCP server had neither and every one of these tools
 * answered a 500).
 */
describe('webhooks and events over MCP', () => {
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;
  let client: Client;

  beforeAll(async () => {
    service = await startTestService({
      [ENV.mcpAuthToken]: TEST_MCP_TOKEN,
      [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
    });
    receiver = await startReceiver();
    org = await service.createOrganization('Webhooks MCP Org');
    client = await connectMcp(service.baseUrl, org.key);
  });
  afterAll(async () => {
    await client.close();
    await service.close();
    await receiver.close();
  });

  it('creates a webhook, sends it a signed test event, lists its deliveries and deletes it', async () => {
    const hook = await callOk(client, 'create_webhook', { url: receiver.url('/mcp-hook'), events: ['*'] });
    expect(hook).toMatchObject({
      id: expect.stringMatching(/^whk_/),
      status: 'ENABLED',
      secret: expect.stringMatching(/^whsec_/),
    });
    expect((await callOk(client, 'list_webhooks', {})).data.map((webhook: { id: string }) => webhook.id)).toContain(
      hook.id,
    );
    expect(await callOk(client, 'get_webhook', { id: hook.id })).not.toHaveProperty('secret');

    const test = await callOk(client, 'test_webhook', { id: hook.id });
    const delivered = await eventually(() => {
      const hit = receiver.at('/mcp-hook')[0];
      if (!hit) throw new Error('not yet');
      return hit;
    });
    expect(
      new StandardWebhook(hook.secret).verify(delivered.body, delivered.headers as Record<string, string>),
    ).toMatchObject({ id: test.eventId, type: 'webhook.test' });
    await eventually(async () =>
      expect((await callOk(client, 'list_webhook_deliveries', { id: hook.id })).data.length).toBeGreaterThan(0),
    );

    // A manual retry of that delivery reaches the receiver again, with the same event id.
    const retried = await callOk(client, 'retry_webhook_delivery', { id: hook.id, deliveryId: test.deliveryId });
    expect(retried).toMatchObject({ deliveryId: test.deliveryId, eventId: test.eventId });
    const again = await eventually(() => {
      const hit = receiver.at('/mcp-hook')[1];
      if (!hit) throw new Error('not yet');
      return hit;
    });
    expect(again.headers['webhook-id']).toBe(test.eventId);

    await callOk(client, 'delete_webhook', { id: hook.id });
    const gone = await callTool(client, 'get_webhook', { id: hook.id });
    expect(gone.isError).toBe(true);
    expect(JSON.stringify(gone.structuredContent ?? gone.content)).toContain('WEBHOOK_NOT_FOUND');
  });

  it('lists the events of the organization and reads one', async () => {
    await callOk(client, 'fund_wallet', { id: org.mainWalletId, amount: '25.00' });
    const listed = await eventually(async () => {
      const page = await callOk(client, 'list_events', {});
      expect(page.data.length).toBeGreaterThan(0);
      return page;
    });
    const first = listed.data[0] as { id: string; type: string };
    expect(await callOk(client, 'get_event', { id: first.id })).toMatchObject({ id: first.id, type: first.type });
  });
});
