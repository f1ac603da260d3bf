import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { ENV } from '../../shared/config/env-names.js';
import { eventually } from '../fixtures/eventually.js';
import { ledgerClient } from '../fixtures/payments-client.js';

/** Reserved event names (declared by the spec, emitted by no code yet) are refused where a client names events; emitted ones are typed. */
describe('event names over HTTP: reserved ones refused, emitted ones typed in OpenAPI', () => {
  const { service, org } = setupE2e({
    env: { [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex') },
    organizations: { org: 'Event Names Org' },
  });

  it('refuses a webhook filter naming a reserved event with 400 VALIDATION_ERROR on `events`, saying it is not emitted yet', async () => {
    const response = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['payment.posted', 'dispute.created'] },
    });

    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.field).toBe('events.1');
    expect(response.body.error.message).toContain('dispute.created');
    expect(response.body.error.message).toContain('not emitted yet');
  });

  it('refuses `GET /v1/events?type=` with a reserved name with 400 VALIDATION_ERROR on `type`', async () => {
    const response = await service.call('GET', '/v1/events?type=dispute.resolved', { key: org.key });

    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.field).toBe('type');
    expect(response.body.error.message).toContain('dispute.resolved');
    expect(response.body.error.message).toContain('not emitted yet');
  });

  it('accepts an emitted name in a webhook filter and in `GET /v1/events?type=`', async () => {
    const hook = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: {
        url: 'http://127.0.0.1:9/hook',
        events: ['deposit.completed', 'card.authorization.approved', 'payment.posted'],
      },
    });
    const events = await service.call('GET', '/v1/events?type=card.created', { key: org.key });

    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.events).toEqual(['deposit.completed', 'card.authorization.approved', 'payment.posted']);
    expect(events.status, events.text).toBe(200);
  });

  it('still answers an unknown name with 400 VALIDATION_ERROR (not as a reserved one)', async () => {
    const response = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['no.such'] },
    });

    expect(response.status).toBe(400);
    expect(response.body.error.details.field).toBe('events.0');
    expect(response.body.error.message).not.toContain('not emitted yet');
  });

  it("every event the events API returns has its type's webhook in the OpenAPI document, and its data the fields of that payload schema", async () => {
    const ledger = ledgerClient(service);
    const payer = await ledger.fundedWallet(org, '20.00');
    const payee = await ledger.createWallet(org.key, 'Payee');
    await ledger.pay(org.key, { from: payer, to: payee, amount: '1.00', description: 'typed' });
    await ledger.createAgent(org, 'Typed agent');
    const document = (await service.call('GET', '/v1/openapi.json')).body as {
      webhooks: Record<string, any>;
      components: { schemas: Record<string, any> };
    };
    const resolve = (schema: { $ref?: string }) =>
      schema.$ref ? document.components.schemas[schema.$ref.split('/').at(-1)!] : schema;

    const events = await eventually(async () => {
      const listed = (await service.call('GET', '/v1/events?limit=100', { key: org.key })).body.data as {
        type: string;
        data: Record<string, unknown>;
      }[];
      expect(new Set(listed.map((e) => e.type))).toEqual(
        new Set(['organization.created', 'wallet.created', 'wallet.funded', 'payment.posted', 'agent.created']),
      );
      return listed;
    });
    for (const event of events) {
      const envelope = resolve(document.webhooks[event.type].post.requestBody.content['application/json'].schema);
      const payload = resolve(envelope.properties.data);
      expect(Object.keys(payload.properties).length, event.type).toBeGreaterThan(0);
      expect(
        Object.keys(event.data).filter((field) => !(field in payload.properties)),
        event.type,
      ).toEqual([]);
      expect(
        (payload.required as string[]).filter((field) => !(field in event.data)),
        event.type,
      ).toEqual([]);
    }
  });
});
