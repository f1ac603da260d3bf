import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { IdempotencyChange, IdempotencyStore } from '../idempotency/ports.js';
import type { PostingChange } from '../ledger/posting.js';
import type { PaymentMethodType } from '../payment-methods/processor.js';
import type { Environment, OrganizationScope, RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { WalletReader } from '../wallets/ports.js';
import type { InvoiceTrigger } from './invoice-states.js';
import type { Invoice, InvoiceDeclines, InvoiceStatus, PendingInvoicePayment } from './types.js';

/**
 * What an invoice writes, besides its movements, audit entries, events and idempotency answers.
 * Every status change is conditioned on the state table's `from` states of its trigger (a failed
 * condition: INVOICE_NOT_FOUND when absent, 409 INVALID_STATE otherwise).
 */
export type InvoiceChange =
  /** A new invoice (DRAFT). */
  | { type: 'putInvoice'; invoice: Invoice }
  /**
   * DRAFT -> FINALIZED with its number and slug, in one transaction with the slug's pointer item
   * (slug -> invoice, never taken twice) and the organization environment's number counter moved
   * from `sequence - 1` to `sequence` (CONCURRENT_UPDATE when another finalize took it meanwhile).
   */
  | {
      type: 'finalizeInvoice';
      invoiceId: string;
      organizationId: string;
      environment: Environment;
      sequence: number;
      number: string;
      slug: string;
      finalizedAt: string;
    }
  /**
   * A transition by the state table with fields set. `pending`: `none` also requires no bank debit
   * in flight (a card payment, a void); `{processorChargeId}` requires exactly that debit in flight
   * and clears it (its settlement). The pending debit is removed by every transition.
   */
  | {
      type: 'transitionInvoice';
      invoiceId: string;
      trigger: InvoiceTrigger;
      set: Partial<Invoice>;
      pending?: 'none' | { processorChargeId: string };
    }
  /** A bank debit accepted by the processor: recorded on a FINALIZED invoice that has none in flight. */
  | { type: 'startInvoicePendingPayment'; invoiceId: string; pendingPayment: PendingInvoicePayment }
  /** A bank debit that failed: cleared (the invoice stays FINALIZED, payable again). */
  | { type: 'clearInvoicePendingPayment'; invoiceId: string; processorChargeId: string }
  /** A declined payment counted (conditioned on the count read: a concurrent decline is CONCURRENT_UPDATE). */
  | { type: 'recordInvoiceDecline'; invoiceId: string; declines: InvoiceDeclines; previousCount: number };

export interface InvoiceFilter {
  walletId?: string | undefined;
  customerId?: string | undefined;
  status?: InvoiceStatus | undefined;
}

export interface InvoiceStore
  extends
    WalletReader,
    Omit<IdempotencyStore, 'commit'>,
    ChangeCommitter<InvoiceChange | PostingChange | IdempotencyChange | AuditChange> {
  getInvoice(invoiceId: string): Promise<Invoice | undefined>;
  /** The invoice a slug names (through its pointer item), or undefined. */
  getInvoiceBySlug(slug: string): Promise<Invoice | undefined>;
  /** The last number handed out in the organization environment (0 before the first finalize). */
  lastInvoiceSequence(scope: OrganizationScope): Promise<number>;
  /** Newest first; `walletId` and `customerId` read their index, `status` filters. */
  listInvoices(scope: OrganizationScope, filter: InvoiceFilter, page: PageRequest): Promise<Page<Invoice>>;
}

/** A customer as invoices need it (the customers area answers; its visibility rules apply). */
export interface InvoiceCustomer {
  id: string;
  name: string;
  email: string;
}

/** A saved method ready to charge (customers' `paymentMethodForCharge`). */
export interface ChargeableMethod {
  id: string;
  type: PaymentMethodType;
  brand: string;
  last4: string;
  processorToken: string;
}

/**
 * What invoices ask of the customers area and the organizations (a port, so the service is tested
 * over fakes and no area's store is read twice).
 */
export interface InvoiceParties {
  /** The customer as the caller may see it (agent keys: their wallet's customers only); CUSTOMER_NOT_FOUND otherwise. */
  customerFor(ctx: RequestContext, customerId: string): Promise<InvoiceCustomer>;
  /** The customer of an invoice, for its public page (no caller); undefined if gone. */
  customerOf(scope: OrganizationScope, customerId: string): Promise<InvoiceCustomer | undefined>;
  /** The default (or the given) saved method; PAYMENT_METHOD_NOT_FOUND when none. */
  paymentMethodForCharge(
    scope: OrganizationScope,
    customerId: string,
    paymentMethodId?: string,
  ): Promise<ChargeableMethod>;
  /** The organization's name, shown on the customer's pages. */
  merchantName(organizationId: string): Promise<string>;
}
