import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import { INVOICE_FEE_TABLE, invoiceFeesOf, MIN_INVOICE_TOTAL } from '../../shared/domain/invoices/invoice-fees.js';
import { invoicePayment, invoiceRefund } from '../../shared/domain/invoices/invoice-postings.js';
import {
  invoiceNumberOf,
  MAX_LINE_ITEMS,
  MAX_LINE_QUANTITY,
  newInvoiceSlug,
  priceLines,
} from '../../shared/domain/invoices/invoice-rules.js';
import { INVOICE_END_STATUSES, INVOICE_STATES } from '../../shared/domain/invoices/invoice-states.js';
import { INVOICE_STATUSES } from '../../shared/domain/invoices/types.js';
import { assertBalanced, SYSTEM_ACCOUNTS } from '../../shared/domain/ledger/posting.js';
import { canTransition, nonTerminalStatesOf, terminalStatesOf } from '../../shared/domain/state-table.js';

const fees = (method: keyof typeof INVOICE_FEE_TABLE, total: string) => {
  const result = invoiceFeesOf(method, new Big(total));
  return {
    provider: result.provider.toFixed(2),
    service: result.service.toFixed(2),
    fees: result.fees.toFixed(2),
    net: result.net.toFixed(2),
  };
};

const refusalOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('invoice fees (interface-spec 4.9, each fee half-up to the cent)', () => {
  it('card: 2.9% + 0.30 provider, 0.5% service', () => {
    // 100.00: 2.90 + 0.30 = 3.20; 0.50; net 96.30
    expect(fees('card', '100.00')).toEqual({ provider: '3.20', service: '0.50', fees: '3.70', net: '96.30' });
    // 75.50: 2.1895 + 0.30 = 2.4895 -> 2.49; 0.3775 -> 0.38; net 72.63
    expect(fees('card', '75.50')).toEqual({ provider: '2.49', service: '0.38', fees: '2.87', net: '72.63' });
  });

  it('rounds half-up exactly at the half cent (never through floats)', () => {
    // card 10.50: 0.3045 + 0.30 = 0.6045 -> 0.60; service 0.0525 -> 0.05
    expect(fees('card', '10.50')).toEqual({ provider: '0.60', service: '0.05', fees: '0.65', net: '9.85' });
    // card 1.50: service 0.0075 -> 0.01 (half-up), provider 0.0435 + 0.30 = 0.3435 -> 0.34
    expect(fees('card', '1.50')).toEqual({ provider: '0.34', service: '0.01', fees: '0.35', net: '1.15' });
    // ACH 6.25: 0.05 provider exactly; service 0.015625 -> 0.02
    expect(fees('us_bank_account', '6.25')).toEqual({ provider: '0.05', service: '0.02', fees: '0.07', net: '6.18' });
    // ACH 1.00: provider 0.008 -> 0.01, service 0.0025 -> 0.00
    expect(fees('us_bank_account', '1.00')).toEqual({ provider: '0.01', service: '0.00', fees: '0.01', net: '0.99' });
  });

  it('ACH: 0.8% capped at 5.00, 0.25% service', () => {
    expect(fees('us_bank_account', '100.00')).toEqual({
      provider: '0.80',
      service: '0.25',
      fees: '1.05',
      net: '98.95',
    });
    // 625.00 x 0.8% = 5.00 exactly: the cap is reached, not passed
    expect(fees('us_bank_account', '625.00').provider).toBe('5.00');
    // 625.63 x 0.8% = 5.00504 -> capped at 5.00
    expect(fees('us_bank_account', '625.63').provider).toBe('5.00');
    expect(fees('us_bank_account', '10000.00')).toEqual({
      provider: '5.00',
      service: '25.00',
      fees: '30.00',
      net: '9970.00',
    });
  });

  it('USDC: 0.50 flat provider, 0.5% service', () => {
    expect(fees('usdc', '100.00')).toEqual({ provider: '0.50', service: '0.50', fees: '1.00', net: '99.00' });
    expect(fees('usdc', '1.00')).toEqual({ provider: '0.50', service: '0.01', fees: '0.51', net: '0.49' });
  });

  it('wallet: free provider, 0.25% service', () => {
    expect(fees('wallet', '100.00')).toEqual({ provider: '0.00', service: '0.25', fees: '0.25', net: '99.75' });
    expect(fees('wallet', '2.00')).toEqual({ provider: '0.00', service: '0.01', fees: '0.01', net: '1.99' });
  });

  it('leaves the wallet more than zero for every method from the minimum total up', () => {
    for (const method of Object.keys(INVOICE_FEE_TABLE) as (keyof typeof INVOICE_FEE_TABLE)[]) {
      for (const total of ['1.00', '1.01', '1.37', '3.33', '99.99']) {
        const result = invoiceFeesOf(method, new Big(total));
        expect(result.net.gt(0)).toBe(true);
        expect(result.net.plus(result.provider).plus(result.service).eq(total)).toBe(true);
      }
    }
    expect(() => invoiceFeesOf('card', MIN_INVOICE_TOTAL.minus('0.01'))).toThrow();
  });
});

