import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import { ApiError, notFound } from '../errors.js';
import type { EmittedEventName } from '../event-names.js';
import type { PaymentProcessor } from '../payment-methods/processor.js';
import type { ServiceDeps } from '../ports.js';
import type { Actor, RequestContext } from '../tenancy.js';
import { presentInvoice, type PresentableInvoice } from './invoice-view.js';
import { HOSTED_PATHS, type HostedUrl } from '../hosted-urls.js';
import type { InvoiceParties, InvoiceStore } from './ports.js';
import type { Invoice } from './types.js';

export interface InvoiceServiceDeps extends ServiceDeps<InvoiceStore> {
  parties: InvoiceParties;
  processor: PaymentProcessor;
  /** The absolute URL of a hosted page path (config's public base URL). */
  hostedUrl: HostedUrl;
  log: Pick<Console, 'error'>;
  /** After a bank debit was accepted (the collection schedules its ACH settlement: invoice-recurring.ts). */
  onPendingPayment?: (invoice: Invoice) => Promise<void>;
}

/** The paths of the invoice's hosted pages (served by the hosted edge). */
export const INVOICE_PAGES = HOSTED_PATHS;

type InvoiceEventName = Extract<EmittedEventName, `invoice.${string}`>;

/**
 * What every part of the invoice service shares: the invoice as the caller may see it, its URLs,
 * and the audit entry and event written in each transaction.
 */
export function invoiceKernel(deps: InvoiceServiceDeps) {
  const { store, ids } = deps;

  const withUrl = (invoice: Invoice): PresentableInvoice => ({
    ...invoice,
    hostedUrl: invoice.slug ? deps.hostedUrl(INVOICE_PAGES.invoice(invoice.slug)) : null,
  });

  /**
   * An invoice the caller may see: another organization's, or (for a wallet-scoped key) another
   * wallet's, answers INVOICE_NOT_FOUND; the caller's own in the other environment ENVIRONMENT_MISMATCH.
   */
  async function load(ctx: RequestContext, invoiceId: string): Promise<Invoice> {
    const scope = scopeOf(ctx.principal);
    const invoice = await store.getInvoice(invoiceId);
    if (!invoice || invoice.organizationId !== scope.organizationId) throw notFound('INVOICE_NOT_FOUND', invoiceId);
    const own = ctx.principal.walletId;
    if (own !== null && invoice.walletId !== own) throw notFound('INVOICE_NOT_FOUND', invoiceId);
    if (invoice.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return invoice;
  }

  const invalidState = (invoice: Invoice, what: string) =>
    new ApiError('INVALID_STATE', `The invoice is ${invoice.status}; ${what}.`, { status: invoice.status });

  const auditOf = (
    actor: Actor,
    invoice: Invoice,
    action: AuditAction,
    at: string,
    metadata: Record<string, unknown> = {},
  ): AuditChange =>
    auditChange(
      {
        organizationId: invoice.organizationId,
        environment: invoice.environment,
        actor,
        action,
        resource: 'invoice',
        resourceId: invoice.id,
        walletId: invoice.walletId,
        metadata: { status: invoice.status, total: invoice.total, number: invoice.number, ...metadata },
        createdAt: at,
      },
      ids,
    );

  const eventOf = (type: InvoiceEventName, invoice: Invoice, at: string): AuditChange =>
    eventChange(
      {
        organizationId: invoice.organizationId,
        environment: invoice.environment,
        type,
        data: presentInvoice(withUrl(invoice)),
        createdAt: at,
      },
      ids,
    );

  return { withUrl, load, invalidState, auditOf, eventOf };
}

export type InvoiceKernel = ReturnType<typeof invoiceKernel>;
