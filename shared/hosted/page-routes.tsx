import { ApiError } from '../domain/errors.js';
import { HOSTED_PATHS } from '../domain/hosted-urls.js';
import { onlyGetOrPost, page, redirect, refusal, type PageAnswer, type PageRequest } from './answers.js';
import { declineMessage, invalidFieldOf, validationMessage } from './messages.js';
import { keptValues, methodChoice, paymentMethodInput } from './forms.js';
import { CheckoutPage } from './pages/checkout.js';
import { InvoicePage, type InvoicePaths } from './pages/invoice.js';
import { PaymentMethodPage, PaymentMethodSavedPage } from './pages/payment-method.js';
import { paymentLinkRoute } from './payment-link-route.js';
import { ReceiptPage } from './pages/receipt.js';
import type { HostedOperations } from './port.js';
import type { PayableInvoiceView, PaymentMethodSessionView } from './views.js';

/** Tokens and slugs are URL-safe random strings; anything else can not name a link. */
const LINK_ID = /^[A-Za-z0-9_-]{8,200}$/;
const ROUTES: readonly {
  pattern: RegExp;
  serve: (ops: HostedOperations, id: string, request: PageRequest) => Promise<PageAnswer>;
}[] = [
  { pattern: /^\/payment-methods\/([^/]+)$/, serve: paymentMethodRoute },
  { pattern: /^\/invoices\/([^/]+)$/, serve: invoiceRoute },
  { pattern: /^\/invoices\/([^/]+)\/usdc$/, serve: usdcRoute },
  { pattern: /^\/invoices\/([^/]+)\/checkout$/, serve: checkoutRoute },
  { pattern: /^\/invoices\/([^/]+)\/receipt$/, serve: receiptRoute },
  { pattern: /^\/payment-links\/([^/]+)$/, serve: paymentLinkRoute },
];

/** Serves one page request; an unknown path or link is the unknown-link page. */
export async function servePage(ops: HostedOperations, request: PageRequest): Promise<PageAnswer> {
  for (const route of ROUTES) {
    const id = route.pattern.exec(request.path)?.[1];
    if (id === undefined) continue;
    if (!LINK_ID.test(id)) return refusal('unknown-link');
    try {
      return await route.serve(ops, id, request);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return refusal('unknown-link');
      throw error;
    }
  }
  return refusal('unknown-link');
}

// ---------------------------------------------------------------------------------------------
// Payment-method setup and update: /hosted/payment-methods/{token}

async function paymentMethodRoute(ops: HostedOperations, token: string, request: PageRequest): Promise<PageAnswer> {
  if (onlyGetOrPost(request)) return refusal('method-not-allowed');
  const path = HOSTED_PATHS.paymentMethodSession(token);
  const method = methodChoice(request.query);
  const session = await ops.paymentMethodSession(token);
  const closed = closedSession(session, request.method === 'GET' && request.query.saved === '1');
  if (closed) return closed;
  if (request.method === 'GET') return page(200, <PaymentMethodPage session={session} form={{ path, method }} />);

  const fields = request.form();
  try {
    await ops.completePaymentMethodSession(token, paymentMethodInput(method, fields));
    return redirect(`${path}?saved=1`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'INVALID_STATE')
      return closedSession(await ops.paymentMethodSession(token), false) ?? redirect(path);
    if (error.code !== 'VALIDATION_ERROR' && error.code !== 'PAYMENT_DECLINED') throw error;
    const message = error.code === 'VALIDATION_ERROR' ? validationMessage(error) : declineMessage(error);
    const form = { path, method, error: message, invalidField: invalidFieldOf(error), kept: keptValues(fields) };
    return page(error.status, <PaymentMethodPage session={session} form={form} />);
  }
}

/** The page of a session that takes no more input: saved (just now), used before, or expired. */
function closedSession(session: PaymentMethodSessionView, justSaved: boolean): PageAnswer | undefined {
  const about = { merchantName: session.merchantName, environment: session.environment };
  if (session.status === 'EXPIRED') return refusal('expired-link', about);
  if (session.status !== 'COMPLETED') return undefined;
  return justSaved ? page(200, <PaymentMethodSavedPage session={session} />) : refusal('used-link', about);
}

