import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { cardNetworkEnvironment } from '../../shared/card-network/environment.js';
import {
  CARD_NETWORK_ENV,
  CARD_NETWORK_FUNCTION,
  CARD_NETWORK_SIGNATURE_HEADER,
} from '../../shared/card-network/function.js';
import { handleCardNetworkRequest, type CardNetworkRuntime } from '../../shared/card-network/http.js';
import { signCardNetworkRequest } from '../../shared/card-network/signature.js';
import type { Environment } from '../../shared/domain/tenancy.js';
import { createCardStore } from '../../shared/persistence/card-store.js';
import { startTestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * The card network edge (handleCardNetworkRequest, as functions/card-network runs it) over
 * DynamoDB Local: an endpoint authorizes the cards of its own environment only. A production card
 * at the sandbox endpoint (and a sandbox card at the live one) is declined `environment_mismatch`,
 * with no record written (docs/api.md "Cards: the card network endpoint").
 */
const SECRET = randomBytes(32).toString('hex');
const MERCHANT = { name: 'OpenAI', category: '5734', country: 'US' };
let sequence = 0;

function signedEvent(cardId: string): APIGatewayProxyEventV2 {
  const body = JSON.stringify({
    networkId: `iauth_env_${++sequence}`,
    cardId,
    amount: '5.00',
    currency: 'USD',
    merchant: MERCHANT,
  });
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: CARD_NETWORK_FUNCTION.path,
    rawQueryString: '',
    headers: { [CARD_NETWORK_SIGNATURE_HEADER]: signCardNetworkRequest(SECRET, body, Math.floor(Date.now() / 1000)) },
    requestContext: {
      requestId: `req-${sequence}`,
      http: {
        method: 'POST',
        path: CARD_NETWORK_FUNCTION.path,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.9',
        userAgent: 'processor',
      },
    } as APIGatewayProxyEventV2['requestContext'],
    body,
    isBase64Encoded: false,
  };
}

describe("card network edge: the endpoint's environment", () => {
  it('the sandbox endpoint declines a production card (environment_mismatch, nothing written) and authorizes its sandbox twin; the live endpoint declines the sandbox card', async () => {
    const t = await startTestApp({ DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    const org = await t.createOrganization('Card Environments Org');
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const sandboxCard = await t.app.services.cards.create(org.ctx, AUDIT.card.create, {
      walletId: org.mainWalletId,
      type: 'PERSISTENT',
    });
    // A production card: live cards come from an issuing processor (none locally), so its record is written as the issuer would leave it.
    const store = createCardStore(t.table);
    const liveCard = {
      ...(await store.getCard(sandboxCard.id))!,
      id: `card_live${sandboxCard.id.slice('card_'.length)}`,
      environment: 'PRODUCTION' as const,
    };
    await store.commit([{ type: 'putCard', card: liveCard }]);
    const warnings: string[] = [];
    const runtime = (environment: Environment): CardNetworkRuntime => ({
      engine: t.app.services.cards,
      environment,
      secret: async () => SECRET,
      clock: t.app.clock,
      log: { error: () => {}, warn: (message: string) => void warnings.push(message) },
    });
    const answer = async (cardId: string, environment: Environment) =>
      JSON.parse((await handleCardNetworkRequest(signedEvent(cardId), runtime(environment))).body) as Record<
        string,
        unknown
      >;

    expect(await answer(liveCard.id, 'SANDBOX')).toEqual({ approved: false, reason: 'environment_mismatch' });
    expect(await answer(sandboxCard.id, 'PRODUCTION')).toEqual({ approved: false, reason: 'environment_mismatch' });
    expect(warnings).toHaveLength(2);
    expect(warnings.join()).not.toContain(liveCard.id);
    expect((await t.app.services.cards.listAuthorizations(org.ctx, sandboxCard.id, { limit: 10 })).items).toEqual([]);

    expect(await answer(sandboxCard.id, 'SANDBOX')).toEqual({
      approved: true,
      authorizationId: expect.stringMatching(/^auth_/),
    });
  });

  it('serves the sandbox in the local run and the live network anywhere else unless set; refuses any other value', () => {
    expect(cardNetworkEnvironment({}, true)).toBe('SANDBOX');
    expect(cardNetworkEnvironment({}, false)).toBe('PRODUCTION');
    expect(cardNetworkEnvironment({ [CARD_NETWORK_ENV.environment]: 'PRODUCTION' }, true)).toBe('PRODUCTION');
    expect(cardNetworkEnvironment({ [CARD_NETWORK_ENV.environment]: 'SANDBOX' }, false)).toBe('SANDBOX');
    expect(() => cardNetworkEnvironment({ [CARD_NETWORK_ENV.environment]: 'live' }, false)).toThrow(
      /CARD_NETWORK_ENVIRONMENT/,
    );
  });
});
