import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import {
  countWallets,
  createApiKey,
  createWallet,
  expectError,
  expectValidationError,
} from '../fixtures/organizations.js';

describe('wallets', () => {
  const { service, org, otherOrg } = setupE2e({ organizations: { org: 'Wallet Org', otherOrg: 'Other Org' } });

  const fund = (walletId: string, body: unknown, key = org.key) =>
    service.call('POST', `/v1/wallets/${walletId}/fund`, { key, body });
  const balanceOf = async (walletId: string, key = org.key) =>
    (await service.call('GET', `/v1/wallets/${walletId}/balance`, { key })).body.balance as string;

  describe('creation', () => {
    it('creates a sandbox wallet with a zero balance', async () => {
      // Act
      const response = await service.call('POST', '/v1/wallets', {
        key: org.key,
        body: { name: 'Research', agentName: 'researcher-1' },
      });

      // Assess
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        id: expect.stringMatching(/^wal_[A-Za-z0-9]{24,}$/),
        name: 'Research',
        agentName: 'researcher-1',
        environment: 'SANDBOX',
        balance: '0.00000000',
        currency: 'USD',
        status: 'ACTIVE',
        walletType: 'ORG',
      });
      const fetched = await service.call('GET', `/v1/wallets/${response.body.id}`, { key: org.key });
      expect(fetched.status).toBe(200);
      expect(fetched.body).toMatchObject({ id: response.body.id, name: 'Research', balance: '0.00000000' });
    });

    it.each([
      ['balance', { name: 'Rich', balance: '1000000.00' }],
      ['walletType', { name: 'Agent', walletType: 'AGENT' }],
      ['status', { name: 'Frozen', status: 'FROZEN' }],
      ['environment', { name: 'Live', environment: 'PRODUCTION' }],
      ['isMain', { name: 'Main', isMain: true }],
      ['color', { name: 'Blue', color: 'blue' }],
    ])('answers 400 VALIDATION_ERROR naming a client-set %s and creates nothing', async (field, body) => {
      // Prepare
      const before = await countWallets(service, org.key);

      // Act
      const response = await service.call('POST', '/v1/wallets', { key: org.key, body });

      // Assess
      expectValidationError(response, field);
      expect(await countWallets(service, org.key)).toBe(before);
    });

    it('answers 400 VALIDATION_ERROR for a missing or empty name', async () => {
      expectValidationError(await service.call('POST', '/v1/wallets', { key: org.key, body: {} }), 'name');
      expectValidationError(await service.call('POST', '/v1/wallets', { key: org.key, body: { name: '' } }), 'name');
      expectValidationError(
        await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'x'.repeat(201) } }),
        'name',
      );
    });

    it('answers 400 VALIDATION_ERROR on field body for a body that is not JSON', async () => {
      const response = await service.call('POST', '/v1/wallets', {
        key: org.key,
        rawBody: '{"name": "x"',
        headers: { 'content-type': 'application/json' },
      });
      expectValidationError(response, 'body');
    });
  });

  describe('funding', () => {
    it('funds the maximum of 10000.00 in one call', async () => {
      // Prepare
      const wallet = await createWallet(service, org.key);

      // Act
      const response = await fund(wallet.id, { amount: '10000.00' });

      // Assess
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({
        amount: '10000.00',
        newBalance: '10000.00000000',
        currency: 'USD',
        transactionId: expect.stringMatching(/^txn_/),
      });
      expect(await balanceOf(wallet.id)).toBe('10000.00000000');
    });

    it('answers 400 INVALID_AMOUNT above 10000.00 and leaves the balance unchanged', async () => {
      const wallet = await createWallet(service, org.key);
      expectError(await fund(wallet.id, { amount: '10000.01' }), 400, 'INVALID_AMOUNT');
      expect(await balanceOf(wallet.id)).toBe('0.00000000');
    });

    it.each([
      ['zero', 0],
      ['zero as text', '0.00'],
      ['a negative number', -5],
      ['three decimals', '1.005'],
      ['three decimals as a number', 1.005],
      ['a leading space', ' 10'],
      ['an exponent', '1e3'],
      ['letters', 'ten'],
      ['an empty string', ''],
      ['1e21', 1e21],
    ])('answers 400 INVALID_AMOUNT for %s', async (_label, amount) => {
      const wallet = await createWallet(service, org.key);
      const error = expectError(await fund(wallet.id, { amount }), 400, 'INVALID_AMOUNT');
      expect(error.details?.field).toBe('amount');
      expect(await balanceOf(wallet.id)).toBe('0.00000000');
    });

    it('reads the JSON number 0.1 as the amount "0.10"', async () => {
      // Prepare
      const wallet = await createWallet(service, org.key);

      // Act
      const response = await service.call('POST', `/v1/wallets/${wallet.id}/fund`, {
        key: org.key,
        rawBody: '{"amount": 0.1}',
        headers: { 'content-type': 'application/json' },
      });
      await fund(wallet.id, { amount: 0.2 });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.amount).toBe('0.10');
      expect(await balanceOf(wallet.id)).toBe('0.30000000');
    });

    it('answers 400 VALIDATION_ERROR on field body for a body that is not JSON', async () => {
      const response = await service.call('POST', `/v1/wallets/${org.mainWalletId}/fund`, {
        key: org.key,
        rawBody: 'amount=10',
        headers: { 'content-type': 'application/json' },
      });
      expectValidationError(response, 'body');
    });

    it('answers 400 VALIDATION_ERROR for a missing amount or an unknown field', async () => {
      expectValidationError(await fund(org.mainWalletId, {}), 'amount');
      expectValidationError(await fund(org.mainWalletId, { amount: '1.00', currency: 'EUR' }), 'currency');
    });

    it('answers 403 PERMISSION_DENIED to a key without wallets:write', async () => {
      const reader = await createApiKey(service, org, { permissions: ['wallets:read'] });
      expectError(await fund(org.mainWalletId, { amount: '1.00' }, reader.key), 403, 'PERMISSION_DENIED');
    });

    it('adds consecutive fundings exactly', async () => {
      const wallet = await createWallet(service, org.key);
      for (const amount of ['0.10', '0.20', 0.3, '99.99']) expect((await fund(wallet.id, { amount })).status).toBe(200);
      expect(await balanceOf(wallet.id)).toBe('100.59000000');
    });
  });

  describe('tenancy', () => {
    it("answers 404 WALLET_NOT_FOUND for another organization's wallet", async () => {
      // Prepare
      const foreign = otherOrg.mainWalletId;

      // Act
      const wallet = await service.call('GET', `/v1/wallets/${foreign}`, { key: org.key });
      const balance = await service.call('GET', `/v1/wallets/${foreign}/balance`, { key: org.key });
      const funding = await fund(foreign, { amount: '5.00' });

      // Assess
      expectError(wallet, 404, 'WALLET_NOT_FOUND');
      expectError(balance, 404, 'WALLET_NOT_FOUND');
      expectError(funding, 404, 'WALLET_NOT_FOUND');
      expect(await balanceOf(foreign, otherOrg.key)).toBe('0.00000000');
    });

    it('answers 404 WALLET_NOT_FOUND for a wallet id that does not exist', async () => {
      const missing = 'wal_doesnotexist000000000000';
      expectError(await service.call('GET', `/v1/wallets/${missing}`, { key: org.key }), 404, 'WALLET_NOT_FOUND');
      expectError(
        await service.call('GET', `/v1/wallets/${missing}/balance`, { key: org.key }),
        404,
        'WALLET_NOT_FOUND',
      );
      expectError(await fund(missing, { amount: '5.00' }), 404, 'WALLET_NOT_FOUND');
    });

    it("never lists another organization's wallets", async () => {
      const list = await service.call('GET', '/v1/wallets?limit=100', { key: org.key });
      const ids = list.body.data.map((w: { id: string }) => w.id);
      expect(ids).toContain(org.mainWalletId);
      expect(ids).not.toContain(otherOrg.mainWalletId);
    });
  });
});
