import { invoiceCharge } from './invoice-charge.js';
import { invoiceKernel, type InvoiceServiceDeps } from './invoice-kernel.js';
import { invoiceLifecycle } from './invoice-lifecycle.js';
import { invoicePayments } from './invoice-payments.js';

export type { InvoiceServiceDeps } from './invoice-kernel.js';

/**
 * Invoices (interface-spec 2.10, 3.5, 4.9; decisions.md sections 2, 3 and 6), by job:
 * invoice-lifecycle.ts (create, list, get, finalize, checkout, void), invoice-payments.ts (paying
 * by card or bank account, the bank debit's settlement hook, refund, the public reads by slug),
 * invoice-charge.ts (the one-off charge, idempotent). Mutating methods take (ctx, action, ...).
 */
export function createInvoiceService(deps: InvoiceServiceDeps) {
  const kernel = invoiceKernel(deps);
  const lifecycle = invoiceLifecycle(deps, kernel);
  const payments = invoicePayments(deps, kernel);
  const { charge } = invoiceCharge(deps, kernel, lifecycle, payments);
  return {
    create: lifecycle.create,
    list: lifecycle.list,
    get: lifecycle.get,
    finalize: lifecycle.finalize,
    checkout: lifecycle.checkout,
    void: lifecycle.void,
    refund: payments.refund,
    charge,
    getPayable: payments.getPayable,
    checkoutBySlug: payments.checkoutBySlug,
    payBySlug: payments.payBySlug,
    /** The hook of the ACH settlement (the collection's scheduler calls it when a bank debit's settlement time has come). */
    settlePendingPayment: payments.settlePendingPayment,
    /** Charges a FINALIZED invoice on a method (the recurring charges' next charge uses it). */
    chargeInvoice: payments.chargeInvoice,
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
