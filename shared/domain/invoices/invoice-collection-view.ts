import * as z from 'zod/mini';
import {
  describe,
  enumOf,
  environment,
  id,
  integer,
  lazy,
  money,
  nullableId,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';
import type { UsdcDeposit, UsdcReceipt, RecurringSchedule } from './collection-ports.js';
import { RECURRING_INTERVALS, RECURRING_STATUSES } from './invoice-collection-rules.js';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** What arrived on chain: USDC has 6 decimals, kept exactly (2 to 6 places). */
const usdcReceived = (description: string) =>
  describe(
    z.string().check(z.regex(/^\d+\.\d{2,6}$/)),
    `${description} A decimal string with 2 to 6 decimal places, e.g. "75.500001".`,
  );

export const usdcDepositView = /* @__PURE__ */ lazy(() =>
  view(
    {
      object: objectTag('usdc_deposit'),
      address: text("The invoice's own deposit address (EIP-55 checksummed); the same on every request."),
      amount: money('The exact amount due: any other amount is not matched (docs/api.md "USDC").'),
      currency: describe(z.literal('USDC'), 'Always "USDC".'),
      chain: describe(z.literal('Ethereum'), 'The chain to send on: "Ethereum".'),
    },
    'Where to pay an invoice in USDC: send exactly `amount` to `address`.',
    { object: 'usdc_deposit', address: ADDRESS, amount: '75.50', currency: 'USDC', chain: 'Ethereum' },
  ),
);

export const usdcReceiptView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('usdcReceipt', 'Receipt id.'),
      object: objectTag('usdc_receipt'),
      address: text('The address the USDC was sent to.'),
      amount: usdcReceived('The amount received, exactly as it arrived.'),
      currency: describe(z.literal('USDC'), 'Always "USDC".'),
      invoiceId: nullableId('invoice', "The address's invoice, when it is one of yours; else null."),
      walletId: nullableId('wallet', "The wallet of the address's invoice, if any."),
      reason: enumOf(
        ['unknown_address', 'invoice_not_open', 'amount_mismatch'] as const,
        'Why it matched nothing: no invoice of yours has this address, the invoice is not FINALIZED (paid, voided, ...), or the amount is not exactly the amount due.',
      ),
      status: enumOf(['UNMATCHED'] as const, 'UNMATCHED: credited to nobody; the operator returns it on chain.'),
      environment: environment(),
      receivedAt: timestamp('When it arrived.'),
    },
    'An incoming USDC transfer that matched no open invoice (or not its exact amount): it credited nothing.',
    {
      id: 'ucr_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      object: 'usdc_receipt',
      address: ADDRESS,
      amount: '75.00',
      currency: 'USDC',
      invoiceId: 'inv_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      walletId: 'wal_7Qm2ZtLp9Rw4Xb1KcV8nYs3D',
      reason: 'amount_mismatch',
      status: 'UNMATCHED',
      environment: 'SANDBOX',
      receivedAt: '2026-11-27T10:00:00.000Z',
    },
  ),
);

export const usdcReceiptPageView = /* @__PURE__ */ lazy(() => pageOf(usdcReceiptView, 'A page of USDC receipts.'));

export const usdcIncomingView = /* @__PURE__ */ lazy(() =>
  view(
    {
      object: objectTag('usdc_incoming'),
      outcome: enumOf(['PAID', 'UNMATCHED'] as const, 'PAID: the invoice was paid; UNMATCHED: a receipt was stored.'),
      invoiceId: nullableId('invoice', 'The invoice paid, or the known invoice of an unmatched receipt.'),
      receiptId: nullableId('usdcReceipt', 'The unmatched receipt, or null.'),
      reason: nullableText('Why it matched nothing (see the receipt), or null.'),
    },
    'What the simulated chain transfer did.',
    {
      object: 'usdc_incoming',
      outcome: 'PAID',
      invoiceId: 'inv_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      receiptId: null,
      reason: null,
    },
  ),
);

export const recurringScheduleView = /* @__PURE__ */ lazy(() =>
  view(
    {
      interval: enumOf(RECURRING_INTERVALS, 'weekly, monthly, quarterly or yearly (calendar months).'),
      endAt: nullableTimestamp('No charge runs after it; null: until cancelled.'),
      nextChargeAt: nullableTimestamp(
        'When the next charge runs (sandbox: scaled by TIME_SCALE); null when not ACTIVE.',
      ),
      status: enumOf(
        RECURRING_STATUSES,
        'ACTIVE, CANCELLED (DELETE /v1/invoices/{id}/recurring) or ENDED (past endAt).',
      ),
      runs: integer('How many charges have run, the first included.'),
    },
    'The schedule a recurring charge started (shown on its first invoice).',
    { interval: 'monthly', endAt: null, nextChargeAt: '2026-12-27T10:00:00.000Z', status: 'ACTIVE', runs: 1 },
  ),
);

export const presentUsdcDeposit = (deposit: UsdcDeposit & { amount: string }): z.output<typeof usdcDepositView> => ({
  object: 'usdc_deposit',
  address: deposit.address,
  amount: deposit.amount,
  currency: 'USDC',
  chain: deposit.chain,
});

export const presentUsdcReceipt = (receipt: UsdcReceipt): z.output<typeof usdcReceiptView> => ({
  id: receipt.id,
  object: 'usdc_receipt',
  address: receipt.address,
  amount: receipt.amount,
  currency: 'USDC',
  invoiceId: receipt.invoiceId ?? null,
  walletId: receipt.walletId ?? null,
  reason: receipt.reason,
  status: receipt.status,
  environment: receipt.environment,
  receivedAt: receipt.receivedAt,
});

export interface UsdcIncomingResult {
  outcome: 'PAID' | 'UNMATCHED';
  invoiceId: string | null;
  receiptId: string | null;
  reason: string | null;
}

export const presentUsdcIncoming = (result: UsdcIncomingResult): z.output<typeof usdcIncomingView> => ({
  object: 'usdc_incoming',
  ...result,
});

export const presentRecurringSchedule = (schedule: RecurringSchedule): z.output<typeof recurringScheduleView> => ({
  interval: schedule.interval,
  endAt: schedule.endAt ?? null,
  nextChargeAt: schedule.nextChargeAt,
  status: schedule.status,
  runs: schedule.run,
});
