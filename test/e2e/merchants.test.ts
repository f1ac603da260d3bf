import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectStatus,
  ledgerClient,
  type LedgerClient,
  type Organization,
} from '../fixtures/payments-client.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('merchants: PUT /v1/merchant-profile and payments to "merchant:<domain>"', () => {
  let service: TestService;
  let ledger: LedgerClient;
  let merchantOrg: Organization;
  let buyerOrg: Organization;
  let buyer: string;
  beforeAll(async () => {
    service = await startTestService();
    ledger = ledgerClient(service);
    merchantOrg = await service.createOrganization('Merchant Org');
    buyerOrg = await service.createOrganization('Buyer Org');
    buyer = await ledger.fundedWallet(buyerOrg, '1000.00', 'Buyer');
  });
  afterAll(() => service.close());

  const putProfile = (body: Record<string, unknown>, key = merchantOrg.key) =>
    service.call('PUT', '/v1/merchant-profile', { key, body });

  async function merchant(domain: string, closedLoop = true) {
    const walletId = await ledger.fundedWallet(merchantOrg, undefined, `Till ${domain}`);
    const response = await putProfile({ domain, displayName: `Shop ${domain}`, walletId, closedLoop });
    expectStatus(response, 200);
    return { walletId, profile: response.body };
  }

  it('creates a merchant profile for a wallet of the organization', async () => {
    // Act
    const { walletId, profile } = await merchant('books.example.com');

    // Assess
    expect(profile).toMatchObject({
      domain: 'books.example.com',
      displayName: 'Shop books.example.com',
      walletId,
      closedLoop: true,
      status: 'ACTIVE',
    });
    expect(profile).not.toHaveProperty('organizationId');
  });

  it('pays a merchant by domain into its wallet, case-insensitively, recording the merchant', async () => {
    // Prepare
    const { walletId } = await merchant('tea.example.com');

    // Act
    const response = await ledger.pay(buyerOrg.key, { from: buyer, to: 'merchant:Tea.Example.com', amount: '12.00' });

    // Assess
    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      from: buyer,
      to: walletId,
      amount: '12.00',
      fee: '0.00',
      status: 'POSTED',
      merchant: 'tea.example.com',
    });
    expect(await ledger.balanceOf(merchantOrg.key, walletId)).toBe('12.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('updates a profile: a new wallet receives the next payments', async () => {
    // Prepare
    const { walletId: oldWallet } = await merchant('maps.example.com');
    const newWallet = await ledger.fundedWallet(merchantOrg, undefined, 'New till');

    // Act
    const updated = await putProfile({
      domain: 'maps.example.com',
      displayName: 'Maps',
      walletId: newWallet,
      closedLoop: true,
    });
    const payment = await ledger.pay(buyerOrg.key, { from: buyer, to: 'merchant:maps.example.com', amount: '3.00' });

    // Assess
    expectStatus(updated, 200);
    expect(payment.body.to).toBe(newWallet);
    expect(await ledger.balanceOf(merchantOrg.key, oldWallet)).toBe('0.00000000');
  });

  it('answers 404 MERCHANT_NOT_FOUND for an unknown domain, moving nothing', async () => {
    // Prepare
    const before = await ledger.balanceOf(buyerOrg.key, buyer);

    // Act
    const response = await ledger.pay(buyerOrg.key, { from: buyer, to: 'merchant:nobody.example.com', amount: '1.00' });

    // Assess
    expectApiError(response, 404, 'MERCHANT_NOT_FOUND');
    expect(await ledger.balanceOf(buyerOrg.key, buyer)).toBe(before);
  });

  it('answers 403 MERCHANT_SUSPENDED after the operator suspends the merchant', async () => {
    // Prepare
    const { walletId } = await merchant('shady.example.com');
    expectStatus(
      await ledger.pay(buyerOrg.key, { from: buyer, to: 'merchant:shady.example.com', amount: '1.00' }),
      200,
    );

    // Act
    const suspended = await service.call('POST', '/v1/internal/merchants/shady.example.com/suspend', {
      key: service.adminKey,
    });
    const response = await ledger.pay(buyerOrg.key, { from: buyer, to: 'merchant:shady.example.com', amount: '1.00' });

    // Assess
    expectStatus(suspended, 200);
    expect(suspended.body).toMatchObject({ domain: 'shady.example.com', status: 'SUSPENDED' });
    expectApiError(response, 403, 'MERCHANT_SUSPENDED');
    expect(await ledger.balanceOf(merchantOrg.key, walletId)).toBe('1.00000000');
  });

  it('keeps a merchant suspended when its owner updates the profile', async () => {
    // Prepare
    const { walletId } = await merchant('sneaky.example.com');
    await service.call('POST', '/v1/internal/merchants/sneaky.example.com/suspend', { key: service.adminKey });

    // Act
    const updated = await putProfile({
      domain: 'sneaky.example.com',
      displayName: 'Sneaky',
      walletId,
      closedLoop: true,
    });
    const response = await ledger.pay(buyerOrg.key, { from: buyer, to: 'merchant:sneaky.example.com', amount: '1.00' });

    // Assess
    expect(updated.body.status).toBe('SUSPENDED');
    expectApiError(response, 403, 'MERCHANT_SUSPENDED');
  });

  it('answers 400 CLOSED_LOOP_UNAVAILABLE for a merchant without closed-loop payments', async () => {
    // Prepare
    const { walletId } = await merchant('open.example.com', false);

    // Act
    const response = await ledger.pay(buyerOrg.key, { from: buyer, to: 'merchant:open.example.com', amount: '1.00' });

    // Assess
    expectApiError(response, 400, 'CLOSED_LOOP_UNAVAILABLE');
    expect(await ledger.balanceOf(merchantOrg.key, walletId)).toBe('0.00000000');
  });

  it('answers 400 SELF_PAYMENT when a merchant pays its own domain from its receiving wallet', async () => {
    // Prepare
    const { walletId } = await merchant('self.example.com');
    await ledger.fund(merchantOrg.key, walletId, '5.00');

    // Act
    const response = await ledger.pay(merchantOrg.key, {
      from: walletId,
      to: 'merchant:self.example.com',
      amount: '1.00',
    });

    // Assess
    expectApiError(response, 400, 'SELF_PAYMENT');
  });

  describe('profile errors', () => {
    it('answers 400 VALIDATION_ERROR for a malformed domain, a missing field or an unknown field', async () => {
      const walletId = await ledger.fundedWallet(merchantOrg, undefined, 'Till');
      expectApiError(
        await putProfile({ domain: 'not a domain', displayName: 'X', walletId, closedLoop: true }),
        400,
        'VALIDATION_ERROR',
      );
      expectApiError(
        await putProfile({ domain: 'ok.example.com', displayName: 'X', walletId }),
        400,
        'VALIDATION_ERROR',
      );
      expectApiError(
        await putProfile({ domain: 'ok.example.com', displayName: 'X', walletId, closedLoop: true, status: 'ACTIVE' }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it("answers 404 WALLET_NOT_FOUND for another organization's wallet", async () => {
      const response = await putProfile({
        domain: 'steal.example.com',
        displayName: 'X',
        walletId: buyer,
        closedLoop: true,
      });
      expectApiError(response, 404, 'WALLET_NOT_FOUND');
    });

    it('answers 409 INVALID_STATE for a domain another organization already holds', async () => {
      // Prepare
      await merchant('taken.example.com');
      const ownWallet = await ledger.fundedWallet(buyerOrg, undefined, 'Squatter');

      // Act
      const response = await putProfile(
        { domain: 'taken.example.com', displayName: 'Squat', walletId: ownWallet, closedLoop: true },
        buyerOrg.key,
      );

      // Assess
      expectApiError(response, 409, 'INVALID_STATE');
    });

    it('answers 403 PERMISSION_DENIED for a key without wallets:write, and for an agent key', async () => {
      const walletId = await ledger.fundedWallet(merchantOrg, undefined, 'Till');
      const reader = await ledger.createKey(merchantOrg, ['wallets:read', 'payments:write']);
      const agent = await ledger.createAgent(merchantOrg, 'Shop agent');
      const body = { domain: 'perm.example.com', displayName: 'X', walletId, closedLoop: true };
      expectApiError(await putProfile(body, reader.key), 403, 'PERMISSION_DENIED');
      expectApiError(await putProfile({ ...body, walletId: agent.walletId }, agent.key), 403, 'PERMISSION_DENIED');
    });

    it('answers 404 MERCHANT_NOT_FOUND when the operator suspends an unknown domain, and 403 to an organization key', async () => {
      expectApiError(
        await service.call('POST', '/v1/internal/merchants/ghost.example.com/suspend', { key: service.adminKey }),
        404,
        'MERCHANT_NOT_FOUND',
      );
      expectApiError(
        await service.call('POST', '/v1/internal/merchants/books.example.com/suspend', { key: merchantOrg.key }),
        403,
        'PERMISSION_DENIED',
      );
    });
  });
});
