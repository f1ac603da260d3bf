import Big from 'big.js';
import { roundToCents } from '../money.js';
import type { InvoicePaymentMethodType } from './types.js';

/**
 * The fees of an invoice payment (interface-spec 4.9, decisions.md section 2): pure and exact
 * (big.js), each fee rounded half-up to the cent on its own.
 *
 * | Method           | Provider fee        | Service fee |
 * | card             | 2.9% + 0.30         | 0.5%        |
 * | us_bank_account  | 0.8%, at most 5.00  | 0.25%       |
 * | usdc             | 0.50 flat           | 0.5%        |
 * | wallet           | free                | 0.25%       |
 *
 * The wallet is credited `net` = total - provider - service; the fees go to `acc_FEES`.
 */
export interface FeeRow {
  /** Percent of the total (a decimal string, e.g. "2.9"). */
  providerPercent: string;
  providerFixed: string;
  /** The provider fee's cap, if any. */
  providerMax?: string;
  servicePercent: string;
}

export const INVOICE_FEE_TABLE: Readonly<Record<InvoicePaymentMethodType, FeeRow>> = {
  card: { providerPercent: '2.9', providerFixed: '0.30', servicePercent: '0.5' },
  us_bank_account: { providerPercent: '0.8', providerFixed: '0', providerMax: '5.00', servicePercent: '0.25' },
  usdc: { providerPercent: '0', providerFixed: '0.50', servicePercent: '0.5' },
  wallet: { providerPercent: '0', providerFixed: '0', servicePercent: '0.25' },
};

/**
 * The smallest invoice total: every method's fees stay below it (the largest fees of a 1.00 total
 * are card's 0.33 + 0.01), so a payment always credits the wallet more than zero.
 */
export const MIN_INVOICE_TOTAL = new Big('1.00');

export interface InvoiceFeeBreakdown {
  provider: Big;
  service: Big;
  /** provider + service. */
  fees: Big;
  /** What the wallet receives: total - fees (> 0 for any total >= MIN_INVOICE_TOTAL). */
  net: Big;
}

const percentOf = (total: Big, percent: string) => total.times(percent).div(100);

export function invoiceFeesOf(method: InvoicePaymentMethodType, total: Big): InvoiceFeeBreakdown {
  if (total.lt(MIN_INVOICE_TOTAL)) throw new Error(`invoice total ${total.toFixed()} is below the minimum`);
  const row = INVOICE_FEE_TABLE[method];
  let provider = roundToCents(percentOf(total, row.providerPercent).plus(row.providerFixed));
  if (row.providerMax !== undefined && provider.gt(row.providerMax)) provider = new Big(row.providerMax);
  const service = roundToCents(percentOf(total, row.servicePercent));
  const fees = provider.plus(service);
  return { provider, service, fees, net: total.minus(fees) };
}
