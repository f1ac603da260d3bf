import { withThousands } from '../domain/text.js';
import type { EnvironmentName, InvoiceStatus } from './views.js';

/** `1234.5` as `$1,234.50` (amounts arrive as exact decimal strings; no float on the way). */
export function usd(amount: string): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const cents = `${fraction}00`.slice(0, 2);
  return `${negative ? '-' : ''}$${withThousands(Number(whole))}.${cents}`;
}

/** An ISO timestamp as `2026-11-27 15:04 UTC` (no locale data at cold start). */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A date (`2026-12-01`) or timestamp as the date alone. */
export function day(iso: string): string {
  return iso.slice(0, 10);
}

export const ENVIRONMENT_LABEL: Readonly<Record<EnvironmentName, string>> = { SANDBOX: 'Sandbox', PRODUCTION: 'Live' };

export const STATUS_LABEL: Readonly<Record<InvoiceStatus, string>> = {
  DRAFT: 'Draft',
  FINALIZED: 'Open',
  PAID: 'Paid',
  REFUNDED: 'Refunded',
  VOIDED: 'Voided',
  UNCOLLECTIBLE: 'Uncollectible',
};

/** Brand names as people write them. */
export function brandName(brand: string): string {
  const known: Record<string, string> = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    amex: 'American Express',
    discover: 'Discover',
  };
  return known[brand] ?? (brand === 'unknown' ? 'Card' : brand);
}
