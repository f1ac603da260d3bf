import { everyOf } from '../enums.js';
import type { Environment } from '../tenancy.js';

/**
 * Invoice states (interface-spec 3.5, decisions.md section 6): REFUNDED is the state after a
 * refund. The transitions are in invoice-states.ts.
 */
export type InvoiceStatus = 'DRAFT' | 'FINALIZED' | 'PAID' | 'VOIDED' | 'UNCOLLECTIBLE' | 'REFUNDED';
export const INVOICE_STATUSES = everyOf<InvoiceStatus>()([
  'DRAFT',
  'FINALIZED',
  'PAID',
  'VOIDED',
  'UNCOLLECTIBLE',
  'REFUNDED',
]);

/** How an invoice was (or is being) paid: the rows of the fee table (interface-spec 4.9). */
export type InvoicePaymentMethodType = 'card' | 'us_bank_account' | 'usdc' | 'wallet';
export const INVOICE_PAYMENT_METHOD_TYPES = everyOf<InvoicePaymentMethodType>()([
  'card',
  'us_bank_account',
  'usdc',
  'wallet',
]);

export interface InvoiceLineItem {
  description: string;
  /** An integer, 1..MAX_LINE_QUANTITY. */
  quantity: number;
  /** 2-decimal string. */
  unitPrice: string;
  /** quantity x unitPrice, 2-decimal string. */
  amount: string;
}

/** The fees of a payment, 2-decimal strings (invoice-fees.ts). */
export interface InvoiceFees {
  provider: string;
  service: string;
}

/**
 * A bank debit accepted by the processor and not settled yet (the invoice stays FINALIZED until the
 * ACH rail settles it: `settlePendingInvoicePayment`, invoice-payments.ts). Never the account number.
 */
export interface PendingInvoicePayment {
  paymentMethodType: 'us_bank_account';
  processorChargeId: string;
  /** The bank's label and the account's last 4 digits. */
  brand: string;
  last4: string;
  /** A saved payment method it was charged on, if any (`pm_...`). */
  paymentMethodId?: string;
  startedAt: string;
}

/** Declined payments of an invoice in the current window (the card-testing limit: invoice-rules.ts). Internal, never shown. */
export interface InvoiceDeclines {
  count: number;
  /** When the window's first decline was recorded (ISO 8601). */
  since: string;
}

export interface Invoice {
  id: string;
  organizationId: string;
  environment: Environment;
  walletId: string;
  customerId: string;
  status: InvoiceStatus;
  currency: 'USD';
  lineItems: InvoiceLineItem[];
  /** 2-decimal strings. */
  total: string;
  amountPaid: string;
  memo?: string;
  /** ISO 8601 (date or date-time, as given). */
  dueDate?: string;
  metadata?: Record<string, unknown>;
  /** `INV-000042`, set at finalization (unique per organization and environment). */
  number: string | null;
  /** >= 128 random bits, set at finalization; the public pay routes find the invoice by it. */
  slug: string | null;
  paymentMethodType?: InvoicePaymentMethodType;
  fees?: InvoiceFees;
  netAmount?: string;
  /** The processor's charge of the payment (refunds return it). */
  processorChargeId?: string;
  /** The journal records of the payment and the refund. */
  paymentTransactionId?: string;
  /** Paid from an Allowance wallet (invoice-wallet-payment.ts): that wallet, where a refund returns the total. */
  payerWalletId?: string;
  refundTransactionId?: string;
  pendingPayment?: PendingInvoicePayment;
  declines?: InvoiceDeclines;
  createdAt: string;
  finalizedAt?: string;
  paidAt?: string;
  voidedAt?: string;
  refundedAt?: string;
  uncollectibleAt?: string;
}
