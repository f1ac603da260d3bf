import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import type { Organization } from '../fixtures/payments-client.js';

/** Reserved event names (declared by the spec, emitted by no code yet) are refused where a client names events. */
describe('reserved event names', () => {
  let service: TestService;
  let org: Organization;

  beforeAll(async () => {
    service = await startTestService({ [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex') });
    org = await service.createOrganization('Event Names Org');
  });
  afterAll(() => service.close());

  it('refuses a webhook filter naming a reserved event with 400 VALIDATION_ERROR on `events`, saying it is not emitted yet', async () => {
    const response = await service.call('POST', '/v1/webhooks', { key: org.key, body: { url: 'http://127.0.0.1:9/hook', events: ['payment.posted', 'dispute.created'] } });

    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.field).toBe('events.1');
    expect(response.body.error.message).toContain('dispute.created');
    expect(response.body.error.message).toContain('not emitted yet');
  });

  it('refuses `GET /v1/events?type=` with a reserved name with 400 VALIDATION_ERROR on `type`', async () => {
    const response = await service.call('GET', '/v1/events?type=invoice.paid', { key: org.key });

    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.field).toBe('type');
    expect(response.body.error.message).toContain('invoice.paid');
    expect(response.body.error.message).toContain('not emitted yet');
  });

  it('accepts an emitted name in a webhook filter and in `GET /v1/events?type=`', async () => {
    const hook = await service.call('POST', '/v1/webhooks', { key: org.key, body: { url: 'http://127.0.0.1:9/hook', events: ['deposit.completed', 'card.authorization.approved', 'payment.posted'] } });
    const events = await service.call('GET', '/v1/events?type=card.created', { key: org.key });

    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.events).toEqual(['deposit.completed', 'card.authorization.approved', 'payment.posted']);
    expect(events.status, events.text).toBe(200);
  });

  it('still answers an unknown name with 400 VALIDATION_ERROR (not as a reserved one)', async () => {
    const response = await service.call('POST', '/v1/webhooks', { key: org.key, body: { url: 'http://127.0.0.1:9/hook', events: ['no.such'] } });

    expect(response.status).toBe(400);
    expect(response.body.error.details.field).toBe('events.0');
    expect(response.body.error.message).not.toContain('not emitted yet');
  });
});
