import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type LogCapture } from '../fixtures/log-capture.js';
import { ENV } from '../../shared/config/env-names.js';
import { agentsApi, type CreatedAgent } from '../fixtures/agents-client.js';
import { startTestService, type ApiResponse, type CallOptions, type TestService } from '../fixtures/local-service.js';
import { createApiKey, expectError, type Organization } from '../fixtures/organizations.js';

const SOFTWARE = { name: 'OpenAI', category: '5734', country: 'US' };
const CASINO = { name: 'Lucky Casino', category: '7995', country: 'US' };
const ADDRESS = { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' };

/**
 * Cards over HTTP (interface-spec 4.6, decisions.md section 5, docs/api.md "Cards"): issuing,
 * real-time authorization with every decline reason, capture, reversal, refund, single-use cards,
 * details behind cards:sensitive_read with an audit entry per read, and a scan of every response,
 * event, audit entry and console line of the run for the full number and the CVC.
 */
describe('cards: issue, authorize, capture, reverse, refund', () => {
  let service: TestService;
  let org: Organization;
  let agent: CreatedAgent;
  let other: CreatedAgent;
  /** Every response body (but the details themselves) and every console line of the file. */
  const seen: string[] = [];
  const details: { number: string; cvc: string }[] = [];
  let logs: LogCapture | undefined;

  const call = async (method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> => {
    const response = await service.call(method, path, options);
    if (!path.endsWith('/details')) seen.push(response.text);
    return response;
  };
  const ok = (response: ApiResponse, status = 200) => {
    expect(response.status, response.text).toBe(status);
    return response.body;
  };
  const authorize = async (cardId: string, amount: string, merchant: Record<string, string> = SOFTWARE) =>
    ok(
      await call('POST', `/v1/test-helpers/cards/${cardId}/authorizations`, {
        key: org.key,
        body: { amount, merchant },
      }),
      201,
    );
  const wallet = async (walletId: string) => {
    const body = ok(await call('GET', `/v1/wallets/${walletId}`, { key: org.key }));
    return { balance: Number(body.balance).toFixed(2), held: Number(body.heldBalance).toFixed(2) };
  };
  const readDetails = async (cardId: string, key: string) => {
    const response = await service.call('GET', `/v1/cards/${cardId}/details`, { key });
    if (response.status === 200) details.push({ number: response.body.number, cvc: response.body.cvc });
    else seen.push(response.text);
    return response;
  };

  beforeAll(async () => {
    service = await startTestService({ [ENV.dataEncryptionKey]: randomBytes(32).toString('hex') });
    org = await service.createOrganization('Cards Org');
    const agents = agentsApi(service);
    agent = await agents.createAgent(org, { name: 'Shopper' });
    other = await agents.createAgent(org, { name: 'Other' });
    await agents.fundAgent(org, agent.id, 100);
    logs = captureLogs(seen);
  });
  afterAll(async () => {
    logs?.restore();
    await service.close();
  });

  let cardId: string;
  let firstAuthorization: string;
  let secondAuthorization: string;

  it("creates a cardholder (country checked) and, with the agent's key, a card on the agent's wallet", async () => {
    expectError(
      await call('POST', '/v1/cards/cardholders', {
        key: org.key,
        body: { name: 'Acme', billingAddress: { ...ADDRESS, country: 'XX' } },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('POST', '/v1/cards/cardholders', {
        key: agent.apiKey,
        body: { name: 'Acme', billingAddress: ADDRESS },
      }),
      403,
      'PERMISSION_DENIED',
    );
    const cardholder = ok(
      await call('POST', '/v1/cards/cardholders', {
        key: org.key,
        body: { name: 'Acme Research', email: 'cards@acme.example', billingAddress: { ...ADDRESS, country: 'us' } },
      }),
      201,
    );
    expect(cardholder).toMatchObject({ object: 'cardholder', billingAddress: { country: 'US', line2: null } });
    expect(ok(await call('GET', `/v1/cards/cardholders/${cardholder.id}`, { key: org.key })).id).toBe(cardholder.id);

    expectError(
      await call('POST', '/v1/cards', { key: agent.apiKey, body: { walletId: other.id, type: 'PERSISTENT' } }),
      404,
      'WALLET_NOT_FOUND',
    );
    const limits = [
      { amount: '50.00', interval: 'per_authorization' },
      { amount: '80.00', interval: 'daily', categories: ['5734', '5812'] },
    ];
    const card = ok(
      await call('POST', '/v1/cards', {
        key: agent.apiKey,
        body: { walletId: agent.id, type: 'PERSISTENT', spendingLimits: limits },
      }),
      201,
    );
    expect(card).toMatchObject({
      object: 'card',
      walletId: agent.id,
      type: 'PERSISTENT',
      status: 'ACTIVE',
      brand: 'visa',
      cardholderId: null,
      spendingLimits: limits,
    });
    expect(card.last4).toMatch(/^\d{4}$/);
    expect(Object.keys(card)).not.toContain('number');
    cardId = card.id;
    ok(
      await call('POST', '/v1/cards', {
        key: org.key,
        body: { walletId: agent.id, type: 'PERSISTENT', cardholderId: cardholder.id },
      }),
      201,
    );
    expectError(
      await call('POST', '/v1/cards', {
        key: agent.apiKey,
        body: { walletId: agent.id, type: 'PERSISTENT', cardholderId: cardholder.id },
      }),
      404,
      'CARDHOLDER_NOT_FOUND',
    );
  });

  it('approves within the limits: the amount is held and the balance is down by it', async () => {
    const approved = await authorize(cardId, '30.00');
    expect(approved).toMatchObject({
      object: 'card_authorization',
      status: 'APPROVED',
      reason: null,
      amount: '30.00',
      capturedAmount: '0.00',
      cardId,
      walletId: agent.id,
      merchant: SOFTWARE,
    });
    firstAuthorization = approved.id;
    expect(await wallet(agent.id)).toEqual({ balance: '70.00', held: '30.00' });
  });

  it('declines over the per-authorization limit, over the daily limit across two authorizations, and in a blocked category, moving no money', async () => {
    expect(await authorize(cardId, '60.00')).toMatchObject({ status: 'DECLINED', reason: 'spending_limit_exceeded' });
    const second = await authorize(cardId, '45.00');
    expect(second.status).toBe('APPROVED');
    secondAuthorization = second.id;
    expect(await wallet(agent.id)).toEqual({ balance: '25.00', held: '75.00' });
    // 30 + 45 + 10 > 80 a day.
    expect(await authorize(cardId, '10.00')).toMatchObject({ status: 'DECLINED', reason: 'spending_limit_exceeded' });
    expect(await authorize(cardId, '5.00', CASINO)).toMatchObject({ status: 'DECLINED', reason: 'category_blocked' });
    expect(await wallet(agent.id)).toEqual({ balance: '25.00', held: '75.00' });
  });

  it('reverses an authorization: its hold is released and the daily limit counts it no more', async () => {
    const reversed = ok(
      await call('POST', `/v1/test-helpers/authorizations/${secondAuthorization}/reverse`, { key: org.key }),
    );
    expect(reversed).toMatchObject({ status: 'REVERSED', capturedAmount: '0.00' });
    expectError(
      await call('POST', `/v1/test-helpers/authorizations/${secondAuthorization}/reverse`, { key: org.key }),
      409,
      'INVALID_STATE',
    );
    expect(await wallet(agent.id)).toEqual({ balance: '70.00', held: '30.00' });
    const third = await authorize(cardId, '10.00');
    expect(third.status).toBe('APPROVED');
    ok(await call('POST', `/v1/test-helpers/authorizations/${third.id}/reverse`, { key: org.key }));
  });

  it("declines on a frozen card and on a paused agent's wallet, and over the balance", async () => {
    expect(ok(await call('POST', `/v1/cards/${cardId}/freeze`, { key: agent.apiKey })).status).toBe('INACTIVE');
    expect(await authorize(cardId, '5.00')).toMatchObject({ status: 'DECLINED', reason: 'card_inactive' });
    // The agent can not lift its card's guardrails: unfreezing and new limits need an organization key.
    expectError(await call('POST', `/v1/cards/${cardId}/unfreeze`, { key: agent.apiKey }), 403, 'PERMISSION_DENIED');
    expectError(
      await call('PATCH', `/v1/cards/${cardId}`, { key: agent.apiKey, body: { status: 'ACTIVE' } }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await call('PATCH', `/v1/cards/${cardId}`, {
        key: agent.apiKey,
        body: { spendingLimits: [{ amount: '1000.00', interval: 'per_authorization' }] },
      }),
      403,
      'PERMISSION_DENIED',
    );
    expect(ok(await call('GET', `/v1/cards/${cardId}`, { key: agent.apiKey }))).toMatchObject({
      status: 'INACTIVE',
      spendingLimits: [{ amount: '50.00' }, { amount: '80.00' }],
    });
    expect(ok(await call('PATCH', `/v1/cards/${cardId}`, { key: org.key, body: { status: 'ACTIVE' } })).status).toBe(
      'ACTIVE',
    );

    ok(await call('POST', `/v1/agents/${agent.id}/pause`, { key: org.key }));
    expect(await authorize(cardId, '5.00')).toMatchObject({ status: 'DECLINED', reason: 'wallet_frozen' });
    ok(await call('POST', `/v1/agents/${agent.id}/resume`, { key: org.key }));

    const unlimited = ok(
      await call('POST', '/v1/cards', { key: org.key, body: { walletId: agent.id, type: 'PERSISTENT' } }),
      201,
    );
    expect(await authorize(unlimited.id, '70.01')).toMatchObject({ status: 'DECLINED', reason: 'insufficient_funds' });
    expect(await wallet(agent.id)).toEqual({ balance: '70.00', held: '30.00' });
  });

  it('captures partially (the rest released), then refunds into the wallet, never more than captured', async () => {
    const captured = ok(
      await call('POST', `/v1/test-helpers/authorizations/${firstAuthorization}/capture`, {
        key: org.key,
        body: { amount: '25.00' },
      }),
    );
    expect(captured).toMatchObject({ status: 'CAPTURED', amount: '30.00', capturedAmount: '25.00' });
    expect(await wallet(agent.id)).toEqual({ balance: '75.00', held: '0.00' });
    expectError(
      await call('POST', `/v1/test-helpers/authorizations/${firstAuthorization}/capture`, { key: org.key, body: {} }),
      409,
      'INVALID_STATE',
    );

    const refund = ok(
      await call('POST', `/v1/test-helpers/authorizations/${firstAuthorization}/refund`, {
        key: org.key,
        body: { amount: '10.00', idempotencyKey: 'refund-1' },
      }),
      201,
    );
    expect(refund).toMatchObject({
      object: 'card_refund',
      amount: '10.00',
      authorizationId: firstAuthorization,
      walletId: agent.id,
    });
    const replay = await call('POST', `/v1/test-helpers/authorizations/${firstAuthorization}/refund`, {
      key: org.key,
      body: { amount: '10.00', idempotencyKey: 'refund-1' },
    });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(refund);
    expect(await wallet(agent.id)).toEqual({ balance: '85.00', held: '0.00' });
    expectError(
      await call('POST', `/v1/test-helpers/authorizations/${firstAuthorization}/refund`, {
        key: org.key,
        body: { amount: '15.01' },
      }),
      400,
      'INVALID_AMOUNT',
    );
    const history = ok(await call('GET', `/v1/cards/${cardId}/authorizations?limit=100`, { key: agent.apiKey }));
    expect(history.data.find((a: { id: string }) => a.id === firstAuthorization)).toMatchObject({
      capturedAmount: '25.00',
      refundedAmount: '10.00',
    });
    expect(history.data.filter((a: { status: string }) => a.status === 'DECLINED').length).toBe(5);
  });

  it('refuses a whitespace-only merchant name', async () => {
    for (const name of ['', '   ', ' *** ']) {
      expectError(
        await call('POST', `/v1/test-helpers/cards/${cardId}/authorizations`, {
          key: org.key,
          body: { amount: '1.00', merchant: { ...SOFTWARE, name } },
        }),
        400,
        'VALIDATION_ERROR',
      );
    }
  });

  it('cancels a single-use card with its capture', async () => {
    const single = ok(
      await call('POST', '/v1/cards', { key: agent.apiKey, body: { walletId: agent.id, type: 'SINGLE_USE' } }),
      201,
    );
    const auth = await authorize(single.id, '5.00');
    // One live authorization: a second one before the capture is declined.
    expect(await authorize(single.id, '3.00')).toMatchObject({ status: 'DECLINED', reason: 'card_used' });
    ok(await call('POST', `/v1/test-helpers/authorizations/${auth.id}/capture`, { key: org.key, body: {} }));
    expect(ok(await call('GET', `/v1/cards/${single.id}`, { key: agent.apiKey })).status).toBe('CANCELLED');
    expect(await authorize(single.id, '1.00')).toMatchObject({ status: 'DECLINED', reason: 'card_cancelled' });
    expectError(await call('DELETE', `/v1/cards/${single.id}`, { key: agent.apiKey }), 409, 'INVALID_STATE');
  });

  it('shows the details only with cards:sensitive_read on an organization key, and audits every read', async () => {
    expectError(await readDetails(cardId, agent.apiKey), 403, 'PERMISSION_DENIED');
    const reader = await createApiKey(service, org, { permissions: ['payments:read'] });
    expectError(await readDetails(cardId, reader.key), 403, 'PERMISSION_DENIED');
    const sensitive = await createApiKey(service, org, { permissions: ['cards:sensitive_read'] });
    const first = await readDetails(cardId, sensitive.key);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      id: cardId,
      object: 'card_details',
      expMonth: expect.any(Number),
      expYear: new Date().getUTCFullYear() + 3,
    });
    expect(first.body.number).toMatch(/^400000\d{10}$/);
    expect(first.body.cvc).toMatch(/^\d{3}$/);
    expect((await readDetails(cardId, org.key)).body).toEqual(first.body);
    await service.projected();
    const audit = ok(await call('GET', `/v1/audit-logs?action=card.details.viewed&limit=100`, { key: org.key }));
    expect(audit.data.map((entry: { actorId: string }) => entry.actorId).sort()).toEqual(
      [sensitive.id, org.keyId].sort(),
    );
  });

  it("keeps other wallets' cards from a scoped key", async () => {
    const otherCard = ok(
      await call('POST', '/v1/cards', { key: other.apiKey, body: { walletId: other.id, type: 'PERSISTENT' } }),
      201,
    );
    expectError(await call('GET', `/v1/cards/${otherCard.id}`, { key: agent.apiKey }), 404, 'CARD_NOT_FOUND');
    expectError(await call('POST', `/v1/cards/${otherCard.id}/freeze`, { key: agent.apiKey }), 404, 'CARD_NOT_FOUND');
    const mine = ok(await call('GET', '/v1/cards?limit=100', { key: agent.apiKey }));
    expect(mine.data.every((card: { walletId: string }) => card.walletId === agent.id)).toBe(true);
    expect(ok(await call('GET', '/v1/cards?limit=100', { key: org.key })).data.length).toBe(mine.data.length + 1);
    expectError(await call('GET', `/v1/cards?walletId=${other.id}`, { key: agent.apiKey }), 404, 'WALLET_NOT_FOUND');
  });

  it("answers 409 INVALID_STATE to a refund into a deleted agent's wallet, and writes nothing", async () => {
    const agents = agentsApi(service);
    const gone = await agents.createAgent(org, { name: 'Leaver' });
    await agents.fundAgent(org, gone.id, 20);
    const card = ok(
      await call('POST', '/v1/cards', { key: gone.apiKey, body: { walletId: gone.id, type: 'PERSISTENT' } }),
      201,
    );
    const auth = await authorize(card.id, '15.00');
    expect(auth.status).toBe('APPROVED');
    ok(await call('POST', `/v1/test-helpers/authorizations/${auth.id}/capture`, { key: org.key, body: {} }));
    ok(await call('DELETE', `/v1/agents/${gone.id}`, { key: org.key }));
    const main = await wallet(org.mainWalletId);
    const refused = await call('POST', `/v1/test-helpers/authorizations/${auth.id}/refund`, {
      key: org.key,
      body: { amount: '5.00', idempotencyKey: 'refund-gone' },
    });
    expectError(refused, 409, 'INVALID_STATE');
    expect(refused.body.error.message).toMatch(/closed/);
    expect(ok(await call('GET', `/v1/cards/${card.id}/authorizations`, { key: org.key })).data[0]).toMatchObject({
      id: auth.id,
      status: 'CAPTURED',
      refundedAmount: '0.00',
    });
    expect(await wallet(org.mainWalletId)).toEqual(main);
    // The refusal is kept under its key: the retry answers the same.
    expectError(
      await call('POST', `/v1/test-helpers/authorizations/${auth.id}/refund`, {
        key: org.key,
        body: { amount: '5.00', idempotencyKey: 'refund-gone' },
      }),
      409,
      'INVALID_STATE',
    );
  });

  it('never shows the full number or the CVC in metadata, lists, events, audit entries or logs', async () => {
    for (const card of ok(await call('GET', '/v1/cards?limit=100', { key: org.key })).data as { id: string }[])
      expect((await readDetails(card.id, org.key)).status).toBe(200);
    await service.projected();
    const events: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await call(
        'GET',
        `/v1/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: org.key },
      );
      events.push(...ok(page).data);
      cursor = page.body.cursor;
    } while (cursor);
    const types = new Set(events.map((event) => (event as { type: string }).type));
    for (const type of [
      'card.created',
      'card.updated',
      'card.cancelled',
      'card.authorization.approved',
      'card.authorization.declined',
      'card.authorization.captured',
      'card.authorization.reversed',
      'card.refund.created',
    ])
      expect(types).toContain(type);
    let auditCursor: string | undefined;
    do {
      const page: ApiResponse = await call(
        'GET',
        `/v1/audit-logs?limit=100${auditCursor ? `&cursor=${encodeURIComponent(auditCursor)}` : ''}`,
        { key: org.key },
      );
      auditCursor = ok(page).nextCursor;
    } while (auditCursor);
    expect(details.length).toBeGreaterThan(4);
    const everything = seen.join('\n');
    for (const { number, cvc } of details) {
      expect(everything).not.toContain(number);
      expect(everything).not.toContain(`"${cvc}"`);
      expect(everything).not.toContain(number.slice(0, 12));
    }
  });
});
