import { hostedUrl } from '../../config/hosted-urls.js';
import {
  createInvoiceWalletPayments,
  invoiceRiders,
  type InvoiceReader,
  type InvoiceWalletPayments,
} from '../../domain/invoices/invoice-wallet-payment.js';
import type { PaymentRiders } from '../../domain/payments/payment-rider.js';
import { createInvoiceStore } from '../../persistence/invoice-store.js';
import type { Core } from '../core.js';
import { paymentService } from './payments.js';

const walletPaymentDeps = (core: Core, invoices: InvoiceReader) => ({
  invoices,
  ids: core.deps.ids,
  hostedUrl: (path: string) => hostedUrl(core.config, path),
});

/** The riders of queued invoice payments, for the approval service (approvals.ts). */
export function invoicePaymentRiders(core: Core): PaymentRiders {
  return invoiceRiders(walletPaymentDeps(core, createInvoiceStore(core.table)));
}

/** Paying an invoice from a wallet: the invoice read by its slug, paid through the payment service. */
export function invoiceWalletPaymentService(
  core: Core,
  { store = createInvoiceStore(core.table) }: { store?: InvoiceReader } = {},
): InvoiceWalletPayments {
  const payments = paymentService(core);
  return createInvoiceWalletPayments({ ...walletPaymentDeps(core, store), createPayment: payments.create });
}
