import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { createApprovalService } from '../../shared/domain/approvals/approval-service.js';
import type { ApprovalStore } from '../../shared/domain/approvals/ports.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { invoiceRefund } from '../../shared/domain/invoices/invoice-postings.js';
import { INVOICE_STATES } from '../../shared/domain/invoices/invoice-states.js';
import {
  createInvoiceWalletPayments,
  invoiceRiders,
  walletPaymentRider,
} from '../../shared/domain/invoices/invoice-wallet-payment.js';
import type { Invoice } from '../../shared/domain/invoices/types.js';
import { paymentLegs } from '../../shared/domain/payments/payment-posting.js';
import type { RiderChange } from '../../shared/domain/payments/payment-rider.js';
import { createPaymentService } from '../../shared/domain/payments/payment-service.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import type { Transaction } from '../../shared/domain/types.js';
import { createMemoryMoneyTable } from '../fakes/memory-money-table.js';
import { createMemoryPaymentStore } from '../fakes/memory-payment-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

const hostedUrl = (path: string) => `https://pay.example.test${path}`;
const AT = '2026-11-21T10:00:00.000Z';

function invoiceOf(walletId: string, organizationId: string, fields: Partial<Invoice> = {}): Invoice {
  const id = newId('invoice');
  return {
    id,
    organizationId,
    environment: 'SANDBOX',
    walletId,
    customerId: newId('customer'),
    status: 'FINALIZED',
    currency: 'USD',
    lineItems: [{ description: 'Report', quantity: 1, unitPrice: '123.45', amount: '123.45' }],
    total: '123.45',
    amountPaid: '0.00',
    number: 'INV-000001',
    slug: `slug-${id}`,
    createdAt: AT,
    finalizedAt: AT,
    ...fields,
  };
}

describe('payment legs with a fee', () => {
  const legsOf = (fee: string) =>
    paymentLegs('wal_a', 'wal_b', new Big('123.45'), new Big(fee)).map((leg) => ({
      account: leg.account.kind === 'WALLET' ? leg.account.walletId : leg.account.accountId,
      amount: leg.amount.toFixed(2),
    }));

  it('is the plain pair without a fee', () => {
    expect(legsOf('0')).toEqual([
      { account: 'wal_a', amount: '-123.45' },
      { account: 'wal_b', amount: '123.45' },
    ]);
  });

  it('debits the payer the amount, credits the payee amount - fee and acc_FEES the fee: balanced', () => {
    const legs = legsOf('0.31');
    expect(legs).toEqual([
      { account: 'wal_a', amount: '-123.45' },
      { account: 'wal_b', amount: '123.14' },
      { account: 'acc_FEES', amount: '0.31' },
    ]);
    expect(legs.reduce((sum, leg) => sum.plus(leg.amount), new Big(0)).eq(0)).toBe(true);
  });

  it('refuses a fee that is negative or not below the amount', () => {
    expect(() => paymentLegs('wal_a', 'wal_b', new Big('1.00'), new Big('1.00'))).toThrow();
    expect(() => paymentLegs('wal_a', 'wal_b', new Big('1.00'), new Big('-0.01'))).toThrow();
  });
});

describe('the refund of an invoice paid from a wallet', () => {
  it('returns the total to the paying wallet instead of acc_CUSTOMER_FUNDS', () => {
    const head = { id: 'inv_1', organizationId: 'org_a', environment: 'SANDBOX' as const, walletId: 'wal_b' };
    const accounts = (payerWalletId?: string) =>
      invoiceRefund(
        { ...head, ...(payerWalletId ? { payerWalletId } : {}) },
        'txn_r',
        new Big('50.00'),
        AT,
      ).posting.legs.map((leg) => [
        leg.account.kind === 'WALLET' ? leg.account.walletId : leg.account.accountId,
        leg.amount.toFixed(2),
      ]);
    expect(accounts('wal_a')).toEqual([
      ['wal_b', '-50.00'],
      ['wal_a', '50.00'],
    ]);
    expect(accounts()).toEqual([
      ['wal_b', '-50.00'],
      ['acc_CUSTOMER_FUNDS', '50.00'],
    ]);
  });
});

