import type { PaymentLinkCurrency, PaymentLinkStatus } from '../domain/payment-links/types.js';

/**
 * What the pages read: the public views of the catalog operations they call (customers and
 * invoices areas, contract of issue 21), reduced to the fields a page shows. Nothing here can hold
 * a wallet id, metadata or a customer id: the pages could not show one if a view carried it.
 */
export type EnvironmentName = 'SANDBOX' | 'PRODUCTION';

export interface MethodSummary {
  type: 'card' | 'us_bank_account';
  brand: string;
  last4: string;
}

/** `getPaymentMethodSession` (GET /v1/payment-method-sessions/{token}). */
export interface PaymentMethodSessionView {
  kind: 'setup' | 'update';
  status: 'OPEN' | 'COMPLETED' | 'EXPIRED';
  merchantName: string;
  customerName: string | null;
  currentMethod?: MethodSummary | null;
  expiresAt: string;
  /** The environment of the session's organization (shown on every page); absent from older views. */
  environment?: EnvironmentName;
}

/** `completePaymentMethodSession`: the payment method saved. */
export interface SavedMethodView extends MethodSummary {
  expMonth?: number | null;
  expYear?: number | null;
}

export interface InvoiceLineView {
  description: string;
  quantity: number;
  unitPrice: string;
  amount: string;
}

export type InvoiceStatus = 'DRAFT' | 'FINALIZED' | 'PAID' | 'REFUNDED' | 'VOIDED' | 'UNCOLLECTIBLE';

/** `getPayableInvoice` (GET /v1/invoices/pay/{slug}) and `payInvoice`'s answer. */
export interface PayableInvoiceView {
  number: string | null;
  merchantName: string;
  customerName: string | null;
  lineItems: InvoiceLineView[];
  total: string;
  amountPaid: string;
  currency: string;
  dueDate?: string | null;
  memo?: string | null;
  status: InvoiceStatus;
  paidAt?: string | null;
  /** A bank debit on its way (the invoice is PAID when the ACH rail settles). */
  pendingPayment?: { type?: string; amount?: string } | null;
  paymentMethodType?: string | null;
  environment?: EnvironmentName;
}

/** `POST /v1/invoices/pay/{slug}/usdc` (collection helper): where to send how much. */
export interface UsdcPaymentView {
  address: string;
  amount: string;
  /** The chain to send on (e.g. Ethereum). */
  chain?: string;
  expiresAt?: string;
}

/**
 * `getPaymentLinkClaim` (GET /v1/payment-links/claim/{slug}): what anyone holding the link may
 * see. No id, wallet, metadata, restriction list or fee: `restricted` only says that the sender
 * named who may claim (the page then asks for an email).
 */
export interface PaymentLinkClaimView {
  amount: string;
  currency: PaymentLinkCurrency;
  description: string | null;
  status: PaymentLinkStatus;
  expiresAt: string;
  restricted: boolean;
  environment: EnvironmentName;
}

/** `claimPaymentLink`'s answer: the view after the claim, with the posting of a wallet claim. */
export interface PaymentLinkClaimResult extends PaymentLinkClaimView {
  transactionId?: string | null;
}
