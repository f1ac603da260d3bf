import Big from 'big.js';
import { scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import { ApiError, validationError } from '../errors.js';
import { formatAmount, parseAmount } from '../money.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import { evmChecksumAddress } from '../usdc/addresses.js';
import type { UsdcDeposit, UsdcReceipt, UsdcReceiptFilter, UsdcUnmatchedReason } from './collection-ports.js';
import { COLLECTION_ACTOR, type CollectionDeps, type InvoicePayingSeams } from './collection-seams.js';
import { invoiceFeesOf } from './invoice-fees.js';
import type { PresentableInvoice } from './invoice-view.js';
import type { UsdcIncomingResult } from './invoice-collection-view.js';
import { invoicePayment } from './invoice-postings.js';
import { INVOICE_STATES } from './invoice-states.js';
import type { Invoice } from './types.js';

const ADDRESS_BYTES = 20;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** 20 bytes from the CSPRNG, EIP-55 checksummed: an address no one else is given. */
export function newDepositAddress(): string {
  const bytes = new Uint8Array(ADDRESS_BYTES);
  globalThis.crypto.getRandomValues(bytes);
  return evmChecksumAddress(`0x${Buffer.from(bytes).toString('hex')}`);
}

/**
 * Paying invoices in USDC (docs/api.md "Invoices: USDC"): each FINALIZED invoice gets its own
 * deposit address (made once, kept); a transfer to it of exactly the amount due pays the invoice
 * (INVOICE_PAYMENT with the USDC fees + PAID, one transaction); anything else (another amount, an
 * address of no open invoice of the organization) credits nothing: an UNMATCHED receipt and
 * `invoice.usdc_unmatched`. The operator returns an unmatched receipt on chain to its sender.
 */
export function invoiceUsdc(deps: CollectionDeps, seams: InvoicePayingSeams) {
  const { store, clock, ids } = deps;

  /** The deposit of a FINALIZED invoice (by its slug): the same address on every request. */
  async function depositBySlug(
    slug: string,
    action: AuditAction,
    ctx: RequestContext,
  ): Promise<UsdcDeposit & { amount: string }> {
    const invoice = await store.getInvoiceBySlug(slug);
    if (!invoice) throw new ApiError('INVOICE_NOT_FOUND');
    if (invoice.status !== 'FINALIZED')
      throw new ApiError('INVALID_STATE', `The invoice is ${invoice.status}; only a FINALIZED invoice can be paid.`, {
        status: invoice.status,
      });
    const existing = await store.getUsdcDeposit(invoice.id);
    if (existing) return { ...existing, amount: invoice.total };
    const at = clock.now().toISOString();
    const deposit: UsdcDeposit = {
      invoiceId: invoice.id,
      organizationId: invoice.organizationId,
      environment: invoice.environment,
      address: newDepositAddress(),
      chain: 'Ethereum',
      createdAt: at,
    };
    try {
      await store.commit([
        { type: 'putUsdcDeposit', deposit },
        auditChange(
          {
            organizationId: invoice.organizationId,
            environment: invoice.environment,
            // No key acts: the invoice's customer does, on the hosted page.
            actor: { actorType: 'USER', actorId: invoice.customerId, ipAddress: ctx.actor.ipAddress },
            action,
            resource: 'invoice',
            resourceId: invoice.id,
            walletId: invoice.walletId,
            metadata: { address: deposit.address, chain: deposit.chain },
            createdAt: at,
          },
          ids,
        ),
      ]);
    } catch (error) {
      // Another request made it meanwhile: that one is the invoice's address.
      const made = await store.getUsdcDeposit(invoice.id);
      if (made) return { ...made, amount: invoice.total };
      throw error;
    }
    return { ...deposit, amount: invoice.total };
  }

  /** The invoice an address pays, if it is the caller's organization environment's (else as unknown). */
  async function invoiceAt(ctx: RequestContext, address: string): Promise<Invoice | undefined> {
    const scope = scopeOf(ctx.principal);
    const deposit = await store.getUsdcDepositByAddress(address);
    if (!deposit || deposit.organizationId !== scope.organizationId || deposit.environment !== scope.environment)
      return undefined;
    return store.getInvoice(deposit.invoiceId);
  }

  async function unmatched(
    ctx: RequestContext,
    action: AuditAction,
    address: string,
    amount: Big,
    reason: UsdcUnmatchedReason,
    invoice: Invoice | undefined,
  ): Promise<UsdcIncomingResult> {
    const scope = scopeOf(ctx.principal);
    const at = clock.now().toISOString();
    const receipt: UsdcReceipt = {
      id: ids('usdcReceipt'),
      ...scope,
      address,
      amount: formatAmount(amount, 'USDC'),
      ...(invoice ? { invoiceId: invoice.id, walletId: invoice.walletId } : {}),
      reason,
      status: 'UNMATCHED',
      receivedAt: at,
    };
    await store.commit([
      { type: 'putUsdcReceipt', receipt },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'usdc_receipt',
          resourceId: receipt.id,
          ...(receipt.walletId ? { walletId: receipt.walletId } : {}),
          metadata: { address, amount: receipt.amount, reason, invoiceId: receipt.invoiceId ?? null },
          createdAt: at,
        },
        ids,
      ),
      eventChange(
        {
          ...scope,
          type: 'invoice.usdc_unmatched',
          data: {
            id: receipt.id,
            object: 'usdc_receipt',
            address,
            amount: receipt.amount,
            currency: 'USDC',
            invoiceId: receipt.invoiceId ?? null,
            walletId: receipt.walletId ?? null,
            reason,
            status: 'UNMATCHED',
            environment: receipt.environment,
            receivedAt: at,
          },
          createdAt: at,
        },
        ids,
      ),
    ]);
    return { outcome: 'UNMATCHED', invoiceId: receipt.invoiceId ?? null, receiptId: receipt.id, reason };
  }

  /**
   * The posting and the state change of a payment that needs no processor charge (USDC arrived on
   * chain): INVOICE_PAYMENT with the method's fees and FINALIZED -> PAID, with its audit entry and
   * `invoice.paid`, in ONE transaction conditioned on no bank debit in flight.
   */
  async function recordPayment(ctx: RequestContext, action: AuditAction, invoice: Invoice, reference: string) {
    const at = clock.now().toISOString();
    const total = new Big(invoice.total);
    const fees = invoiceFeesOf('usdc', total);
    const txn = ids('transaction');
    const set: Partial<Invoice> = {
      amountPaid: invoice.total,
      paidAt: at,
      paymentMethodType: 'usdc',
      fees: { provider: formatAmount(fees.provider), service: formatAmount(fees.service) },
      netAmount: formatAmount(fees.net),
      processorChargeId: reference,
      paymentTransactionId: txn,
    };
    const paid: PresentableInvoice = seams.withUrl({ ...invoice, ...set, status: INVOICE_STATES.pay.to });
    await store.commit([
      { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'pay', set, pending: 'none' },
      invoicePayment(invoice, txn, total, fees, at),
      seams.auditOf(ctx.actor, paid, action, at, {
        paymentMethodType: 'usdc',
        fees: set.fees,
        netAmount: set.netAmount,
      }),
      seams.eventOf('invoice.paid', paid, at),
    ]);
    return paid;
  }

  /**
   * The sandbox chain: `amount` USDC arrived at `address`. Exactly the amount due of a FINALIZED
   * invoice of the caller's organization environment pays it; anything else is an UNMATCHED receipt.
   */
  async function incoming(
    ctx: RequestContext,
    action: AuditAction,
    input: { address: string; amount: unknown },
  ): Promise<UsdcIncomingResult> {
    if (!EVM_ADDRESS.test(input.address))
      throw validationError('address', 'must be 0x followed by 40 hexadecimal digits');
    // On chain USDC has 6 decimals: any amount that arrived is recorded exactly (matched or not).
    const amount = parseAmount(input.amount, { field: 'amount', allowNumber: false, currency: 'USDC' });
    const address = evmChecksumAddress(input.address);
    const invoice = await invoiceAt(ctx, address);
    if (!invoice) return unmatched(ctx, action, address, amount, 'unknown_address', undefined);
    if (invoice.status !== 'FINALIZED' || invoice.pendingPayment)
      return unmatched(ctx, action, address, amount, 'invoice_not_open', invoice);
    if (!amount.eq(invoice.total)) return unmatched(ctx, action, address, amount, 'amount_mismatch', invoice);
    try {
      await recordPayment(ctx, action, invoice, `usdc_${address}`);
    } catch (error) {
      // Paid (or voided) by another payment meanwhile: this transfer matched no open invoice.
      if (error instanceof ApiError && error.code === 'INVALID_STATE')
        return unmatched(ctx, action, address, amount, 'invoice_not_open', invoice);
      throw error;
    }
    return { outcome: 'PAID', invoiceId: invoice.id, receiptId: null, reason: null };
  }

  const listReceipts = (
    ctx: RequestContext,
    filter: UsdcReceiptFilter,
    page: PageRequest,
  ): Promise<Page<UsdcReceipt>> => store.listUsdcReceipts(scopeOf(ctx.principal), filter, page);

  return { depositBySlug, incoming, listReceipts, actor: COLLECTION_ACTOR };
}