describe('the wallet payment rider of an invoice', () => {
  const deps = { ids: newId, hostedUrl };

  it.each([
    ['123.45', '0.31', '123.14'],
    ['1.00', '0.00', '1.00'],
    ['2.00', '0.01', '1.99'],
    ['40.00', '0.10', '39.90'],
  ])('withholds the Wallet row fee of %s: %s (0.25%%, half-up), netting %s', (total, fee, net) => {
    const rider = walletPaymentRider(invoiceOf('wal_b', 'org_a', { total }), deps);
    expect(rider.fee.toFixed(2)).toBe(fee);
    expect(new Big(total).minus(rider.fee).toFixed(2)).toBe(net);
  });

  it.each(['DRAFT', 'PAID', 'VOIDED', 'UNCOLLECTIBLE', 'REFUNDED'] as const)(
    'refuses an invoice that is %s with INVALID_STATE',
    (status) => {
      const refusal = walletPaymentRider(invoiceOf('wal_b', 'org_a', { status }), deps).refusal();
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toMatchObject({ code: 'INVALID_STATE', details: { status } });
    },
  );

  it('refuses a FINALIZED invoice with a bank debit in flight, accepts one without', () => {
    const pendingPayment = {
      paymentMethodType: 'us_bank_account' as const,
      processorChargeId: 'ch_1',
      brand: 'Bank',
      last4: '6789',
      startedAt: AT,
    };
    expect(walletPaymentRider(invoiceOf('wal_b', 'org_a', { pendingPayment }), deps).refusal()).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(walletPaymentRider(invoiceOf('wal_b', 'org_a'), deps).refusal()).toBeUndefined();
  });

  it("commits the invoice PAID with the payment's facts, its invoice.pay entry and invoice.paid event", () => {
    const invoice = invoiceOf('wal_b', 'org_a');
    const posted = {
      id: 'txn_1',
      organizationId: 'org_other',
      from: 'wal_a',
      postedAt: AT,
      createdAt: AT,
    } as Transaction;
    const changes = walletPaymentRider(invoice, deps).changesOnPost(posted, {
      actorType: 'API_KEY',
      actorId: 'key_of_other_org',
      ipAddress: '198.51.100.7',
    });
    const byType = (type: RiderChange['type']) => changes.filter((change) => change.type === type);
    expect(byType('transitionInvoice')).toEqual([
      {
        type: 'transitionInvoice',
        invoiceId: invoice.id,
        trigger: 'pay',
        pending: 'none',
        set: {
          amountPaid: '123.45',
          paidAt: AT,
          paymentMethodType: 'wallet',
          fees: { provider: '0.00', service: '0.31' },
          netAmount: '123.14',
          paymentTransactionId: 'txn_1',
          payerWalletId: 'wal_a',
        },
      },
    ]);
    const [audit] = byType('audit') as Extract<RiderChange, { type: 'audit' }>[];
    expect(audit!.entry).toMatchObject({
      organizationId: 'org_a',
      action: AUDIT.invoice.pay,
      resource: 'invoice',
      resourceId: invoice.id,
      metadata: { transactionId: 'txn_1', payerWalletId: 'wal_a', status: 'PAID' },
    });
    // A payer of another organization is not named by its key in the seller's log.
    expect(audit!.entry.actorId).not.toBe('key_of_other_org');
    const [event] = byType('event') as Extract<RiderChange, { type: 'event' }>[];
    expect(event!.event).toMatchObject({
      organizationId: 'org_a',
      type: 'invoice.paid',
      data: { id: invoice.id, status: 'PAID', hostedUrl: `https://pay.example.test/hosted/invoices/${invoice.slug}` },
    });
  });
});

/**
 * The seam over the fakes: the payment service and the approval service on one memory money
 * table that also holds invoices, committing the rider's transitionInvoice with the invoice
 * writer's condition (FINALIZED, no bank debit in flight).
 */
