import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_NETWORK_ENV,
  CARD_NETWORK_FUNCTION,
  CARD_NETWORK_SIGNATURE_HEADER,
} from '../../shared/card-network/function.js';
import { signCardNetworkRequest } from '../../shared/card-network/signature.js';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

/**
 * The live card network endpoint (CARD_NETWORK_ENVIRONMENT=PRODUCTION, as CDK deploys it) never
 * authorizes a sandbox card: a signed request for one is declined `environment_mismatch`, with no
 * authorization record, no event and no money held (docs/api.md "Cards: the card network endpoint").
 */
describe('card network endpoint: a card of the other environment is declined', () => {
  const SECRET = randomBytes(32).toString('hex');
  let service: TestService;
  let key: string;
  let walletId: string;
  let cardId: string;

  beforeAll(async () => {
    service = await startTestService({
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
      [CARD_NETWORK_ENV.secret]: SECRET,
      [CARD_NETWORK_ENV.environment]: 'PRODUCTION',
    });
    const org = await service.createOrganization('Live Network Org');
    key = org.key;
    walletId = org.mainWalletId;
    expect(
      (await service.call('POST', `/v1/wallets/${walletId}/fund`, { key, body: { amount: '100.00' } })).status,
    ).toBe(200);
    const card = await service.call('POST', '/v1/cards', { key, body: { walletId, type: 'PERSISTENT' } });
    expect(card.status, card.text).toBe(201);
    expect(card.body.environment ?? 'SANDBOX').toBe('SANDBOX');
    cardId = card.body.id as string;
  });
  afterAll(async () => {
    await service.close();
    delete process.env[CARD_NETWORK_ENV.environment];
  });

  it('declines a sandbox card at the live endpoint with environment_mismatch, writing and holding nothing', async () => {
    const body = JSON.stringify({
      networkId: 'iauth_live_1',
      cardId,
      amount: '10.00',
      currency: 'USD',
      merchant: { name: 'OpenAI', category: '5734', country: 'US' },
    });
    const response = await fetch(service.baseUrl + CARD_NETWORK_FUNCTION.path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [CARD_NETWORK_SIGNATURE_HEADER]: signCardNetworkRequest(SECRET, body, Math.floor(Date.now() / 1000)),
      },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ approved: false, reason: 'environment_mismatch' });
    const authorizations = await service.call('GET', `/v1/cards/${cardId}/authorizations`, { key });
    expect(authorizations.body.data).toEqual([]);
    const wallet = await service.call('GET', `/v1/wallets/${walletId}`, { key });
    expect({
      balance: Number(wallet.body.balance).toFixed(2),
      held: Number(wallet.body.heldBalance).toFixed(2),
    }).toEqual({ balance: '100.00', held: '0.00' });
  });
});
