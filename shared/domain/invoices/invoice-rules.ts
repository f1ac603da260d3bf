import Big from 'big.js';
import { ApiError, validationError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import { formatAmount, MAX_AMOUNT, parseAmount } from '../money.js';
import { MIN_INVOICE_TOTAL } from './invoice-fees.js';
import type { InvoiceDeclines, InvoiceLineItem } from './types.js';

/** Bounds of an invoice's lines (docs/api.md "Invoices"). */
export const MAX_LINE_ITEMS = 100;
export const MAX_LINE_QUANTITY = 10_000;
export const MAX_LINE_DESCRIPTION = 1_024;
export const MAX_MEMO = 2_048;

/** 24 base62 characters from the CSPRNG: about 143 bits (decisions.md section 6 asks >= 128). */
export const SLUG_LENGTH = 24;
export const newInvoiceSlug = (): string => randomBase62(SLUG_LENGTH);

/** `INV-000042`: the organization environment's sequence, 6 digits at least. */
export const invoiceNumberOf = (sequence: number): string => `INV-${String(sequence).padStart(6, '0')}`;

export interface LineItemInput {
  description: string;
  quantity?: number | undefined;
  unitPrice: unknown;
}

export interface PricedLines {
  lineItems: InvoiceLineItem[];
  total: Big;
}

/**
 * Prices the lines exactly: each amount = quantity x unitPrice (unitPrice > 0, at most 2 decimals),
 * the total their sum, between MIN_INVOICE_TOTAL (so every method's fees leave the wallet more
 * than zero) and the money maximum. Errors name the field (`lineItems.2.unitPrice`).
 */
export function priceLines(lines: readonly LineItemInput[]): PricedLines {
  if (lines.length === 0 || lines.length > MAX_LINE_ITEMS)
    throw validationError('lineItems', `must hold 1 to ${MAX_LINE_ITEMS} line items`);
  let total = new Big(0);
  const lineItems = lines.map((line, i) => {
    const quantity = line.quantity ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY)
      throw validationError(`lineItems.${i}.quantity`, `must be an integer from 1 to ${MAX_LINE_QUANTITY}`);
    const unitPrice = parseAmount(line.unitPrice, { field: `lineItems.${i}.unitPrice`, allowNumber: false });
    const amount = unitPrice.times(quantity);
    total = total.plus(amount);
    return {
      description: line.description,
      quantity,
      unitPrice: formatAmount(unitPrice),
      amount: formatAmount(amount),
    };
  });
  assertInvoiceTotal(total, 'lineItems');
  return { lineItems, total };
}

/** A total (or a charge's amount) an invoice may have. */
export function assertInvoiceTotal(total: Big, field: string): void {
  if (total.lt(MIN_INVOICE_TOTAL) || total.gt(MAX_AMOUNT)) {
    throw new ApiError(
      'INVALID_AMOUNT',
      `${field}: an invoice total must be from ${formatAmount(MIN_INVOICE_TOTAL)} to ${formatAmount(MAX_AMOUNT)}`,
      { field, min: formatAmount(MIN_INVOICE_TOTAL), max: formatAmount(MAX_AMOUNT) },
    );
  }
}

/**
 * Card testing on one invoice (docs/api.md "Invoices"): after MAX_DECLINES_PER_WINDOW declined
 * payments within DECLINE_WINDOW_MS of the window's first, the invoice takes no payment attempt
 * (429 RATE_LIMIT_EXCEEDED, `retryAfter` = seconds until the window ends) until the window is over.
 */
export const MAX_DECLINES_PER_WINDOW = 10;
export const DECLINE_WINDOW_MS = 3_600_000;

const windowOpen = (declines: InvoiceDeclines | undefined, now: Date): declines is InvoiceDeclines =>
  declines !== undefined && Date.parse(declines.since) + DECLINE_WINDOW_MS > now.getTime();

/** Seconds to wait before this invoice takes another payment attempt; undefined when it takes one now. */
export function declineRetryAfterS(declines: InvoiceDeclines | undefined, now: Date): number | undefined {
  if (!windowOpen(declines, now) || declines.count < MAX_DECLINES_PER_WINDOW) return undefined;
  return Math.max(1, Math.ceil((Date.parse(declines.since) + DECLINE_WINDOW_MS - now.getTime()) / 1000));
}

/** The count after one more decline (a new window when the last one is over). */
export const nextDeclines = (declines: InvoiceDeclines | undefined, now: Date): InvoiceDeclines =>
  windowOpen(declines, now) ? { ...declines, count: declines.count + 1 } : { count: 1, since: now.toISOString() };