describe('invoice lines', () => {
  it('prices lines exactly, quantity defaulting to 1', () => {
    const priced = priceLines([
      { description: 'A', quantity: 3, unitPrice: '0.10' },
      { description: 'B', unitPrice: '19.99' },
    ]);
    expect(priced.lineItems).toEqual([
      { description: 'A', quantity: 3, unitPrice: '0.10', amount: '0.30' },
      { description: 'B', quantity: 1, unitPrice: '19.99', amount: '19.99' },
    ]);
    expect(priced.total.toFixed(2)).toBe('20.29');
  });

  it('names the field of a bad line', () => {
    expect(refusalOf(() => priceLines([{ description: 'A', unitPrice: '1.001' }]))).toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { field: 'lineItems.0.unitPrice' },
    });
    expect(
      refusalOf(() =>
        priceLines([
          { description: 'A', unitPrice: '5' },
          { description: 'B', quantity: 0, unitPrice: '5' },
        ]),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'lineItems.1.quantity' } });
    expect(
      refusalOf(() => priceLines([{ description: 'A', quantity: MAX_LINE_QUANTITY + 1, unitPrice: '5' }])),
    ).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refusalOf(() => priceLines([{ description: 'A', quantity: 1.5, unitPrice: '5' }]))).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(refusalOf(() => priceLines([]))).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'lineItems' },
    });
    const many = Array.from({ length: MAX_LINE_ITEMS + 1 }, () => ({ description: 'x', unitPrice: '1.00' }));
    expect(refusalOf(() => priceLines(many))).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('refuses a total below 1.00 (fees would eat it) or above the money maximum', () => {
    expect(refusalOf(() => priceLines([{ description: 'A', unitPrice: '0.99' }]))).toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { field: 'lineItems' },
    });
    expect(refusalOf(() => priceLines([{ description: 'A', quantity: 2, unitPrice: '999999999.00' }]))).toMatchObject({
      code: 'INVALID_AMOUNT',
    });
  });

  it('numbers invoices INV-000001 and draws slugs of 24 base62 characters', () => {
    expect(invoiceNumberOf(42)).toBe('INV-000042');
    expect(invoiceNumberOf(1234567)).toBe('INV-1234567');
    const slug = newInvoiceSlug();
    expect(slug).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(newInvoiceSlug()).not.toBe(slug);
  });
});

describe('invoice state table (spec 3.5, decisions 6)', () => {
  it('allows exactly the listed transitions', () => {
    const allowed = new Set([
      'DRAFT:finalize',
      'FINALIZED:pay',
      'FINALIZED:void',
      'FINALIZED:markUncollectible',
      'PAID:refund',
    ]);
    for (const status of INVOICE_STATUSES)
      for (const trigger of Object.keys(INVOICE_STATES) as (keyof typeof INVOICE_STATES)[])
        expect(canTransition(INVOICE_STATES, status, trigger)).toBe(allowed.has(`${status}:${trigger}`));
    expect(INVOICE_STATES.refund.to).toBe('REFUNDED');
    expect(terminalStatesOf(INVOICE_STATES).sort()).toEqual(['REFUNDED', 'UNCOLLECTIBLE', 'VOIDED']);
    expect(INVOICE_END_STATUSES).toEqual(terminalStatesOf(INVOICE_STATES));
    expect(nonTerminalStatesOf(INVOICE_STATES).sort()).toEqual(['DRAFT', 'FINALIZED', 'PAID']);
  });
});

describe('invoice postings', () => {
  const invoice = { id: 'inv_1', organizationId: 'org_1', environment: 'SANDBOX' as const, walletId: 'wal_1' };

  it('a payment: customer funds pay the total, the wallet gets the net, acc_FEES the fees, balanced', () => {
    const total = new Big('75.50');
    const change = invoicePayment(invoice, 'txn_1', total, invoiceFeesOf('card', total), '2026-11-27T10:00:00.000Z');
    assertBalanced(change.posting);
    expect(change.posting.type).toBe('INVOICE_PAYMENT');
    expect(change.posting.legs.map((leg) => [leg.account, leg.amount.toFixed(2)])).toEqual([
      [{ kind: 'SYSTEM', accountId: SYSTEM_ACCOUNTS.customerFunds }, '-75.50'],
      [{ kind: 'WALLET', walletId: 'wal_1' }, '72.63'],
      [{ kind: 'SYSTEM', accountId: SYSTEM_ACCOUNTS.fees }, '2.87'],
    ]);
    expect(SYSTEM_ACCOUNTS.customerFunds).toBe('acc_CUSTOMER_FUNDS');
  });

  it('a refund: the wallet pays the whole total back to customer funds', () => {
    const change = invoiceRefund(invoice, 'txn_2', new Big('75.50'), '2026-11-27T10:00:00.000Z');
    assertBalanced(change.posting);
    expect(change.posting.type).toBe('INVOICE_REFUND');
    expect(change.posting.legs.map((leg) => leg.amount.toFixed(2))).toEqual(['-75.50', '75.50']);
    expect(change.posting.legs[0]!.settlesHold).toBeUndefined();
  });
});
