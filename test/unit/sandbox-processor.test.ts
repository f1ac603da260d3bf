import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { hostedUrl } from '../../shared/config/hosted-urls.js';
import { loadConfig } from '../../shared/config/config.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { HOSTED_PATHS } from '../../shared/domain/hosted-urls.js';
import type { PaymentMethodInput } from '../../shared/domain/payment-methods/processor.js';
import {
  cardBrandOf,
  createSandboxProcessor,
  SANDBOX_BANK_ACCOUNT,
  SANDBOX_CARDS,
} from '../../shared/domain/payment-methods/sandbox-processor.js';

let counter = 0;
const processor = createSandboxProcessor({
  clock: fixedClock(new Date('2026-11-27T12:00:00Z')),
  randomHex: () => `abc${(counter += 1)}`,
});
const card = (number: string, more: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) =>
  ({ type: 'card', number, expMonth: 12, expYear: 2030, cvc: '123', ...more }) as PaymentMethodInput;
const bank = (
  accountNumber: string = SANDBOX_BANK_ACCOUNT.accountNumber,
  routingNumber: string = SANDBOX_BANK_ACCOUNT.routingNumber,
) =>
  ({
    type: 'us_bank_account',
    routingNumber,
    accountNumber,
    accountHolderName: 'Ada',
    accountType: 'checking',
  }) as const;
const charge = (processorToken: string, reference = 'inv_1:1') =>
  processor.charge({ processorToken, amount: new Big('10.00'), currency: 'USD', reference });

async function fieldOf(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe('VALIDATION_ERROR');
  return (error as ApiError).details?.field;
}

describe('sandbox processor: tokenize', () => {
  it('vaults a card as brand and last4, never the number', async () => {
    const method = await processor.tokenize(card(SANDBOX_CARDS.succeeds));
    expect(method).toMatchObject({ type: 'card', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
    expect(JSON.stringify(method)).not.toContain(SANDBOX_CARDS.succeeds);
    expect((await processor.tokenize(card(SANDBOX_CARDS.succeeds))).processorToken).not.toBe(method.processorToken);
  });

  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['3566002020360505', 'unknown'],
  ])('brand of %s is %s', (number, brand) => expect(cardBrandOf(number)).toBe(brand));

  it.each([
    [card('4242424242424241'), 'number'],
    [card('42424242'), 'number'],
    [card('4242 4242 4242 4242'), 'number'],
    [card(SANDBOX_CARDS.succeeds, { expMonth: 13 }), 'expMonth'],
    [card(SANDBOX_CARDS.succeeds, { expMonth: 10, expYear: 2026 }), 'expYear'],
    [card(SANDBOX_CARDS.succeeds, { expYear: 2099 }), 'expYear'],
    [card(SANDBOX_CARDS.succeeds, { cvc: '12' }), 'cvc'],
    [card('378282246310005', { cvc: '123' }), 'cvc'],
    [bank(SANDBOX_BANK_ACCOUNT.accountNumber, '110000001'), 'routingNumber'],
    [bank('12a4'), 'accountNumber'],
  ] as const)('refuses %j naming %s', async (input, field) => {
    expect(await fieldOf(processor.tokenize(input))).toBe(field);
  });

  it('accepts a card valid through this month', async () => {
    await expect(
      processor.tokenize(card(SANDBOX_CARDS.succeeds, { expMonth: 11, expYear: 2026 })),
    ).resolves.toBeTruthy();
  });

  it('vaults a bank account by its last4', async () => {
    const method = await processor.tokenize(bank());
    expect(method).toMatchObject({ type: 'us_bank_account', last4: '6789' });
    expect(method.brand).toBeTruthy();
  });
});

describe('sandbox processor: charge, settle, refund', () => {
  it('4242 and other valid numbers succeed; 0002 and 9995 decline', async () => {
    const ok = await charge((await processor.tokenize(card(SANDBOX_CARDS.succeeds))).processorToken);
    expect(ok.outcome).toBe('succeeded');
    const other = await charge((await processor.tokenize(card('5555555555554444'))).processorToken);
    expect(other.outcome).toBe('succeeded');
    const declined = await charge((await processor.tokenize(card(SANDBOX_CARDS.declines))).processorToken);
    expect(declined).toEqual({ outcome: 'declined', declineCode: 'card_declined' });
    const short = await charge((await processor.tokenize(card(SANDBOX_CARDS.insufficientFunds))).processorToken);
    expect(short).toEqual({ outcome: 'declined', declineCode: 'insufficient_funds' });
  });

  it('is idempotent by reference', async () => {
    const token = (await processor.tokenize(card(SANDBOX_CARDS.succeeds))).processorToken;
    const first = await charge(token, 'inv_9:1');
    expect(await charge(token, 'inv_9:1')).toEqual(first);
    expect(await charge(token, 'inv_9:2')).not.toEqual(first);
  });

  it('a bank debit is pending, and settles unless the account ends in 0002', async () => {
    const good = await charge((await processor.tokenize(bank())).processorToken);
    expect(good.outcome).toBe('pending');
    const bad = await charge((await processor.tokenize(bank('000123450002'))).processorToken);
    expect(bad.outcome).toBe('pending');
    if (good.outcome !== 'pending' || bad.outcome !== 'pending') throw new Error('unreachable');
    expect(await processor.settle(good.processorChargeId)).toBe('succeeded');
    expect(await processor.settle(bad.processorChargeId)).toBe('failed');
  });

  it('gives back a pending bank debit (one whose recording lost)', async () => {
    const debit = await charge((await processor.tokenize(bank())).processorToken);
    if (debit.outcome !== 'pending') throw new Error('unreachable');
    await expect(
      processor.refund({ processorChargeId: debit.processorChargeId, amount: new Big(1), reference: 'r:return' }),
    ).resolves.toBeUndefined();
  });

  it('refuses tokens and charge ids it did not make', async () => {
    await expect(charge('tok_visa')).rejects.toThrow();
    await expect(charge('sbxpm_card_ok')).rejects.toThrow();
    await expect(processor.settle('ch_123')).rejects.toThrow();
    await expect(processor.refund({ processorChargeId: 'ch_1', amount: new Big(1), reference: 'r' })).rejects.toThrow();
    const ok = await charge((await processor.tokenize(card(SANDBOX_CARDS.succeeds))).processorToken);
    if (ok.outcome !== 'succeeded') throw new Error('unreachable');
    await expect(
      processor.refund({ processorChargeId: ok.processorChargeId, amount: new Big(1), reference: 'r' }),
    ).resolves.toBeUndefined();
  });
});

describe('hostedUrl', () => {
  it('joins PUBLIC_BASE_URL (trailing slash dropped) and a hosted path', () => {
    const config = loadConfig({ TABLE_NAME: 'allowance', PUBLIC_BASE_URL: 'https://pay.example.com/' });
    expect(config.publicBaseUrl).toBe('https://pay.example.com');
    expect(hostedUrl(config, HOSTED_PATHS.paymentMethodSession('abc'))).toBe(
      'https://pay.example.com/hosted/payment-methods/abc',
    );
    expect(hostedUrl(config, HOSTED_PATHS.receipt('s'))).toBe('https://pay.example.com/hosted/invoices/s/receipt');
  });

  it('refuses a bad setting and answers no relative link without one', () => {
    expect(() => loadConfig({ TABLE_NAME: 'allowance', PUBLIC_BASE_URL: 'nope' })).toThrow('PUBLIC_BASE_URL');
    expect(() => hostedUrl({ publicBaseUrl: undefined }, '/hosted/x')).toThrow('PUBLIC_BASE_URL');
  });
});