function world() {
  const table = createMemoryMoneyTable({ invoices: new Map<string, Invoice>() });
  const memory = createMemoryPaymentStore(table);
  const applyInvoice = (next: typeof table.items, change: { type: string }): boolean => {
    if (change.type !== 'transitionInvoice') return false;
    const { invoiceId, trigger, set } = change as Extract<RiderChange, { type: 'transitionInvoice' }>;
    const old = next.invoices.get(invoiceId);
    const transition = INVOICE_STATES[trigger];
    if (!old || !(transition.from as readonly string[]).includes(old.status) || old.pendingPayment)
      throw new ApiError('INVALID_STATE', `The invoice is ${old?.status}.`, { status: old?.status });
    next.invoices.set(invoiceId, { ...old, ...set, status: transition.to });
    return true;
  };
  const commit = (changes: { type: string }[]) => table.commit(changes, applyInvoice);
  const store = { ...memory.store, commit };
  const clock = fixedClock(new Date(AT));
  const base = serviceWorld(clock, table);
  const payments = createPaymentService({ ...base.deps, store });
  const invoices = {
    getInvoice: async (id: string) => table.items.invoices.get(id),
    getInvoiceBySlug: async (slug: string) => [...table.items.invoices.values()].find((i) => i.slug === slug),
  };
  const deps = { invoices, ids: newId, hostedUrl };
  const walletPayments = createInvoiceWalletPayments({ ...deps, createPayment: payments.create });
  const approvalStore: ApprovalStore = {
    getTransaction: memory.store.getTransaction,
    getWalletSnapshot: memory.store.getWalletSnapshot,
    getApproval: async (id) => table.items.approvals.get(id),
    listApprovals: async () => ({ items: [], cursor: null }),
    listExpiredApprovals: async () => [],
    commit,
  };
  const approvals = createApprovalService({ ...base.deps, store: approvalStore }, { riders: invoiceRiders(deps) });
  const addInvoice = (walletId: string, fields: Partial<Invoice> = {}) => {
    const invoice = invoiceOf(walletId, fields.organizationId ?? base.scope.organizationId, fields);
    table.items.invoices.set(invoice.id, invoice);
    return invoice;
  };
  const balanceOf = async (walletId: string) => (await memory.store.getWallet(walletId))!.balance.toFixed(2);
  // The approver: another admin key of the payer's organization.
  const approver = { ...base.ctx, principal: { ...base.ctx.principal, keyId: 'key_approver' } };
  return { ...base, table, memory, payments, walletPayments, approvals, addInvoice, balanceOf, approver };
}

const requireApproval = (walletId: string): Policy =>
  ({
    id: newId('policy'),
    walletId,
    name: 'Supervised',
    maxTransactionAmount: new Big('1000'),
    requireHumanApproval: true,
    status: 'ACTIVE',
  }) as unknown as Policy;

