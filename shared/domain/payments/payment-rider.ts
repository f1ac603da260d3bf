import type Big from 'big.js';
import type { AuditChange } from '../audit/ports.js';
import type { InvoiceChange } from '../invoices/ports.js';
import type { Actor } from '../tenancy.js';
import type { Transaction } from '../types.js';

/**
 * The one change of another area a payment may commit with its posting: the invoice it pays
 * moving FINALIZED -> PAID (invoices' own writer and condition), with that area's audit entry and
 * event. The payments and approvals areas know this type, never how it is built.
 */
export type RiderChange = Extract<InvoiceChange, { type: 'transitionInvoice' }> | AuditChange;

/**
 * What a payment carries for the thing it pays (decisions.md section 6: an invoice paid from a
 * wallet, `POST /v1/invoices/pay/{slug}/wallet`). Declared here, built by the paid area
 * (shared/domain/invoices/invoice-wallet-payment.ts). The payment stays a payment: the payer's
 * policies, approvals, period spend and idempotency apply as for any other; the rider only adds
 *
 * - `invoiceId` on the journal record (queued or posted), so the approval finds the rider again;
 * - `fee`, withheld from the payee's credit and posted to acc_FEES in the same posting;
 * - `refusal()`, checked after the key's replay check (a replay answers the first answer even
 *   when the invoice has been paid since);
 * - `changesOnPost`, committed in the posting's transaction: a payment and its invoice move
 *   together or not at all.
 */
export interface PaymentRider {
  invoiceId: string;
  /** >= 0 and below the amount, 2 decimals. */
  fee: Big;
  /** Why the thing can not be paid now (thrown as is), or undefined. */
  refusal(): Error | undefined;
  /** The paid area's changes, given the payment as it posts and who made it post. */
  changesOnPost(posted: Transaction, actor: Actor): RiderChange[];
}

/**
 * Finds the rider of a queued payment when its approval is approved (the invoice read again:
 * it may have been paid otherwise or voided meanwhile, which `refusal()` then says).
 */
export interface PaymentRiders {
  riderOf(queued: Transaction & { invoiceId: string }): Promise<PaymentRider>;
}

/** Without a rider resolver, an approval never posts a payment that pays an invoice. */
export const NO_RIDERS: PaymentRiders = {
  riderOf: (queued) => Promise.reject(new Error(`no rider resolver for the invoice of ${queued.id}`)),
};
