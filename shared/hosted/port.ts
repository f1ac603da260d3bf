import type {
  PayableInvoiceView,
  PaymentLinkClaimResult,
  PaymentLinkClaimView,
  PaymentMethodSessionView,
  SavedMethodView,
  UsdcPaymentView,
} from './views.js';

/**
 * What the pages ask of the service: the public operations of the catalog (customers, invoices and
 * payment-links areas), one method each. catalog-port.ts implements it with `invoke`, as the HTTP and MCP edges
 * call operations; the unit tests pass a fake. Failures are the operations' own ApiErrors.
 */
export interface HostedOperations {
  /** `GET /v1/payment-method-sessions/{token}`. */
  paymentMethodSession(token: string): Promise<PaymentMethodSessionView>;
  /** `POST /v1/payment-method-sessions/{token}` with a PaymentMethodInput. */
  completePaymentMethodSession(token: string, input: Record<string, unknown>): Promise<SavedMethodView>;
  /** `GET /v1/invoices/pay/{slug}`. */
  payableInvoice(slug: string): Promise<PayableInvoiceView>;
  /** `POST /v1/invoices/pay/{slug}/payments` with a PaymentMethodInput. */
  payInvoice(slug: string, input: Record<string, unknown>): Promise<PayableInvoiceView>;
  /** `POST /v1/invoices/pay/{slug}/usdc`; undefined while the catalog has no such operation. */
  usdcPayment: ((slug: string) => Promise<UsdcPaymentView>) | undefined;
  /** `GET /v1/payment-links/claim/{slug}`. */
  paymentLinkClaim(slug: string): Promise<PaymentLinkClaimView>;
  /** `POST /v1/payment-links/claim/{slug}/claim` with a claim body; the key goes as the Idempotency-Key header. */
  claimPaymentLink(
    slug: string,
    input: Record<string, unknown>,
    idempotencyKey: string | undefined,
  ): Promise<PaymentLinkClaimResult>;
}

/** The route keys of the operations above, as the catalog declares them (parameter names aside). */
export const HOSTED_ROUTES = {
  paymentMethodSession: 'GET /v1/payment-method-sessions/{}',
  completePaymentMethodSession: 'POST /v1/payment-method-sessions/{}',
  payableInvoice: 'GET /v1/invoices/pay/{}',
  payInvoice: 'POST /v1/invoices/pay/{}/payments',
  usdcPayment: 'POST /v1/invoices/pay/{}/usdc',
  paymentLinkClaim: 'GET /v1/payment-links/claim/{}',
  claimPaymentLink: 'POST /v1/payment-links/claim/{}/claim',
} as const;