describe('paying an invoice through the payment path (the seam)', () => {
  it('posts one balanced movement with the fee and moves the invoice to PAID in the same commit', async () => {
    const w = world();
    const payer = w.wallet('500.00');
    const payee = w.wallet('0');
    const invoice = w.addInvoice(payee);

    const answer = await w.walletPayments.payFromWallet(w.agentCtx(payer), AUDIT.payment.create, invoice.slug!, {
      walletId: payer,
    });

    expect(answer).toMatchObject({ status: 200, body: { fee: '0.31', amount: '123.45', invoiceId: invoice.id } });
    expect(await w.balanceOf(payer)).toBe('376.55');
    expect(await w.balanceOf(payee)).toBe('123.14');
    const id = (answer.body as { id: string }).id;
    expect(w.table.items.journal.get(id)!.legs!.map((leg) => [leg.account, leg.amount.toFixed(2)])).toEqual([
      [payer, '-123.45'],
      [payee, '123.14'],
      ['acc_FEES', '0.31'],
    ]);
    expect(w.table.items.invoices.get(invoice.id)).toMatchObject({ status: 'PAID', paymentTransactionId: id });
  });

  it('moves nothing when the invoice changed before the commit (the invoice condition fails the whole transaction)', async () => {
    const w = world();
    const payer = w.wallet('500.00');
    const payee = w.wallet('0');
    const invoice = w.addInvoice(payee);
    // Read FINALIZED by the rider, VOIDED by the time of the commit.
    w.table.items.invoices.set(invoice.id, { ...invoice, status: 'VOIDED' });
    const stale = createInvoiceWalletPayments({
      invoices: { getInvoice: async () => invoice, getInvoiceBySlug: async () => invoice },
      ids: newId,
      hostedUrl,
      createPayment: w.payments.create,
    });

    const refusal = await refusalOf(
      stale.payFromWallet(w.agentCtx(payer), AUDIT.payment.create, invoice.slug!, { walletId: payer }),
    );

    expect(refusal).toMatchObject({ code: 'INVALID_STATE' });
    expect(await w.balanceOf(payer)).toBe('500.00');
    expect(await w.balanceOf(payee)).toBe('0.00');
    expect(w.table.items.journal.size).toBe(0);
  });

  it('refuses a second payment of a PAID invoice with INVALID_STATE, after the key replay', async () => {
    const w = world();
    const payer = w.wallet('500.00');
    const payee = w.wallet('0');
    const invoice = w.addInvoice(payee);
    const ctx = w.agentCtx(payer);
    const first = await w.walletPayments.payFromWallet(ctx, AUDIT.payment.create, invoice.slug!, {
      walletId: payer,
      idempotencyKey: 'k1',
    });

    const replay = await w.walletPayments.payFromWallet(ctx, AUDIT.payment.create, invoice.slug!, {
      walletId: payer,
      idempotencyKey: 'k1',
    });
    const again = refusalOf(
      w.walletPayments.payFromWallet(ctx, AUDIT.payment.create, invoice.slug!, { walletId: payer }),
    );

    expect(replay.body).toEqual(first.body);
    expect(await again).toMatchObject({ code: 'INVALID_STATE' });
    expect(await w.balanceOf(payer)).toBe('376.55');
  });

  it('queues for approval (202) with the invoice still FINALIZED; approving posts the payment and pays the invoice', async () => {
    const w = world();
    const payer = w.wallet('500.00');
    const payee = w.wallet('0');
    w.memory.addPolicy(payer, requireApproval(payer));
    const invoice = w.addInvoice(payee);

    const answer = await w.walletPayments.payFromWallet(w.agentCtx(payer), AUDIT.payment.create, invoice.slug!, {
      walletId: payer,
    });
    expect(answer.status).toBe(202);
    const { approvalId, transactionId } = (answer.body as { error: { details: Record<string, string> } }).error
      .details as { approvalId: string; transactionId: string };
    expect(w.table.items.invoices.get(invoice.id)!.status).toBe('FINALIZED');
    expect(await w.memory.store.getTransaction(transactionId)).toMatchObject({
      status: 'QUEUED',
      invoiceId: invoice.id,
      fee: '0.31',
    });

    const decided = await w.approvals.approve(w.approver, AUDIT.approval.approve, approvalId, undefined);

    expect(decided.status).toBe('APPROVED');
    expect(w.table.items.invoices.get(invoice.id)).toMatchObject({
      status: 'PAID',
      paymentTransactionId: transactionId,
    });
    expect(await w.balanceOf(payer)).toBe('376.55');
    expect(await w.balanceOf(payee)).toBe('123.14');
    expect(w.table.items.journal.get(transactionId)!.legs).toHaveLength(3);
  });

  it.each(['VOIDED', 'PAID'] as const)(
    'fails the approval with INVALID_STATE and moves nothing when the invoice is %s by then',
    async (status) => {
      const w = world();
      const payer = w.wallet('500.00');
      const payee = w.wallet('0');
      w.memory.addPolicy(payer, requireApproval(payer));
      const invoice = w.addInvoice(payee);
      const answer = await w.walletPayments.payFromWallet(w.agentCtx(payer), AUDIT.payment.create, invoice.slug!, {
        walletId: payer,
      });
      const { approvalId, transactionId } = (answer.body as { error: { details: Record<string, string> } }).error
        .details as { approvalId: string; transactionId: string };
      w.table.items.invoices.set(invoice.id, { ...invoice, status });

      const decided = await w.approvals.approve(w.approver, AUDIT.approval.approve, approvalId, undefined);

      expect(decided).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_STATE' });
      expect(await w.memory.store.getTransaction(transactionId)).toMatchObject({
        status: 'FAILED',
        failureCode: 'INVALID_STATE',
      });
      expect(await w.balanceOf(payer)).toBe('500.00');
      expect(await w.balanceOf(payee)).toBe('0.00');
    },
  );

  it('answers INVOICE_NOT_FOUND for an unknown slug and for an invoice of another environment of another organization', async () => {
    const w = world();
    const payer = w.wallet('500.00');
    const invoice = w.addInvoice(w.wallet('0'), { environment: 'PRODUCTION', organizationId: 'org_other' });
    expect(
      await refusalOf(w.walletPayments.payFromWallet(w.ctx, AUDIT.payment.create, 'nope', { walletId: payer })),
    ).toMatchObject({ code: 'INVOICE_NOT_FOUND' });
    expect(
      await refusalOf(w.walletPayments.payFromWallet(w.ctx, AUDIT.payment.create, invoice.slug!, { walletId: payer })),
    ).toMatchObject({ code: 'INVOICE_NOT_FOUND' });
  });
});
