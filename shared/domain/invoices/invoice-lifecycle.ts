import { assertAccessible, scopeOf } from '../access.js';
import type { AuditAction } from '../audit/actions.js';
import { ApiError, validationError } from '../errors.js';
import { formatAmount } from '../money.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import { INVOICE_PAGES, type InvoiceKernel, type InvoiceServiceDeps } from './invoice-kernel.js';
import { invoiceNumberOf, newInvoiceSlug, priceLines, type LineItemInput } from './invoice-rules.js';
import { INVOICE_STATES } from './invoice-states.js';
import type { PresentableInvoice } from './invoice-view.js';
import type { InvoiceFilter } from './ports.js';
import type { Invoice } from './types.js';

export interface CreateInvoiceInput {
  walletId: string;
  customerId: string;
  lineItems: readonly LineItemInput[];
  memo?: string | undefined;
  dueDate?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Rounds of a finalize: each loses only to another finalize of the organization environment numbered meanwhile. */
const MAX_NUMBERING_ROUNDS = 5;

/** Creating, reading, finalizing, voiding an invoice and its checkout URL (interface-spec 4.9). */
export function invoiceLifecycle(deps: InvoiceServiceDeps, kernel: InvoiceKernel) {
  const { store, clock, ids, parties } = deps;
  const { withUrl, load, invalidState, auditOf, eventOf } = kernel;

  /**
   * A DRAFT invoice: the wallet must be visible to the key (an agent key: its own), ACTIVE and in
   * USD; the customer visible to the key (customers' rules). Lines priced exactly (invoice-rules.ts).
   */
  /** `action` null: no audit entry of its own (the one-off charge audits the whole as one action). */
  async function create(
    ctx: RequestContext,
    action: AuditAction | null,
    input: CreateInvoiceInput,
    invoiceId: string = ids('invoice'),
  ): Promise<Invoice> {
    const scope = scopeOf(ctx.principal);
    const { lineItems, total } = priceLines(input.lineItems);
    const wallet = assertAccessible(ctx.principal, await store.getWallet(input.walletId), input.walletId);
    if (wallet.status !== 'ACTIVE') throw new ApiError('WALLET_FROZEN', undefined, { walletId: wallet.id });
    if (wallet.currency !== 'USD') throw validationError('walletId', 'invoices are paid into a USD wallet');
    const customer = await parties.customerFor(ctx, input.customerId);
    const at = clock.now().toISOString();
    const invoice: Invoice = {
      id: invoiceId,
      ...scope,
      walletId: wallet.id,
      customerId: customer.id,
      status: 'DRAFT',
      currency: 'USD',
      lineItems,
      total: formatAmount(total),
      amountPaid: '0.00',
      ...(input.memo !== undefined ? { memo: input.memo } : {}),
      ...(input.dueDate !== undefined ? { dueDate: input.dueDate } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      number: null,
      slug: null,
      createdAt: at,
    };
    await store.commit([
      { type: 'putInvoice', invoice },
      ...(action ? [auditOf(ctx.actor, invoice, action, at, { customerId: invoice.customerId })] : []),
      eventOf('invoice.created', invoice, at),
    ]);
    return invoice;
  }

  /** An agent key lists its own wallet's invoices only (a `walletId` of another wallet: WALLET_NOT_FOUND). */
  async function list(
    ctx: RequestContext,
    filter: InvoiceFilter,
    page: PageRequest,
  ): Promise<Page<PresentableInvoice>> {
    const scope = scopeOf(ctx.principal);
    const walletId = filter.walletId ?? ctx.principal.walletId ?? undefined;
    if (walletId !== undefined) assertAccessible(ctx.principal, await store.getWallet(walletId), walletId);
    const found = await store.listInvoices(scope, { ...filter, walletId }, page);
    return { ...found, items: found.items.map(withUrl) };
  }

  const get = async (ctx: RequestContext, invoiceId: string) => withUrl(await load(ctx, invoiceId));

  /**
   * DRAFT -> FINALIZED: the next number of the organization environment (a counter moved in the
   * same transaction), a slug of >= 128 random bits and the hosted URL. Another invoice numbered
   * meanwhile: read the counter again and retry.
   */
  async function finalize(
    ctx: RequestContext,
    action: AuditAction | null,
    invoiceId: string,
  ): Promise<PresentableInvoice> {
    for (let round = 1; ; round++) {
      const invoice = await load(ctx, invoiceId);
      if (!canTransition(INVOICE_STATES, invoice.status, 'finalize'))
        throw invalidState(invoice, 'only a DRAFT invoice can be finalized');
      const sequence = (await store.lastInvoiceSequence(invoice)) + 1;
      const at = clock.now().toISOString();
      const finalized: Invoice = {
        ...invoice,
        status: INVOICE_STATES.finalize.to,
        number: invoiceNumberOf(sequence),
        slug: newInvoiceSlug(),
        finalizedAt: at,
      };
      try {
        await store.commit([
          {
            type: 'finalizeInvoice',
            invoiceId: invoice.id,
            organizationId: invoice.organizationId,
            environment: invoice.environment,
            sequence,
            number: finalized.number!,
            slug: finalized.slug!,
            finalizedAt: at,
          },
          ...(action ? [auditOf(ctx.actor, finalized, action, at)] : []),
          eventOf('invoice.finalized', finalized, at),
        ]);
        return withUrl(finalized);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'CONCURRENT_UPDATE' || round >= MAX_NUMBERING_ROUNDS)
          throw error;
      }
    }
  }

  /** The hosted checkout page of a FINALIZED invoice (card or US bank account). */
  async function checkout(ctx: RequestContext, action: AuditAction, invoiceId: string): Promise<{ url: string }> {
    const invoice = await load(ctx, invoiceId);
    if (invoice.status !== 'FINALIZED' || !invoice.slug)
      throw invalidState(invoice, 'only a FINALIZED invoice can be paid');
    await store.commit([auditOf(ctx.actor, invoice, action, clock.now().toISOString())]);
    return { url: deps.hostedUrl(INVOICE_PAGES.checkout(invoice.slug)) };
  }

  /** FINALIZED (unpaid, no bank debit in flight) -> VOIDED. */
  async function voidInvoice(ctx: RequestContext, action: AuditAction, invoiceId: string): Promise<PresentableInvoice> {
    const invoice = await load(ctx, invoiceId);
    if (!canTransition(INVOICE_STATES, invoice.status, 'void'))
      throw invalidState(invoice, 'only a FINALIZED, unpaid invoice can be voided');
    const at = clock.now().toISOString();
    const voided: Invoice = { ...invoice, status: INVOICE_STATES.void.to, voidedAt: at };
    await store.commit([
      { type: 'transitionInvoice', invoiceId: invoice.id, trigger: 'void', set: { voidedAt: at }, pending: 'none' },
      auditOf(ctx.actor, voided, action, at),
      eventOf('invoice.voided', voided, at),
    ]);
    return withUrl(voided);
  }

  return { create, list, get, finalize, checkout, void: voidInvoice };
}
