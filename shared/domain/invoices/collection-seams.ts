import type { AuditAction } from '../audit/actions.js';
import type { AuditChange } from '../audit/ports.js';
import type { ExpiryScheduler } from '../expiries/ports.js';
import type { PaymentMethodType } from '../payment-methods/processor.js';
import type { ServiceDeps } from '../ports.js';
import type { Actor, RequestContext } from '../tenancy.js';
import type { InvoiceCollectionStore } from './collection-ports.js';
import type { PresentableInvoice } from './invoice-view.js';
import type { InvoiceParties } from './ports.js';
import type { Invoice, InvoiceLineItem } from './types.js';

/** A method to charge: a saved one (customers' paymentMethodForCharge). */
export interface CollectionMethod {
  type: PaymentMethodType;
  brand: string;
  last4: string;
  processorToken: string;
  paymentMethodId?: string;
}

/**
 * What collecting invoices calls of the invoice service (one pay-and-post transaction, one
 * settlement, one create-and-finalize: never a second copy). The invoice service's composer
 * passes its own functions (invoice-kernel.ts, invoice-payments.ts, invoice-lifecycle.ts).
 */
export interface InvoicePayingSeams {
  withUrl(invoice: Invoice): PresentableInvoice;
  /** The audit entry of an action on an invoice (its status, total and number, with `metadata`). */
  auditOf(
    actor: Actor,
    invoice: Invoice,
    action: AuditAction,
    at: string,
    metadata?: Record<string, unknown>,
  ): AuditChange;
  /** An invoice event, payload the invoice view. */
  eventOf(
    type: 'invoice.paid' | 'invoice.payment_failed' | 'invoice.uncollectible',
    invoice: Invoice,
    at: string,
  ): AuditChange;
  /** The invoice as the caller may see it (INVOICE_NOT_FOUND, ENVIRONMENT_MISMATCH). */
  load(ctx: RequestContext, invoiceId: string): Promise<Invoice>;
  /** Charges a FINALIZED invoice: PAID (one transaction), pending (bank), or PAYMENT_DECLINED thrown after `invoice.payment_failed`. */
  chargeInvoice(
    invoice: Invoice,
    method: CollectionMethod,
    action: AuditAction,
    options: { actor: Actor; reference: string },
  ): Promise<PresentableInvoice>;
  /** The end of a bank debit in flight: PAID, or the debit cleared with `invoice.payment_failed`; nothing in flight: unchanged. */
  settlePendingPayment(invoiceId: string): Promise<Invoice>;
  /** A new FINALIZED invoice (created and finalized, audited and evented as the API does), for a recurring run. */
  createFinalized(
    ctx: RequestContext,
    input: {
      walletId: string;
      customerId: string;
      lineItems: readonly InvoiceLineItem[];
      memo?: string;
      metadata?: Record<string, unknown>;
    },
  ): Promise<Invoice>;
}

export interface CollectionDeps extends ServiceDeps<InvoiceCollectionStore> {
  expiries: ExpiryScheduler;
  parties: Pick<InvoiceParties, 'paymentMethodForCharge'>;
  log: Pick<Console, 'error'>;
}

/** Who acts when a clock does (settlement, recurring runs, retries): audited as SYSTEM. */
export const COLLECTION_ACTOR: Actor = { actorType: 'SYSTEM', actorId: 'invoice-collection', ipAddress: '127.0.0.1' };
