import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectStatus,
  ledgerClient,
  type LedgerClient,
  type Organization,
} from '../fixtures/payments-client.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

/** Defect 1 (issue 9): merchant domains are lower-cased wherever they enter (decisions.md section 3). */
describe('merchant domains are case-insensitive', () => {
  let service: TestService;
  let ledger: LedgerClient;
  let buyer: Organization;
  let merchant: Organization;

  beforeAll(async () => {
    service = await startTestService();
    ledger = ledgerClient(service);
    buyer = await service.createOrganization('Buyer');
    merchant = await service.createOrganization('Merchant');
    const shop = await ledger.fundedWallet(merchant, undefined, 'Shop');
    const profile = await service.call('PUT', '/v1/merchant-profile', {
      key: merchant.key,
      body: { domain: 'Evil.Example.com', displayName: 'Evil', walletId: shop, closedLoop: true },
    });
    expectStatus(profile, 200);
    expect(profile.body.domain).toBe('evil.example.com');
  });
  afterAll(() => service.close());

  it('denies a payment to merchant:EVIL.example.com under a policy that blocks merchant:evil.example.com', async () => {
    const payer = await ledger.fundedWallet(buyer, '100.00');
    await ledger.createPolicy(buyer.key, { walletId: payer, blockedRecipients: ['merchant:evil.example.com'] });

    for (const to of ['merchant:EVIL.example.com', 'merchant:evil.EXAMPLE.COM', 'MERCHANT:evil.example.com']) {
      const response = await ledger.pay(buyer.key, { from: payer, to, amount: '5.00' });
      expect(expectApiError(response, 403, 'POLICY_DENIED').details).toMatchObject({ rule: 'blockedRecipients' });
    }
    expect(await ledger.balanceOf(buyer.key, payer)).toBe('100.00000000');
  });

  it('stores policy recipient lists lower-cased, and a list written in capitals blocks the lower-case payee', async () => {
    const payer = await ledger.fundedWallet(buyer, '100.00');
    const policy = await ledger.createPolicy(buyer.key, {
      walletId: payer,
      blockedRecipients: ['merchant:EVIL.Example.COM'],
    });

    expect(policy.blockedRecipients).toEqual(['merchant:evil.example.com']);
    expect((await service.call('GET', `/v1/policies/${policy.id}`, { key: buyer.key })).body.blockedRecipients).toEqual(
      ['merchant:evil.example.com'],
    );
    const denied = await ledger.pay(buyer.key, { from: payer, to: 'merchant:evil.example.com', amount: '5.00' });
    expect(expectApiError(denied, 403, 'POLICY_DENIED').details).toMatchObject({ rule: 'blockedRecipients' });

    const patched = await service.call('PATCH', `/v1/policies/${policy.id}`, {
      key: buyer.key,
      body: { blockedRecipients: null, allowedRecipients: ['merchant:Other.Example.com'] },
    });
    expectStatus(patched, 200);
    expect(patched.body.allowedRecipients).toEqual(['merchant:other.example.com']);
  });

  it('lets an allow-listed merchant be paid in any case, recorded under its lower-case domain', async () => {
    const payer = await ledger.fundedWallet(buyer, '100.00');
    await ledger.createPolicy(buyer.key, { walletId: payer, allowedRecipients: ['merchant:evil.example.com'] });

    const payment = await ledger.paid(buyer.key, { from: payer, to: 'merchant:EVIL.EXAMPLE.COM', amount: '5.00' });

    expect(payment.merchant).toBe('evil.example.com');
  });

  it('treats merchant:EVIL.example.com and merchant:evil.example.com as one payee for idempotency', async () => {
    const payer = await ledger.fundedWallet(buyer, '100.00');
    const first = await ledger.pay(buyer.key, {
      from: payer,
      to: 'merchant:EVIL.example.com',
      amount: '7.00',
      idempotencyKey: 'case-1',
    });
    const again = await ledger.pay(buyer.key, {
      from: payer,
      to: 'merchant:evil.example.com',
      amount: '7.00',
      idempotencyKey: 'case-1',
    });

    expectStatus(first, 200);
    expectStatus(again, 200);
    expect(again.body.id).toBe(first.body.id);
    expect(await ledger.balanceOf(buyer.key, payer)).toBe('93.00000000');
  });
});