// ---------------------------------------------------------------------------------------------
// Invoices: /hosted/invoices/{slug}[/checkout|/receipt|/usdc]

const invoicePaths = (slug: string): InvoicePaths => ({
  invoice: HOSTED_PATHS.invoice(slug),
  checkout: HOSTED_PATHS.checkout(slug),
  receipt: HOSTED_PATHS.receipt(slug),
  usdc: `${HOSTED_PATHS.invoice(slug)}/usdc`,
});

/** Voided and uncollectible invoices can not be paid: their refusal page (with whose invoice it was). */
function unpayable(invoice: PayableInvoiceView): PageAnswer | undefined {
  const about = { merchantName: invoice.merchantName, environment: invoice.environment };
  if (invoice.status === 'VOIDED') return refusal('voided-invoice', about);
  if (invoice.status === 'UNCOLLECTIBLE') return refusal('uncollectible-invoice', about);
  if (invoice.status === 'DRAFT') return refusal('unknown-link');
  return undefined;
}

const paid = (invoice: PayableInvoiceView) => invoice.status === 'PAID' || invoice.status === 'REFUNDED';

async function invoiceRoute(ops: HostedOperations, slug: string, request: PageRequest): Promise<PageAnswer> {
  if (request.method !== 'GET') return refusal('method-not-allowed');
  const invoice = await ops.payableInvoice(slug);
  const refused = unpayable(invoice);
  if (refused) return refused;
  return page(
    200,
    <InvoicePage invoice={invoice} paths={invoicePaths(slug)} usdcAvailable={ops.usdcPayment !== undefined} />,
  );
}

/** The USDC deposit address, asked for by the invoice page's button (the address is the invoice's own: asking again gives it again). */
async function usdcRoute(ops: HostedOperations, slug: string, request: PageRequest): Promise<PageAnswer> {
  const paths = invoicePaths(slug);
  if (request.method !== 'POST') return redirect(paths.invoice);
  if (!ops.usdcPayment) return refusal('unknown-link');
  const invoice = await ops.payableInvoice(slug);
  const refused = unpayable(invoice);
  if (refused) return refused;
  if (invoice.status !== 'FINALIZED') return redirect(paths.invoice);
  const usdc = await ops.usdcPayment(slug);
  return page(200, <InvoicePage invoice={invoice} paths={paths} usdcAvailable={true} usdc={usdc} />);
}

async function checkoutRoute(ops: HostedOperations, slug: string, request: PageRequest): Promise<PageAnswer> {
  if (onlyGetOrPost(request)) return refusal('method-not-allowed');
  const paths = invoicePaths(slug);
  const method = methodChoice(request.query);
  const invoice = await ops.payableInvoice(slug);
  const refused = unpayable(invoice);
  if (refused) return refused;
  if (paid(invoice)) return redirect(paths.receipt);
  if (invoice.pendingPayment) return redirect(paths.invoice);
  const checkout = { invoice, path: paths.checkout, invoicePath: paths.invoice, method };
  if (request.method === 'GET') return page(200, <CheckoutPage {...checkout} />);

  const fields = request.form();
  try {
    const after = await ops.payInvoice(slug, paymentMethodInput(method, fields));
    return redirect(paid(after) ? paths.receipt : paths.invoice);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Paid or voided meanwhile (another tab, the merchant): the invoice page says which.
    if (error.code === 'INVALID_STATE') return redirect(paths.invoice);
    if (error.code !== 'VALIDATION_ERROR' && error.code !== 'PAYMENT_DECLINED') throw error;
    const message = error.code === 'VALIDATION_ERROR' ? validationMessage(error) : declineMessage(error);
    return page(
      error.status,
      <CheckoutPage {...checkout} error={message} invalidField={invalidFieldOf(error)} kept={keptValues(fields)} />,
    );
  }
}

async function receiptRoute(ops: HostedOperations, slug: string, request: PageRequest): Promise<PageAnswer> {
  if (request.method !== 'GET') return refusal('method-not-allowed');
  const paths = invoicePaths(slug);
  const invoice = await ops.payableInvoice(slug);
  if (!paid(invoice)) return unpayable(invoice) ?? redirect(paths.invoice);
  return page(200, <ReceiptPage invoice={invoice} invoicePath={paths.invoice} />);
}
