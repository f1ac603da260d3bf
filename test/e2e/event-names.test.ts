import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { ENV } from '../../shared/config/env-names.js';
import { RESERVED_EVENT_NAMES } from '../../shared/domain/event-names.js';
import { eventually } from '../fixtures/eventually.js';
import { ledgerClient } from '../fixtures/payments-client.js';

/** Event names where a client names them: emitted ones accepted and typed in OpenAPI, unknown ones refused (a reserved one, declared by the spec and emitted by no code yet, is refused too: none is reserved now). */
describe('event names over HTTP: emitted ones accepted and typed in OpenAPI, unknown ones refused', () => {
  const { service, org } = setupE2e({
    env: { [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex') },
    organizations: { org: 'Event Names Org' },
  });

  it('accepts the dispute events, reserved until their area emitted them (no name is reserved now), in a webhook filter and in `GET /v1/events?type=`', async () => {
    expect(RESERVED_EVENT_NAMES).toEqual([]);
    const hook = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['payment.posted', 'dispute.created'] },
    });
    const events = await service.call('GET', '/v1/events?type=dispute.resolved', { key: org.key });

    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.events).toEqual(['payment.posted', 'dispute.created']);
    expect(events.status, events.text).toBe(200);
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
