import { describe, expect, it } from 'vitest';
import { checkHttpResponse, checkToolResult } from '../fixtures/response-schemas.js';

/** The response check every e2e call goes through (test/fixtures/response-schemas.ts) refuses what it must. */
const attempt = {
  object: 'webhook_delivery_attempt',
  deliveryId: 'dlv_4Zq8Tr2Wb9Xk1PLm4Zq8Tr2W',
  webhookId: 'whk_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
  eventId: 'evt_8Lm2Zq4Tr9Wb1XkPq3Ns5Vd7',
  eventType: 'payment.posted',
  attempt: 1,
  statusCode: 200,
  durationMs: 12,
  error: null,
  attemptedAt: '2026-11-22T10:00:00.000Z',
  nextAttemptAt: null,
  outcome: 'SUCCEEDED',
};
const page = (item: unknown) => ({ data: [item], cursor: null, hasMore: false });
const check = (method: string, path: string, status: number, body: unknown) => () =>
  checkHttpResponse(method, path, status, body, JSON.stringify(body));
const queued = {
  error: {
    code: 'APPROVAL_REQUIRED',
    message: 'Queued.',
    details: {
      approvalId: 'apr_YqAvOKYvEUVB778CyUo173w2',
      transactionId: 'txn_2wHYq8yGFiJin01BVhz8nQja',
      expiresAt: '2026-03-17T11:15:00.000Z',
    },
  },
};

describe('the response-schema check of the e2e fixtures', () => {
  it('accepts a delivery log page as declared, and names operation, status and schema path for a field the view does not declare', () => {
    expect(check('GET', '/v1/webhooks/whk_a/deliveries', 200, page(attempt))).not.toThrow();
    expect(check('GET', '/v1/webhooks/whk_a/deliveries', 200, page({ ...attempt, secret: 'x' }))).toThrow(
      /listWebhookDeliveries \(GET \/v1\/webhooks\/\{id\}\/deliveries\) 200 does not match .*\/data\/0 must NOT have additional properties \[schema .*additionalProperties\]/,
    );
  });

  it('refuses a status the operation does not declare, and an error code its responses do not list', () => {
    expect(check('GET', '/v1/wallets/wal_a', 418, { error: { code: 'INTERNAL_ERROR', message: 'x' } })).toThrow(
      /getWallet .* answered 418, a status its OpenAPI responses do not declare/,
    );
    expect(
      check('GET', '/v1/wallets/wal_a', 404, { error: { code: 'CARD_NOT_FOUND', message: 'x', requestId: 'r' } }),
    ).toThrow(/getWallet answered 404 CARD_NOT_FOUND, a code its OpenAPI responses do not list/);
    expect(
      check('GET', '/v1/wallets/wal_a', 404, {
        error: { code: 'WALLET_NOT_FOUND', message: 'x', requestId: 'r', extra: 1 },
      }),
    ).toThrow(/must NOT have additional properties/);
  });

  it('checks the 202 approval answer against its own schema, and unknown routes against the error envelope', () => {
    expect(check('POST', '/v1/payments', 202, queued)).not.toThrow();
    expect(check('POST', '/v1/payments', 202, { error: { ...queued.error, details: {} } })).toThrow(
      /createPayment .* 202 does not match/,
    );
    expect(
      check('GET', '/v1/nowhere', 404, { error: { code: 'NOT_FOUND', message: 'No route.', requestId: 'r' } }),
    ).not.toThrow();
    expect(check('GET', '/v1/nowhere', 404, 'Not Found')).toThrow(/no route/);
  });

  it("checks a tool result against the tool's output schema", () => {
    const result = (content: unknown) => ({
      content: [{ type: 'text' as const, text: 'ok' }],
      structuredContent: content as Record<string, unknown>,
    });
    expect(() => checkToolResult('allowance_list_webhook_deliveries', result(page(attempt)))).not.toThrow();
    expect(() =>
      checkToolResult('allowance_list_webhook_deliveries', result(page({ ...attempt, extra: true }))),
    ).toThrow(/tool allowance_list_webhook_deliveries structuredContent does not match its output schema/);
  });
});
