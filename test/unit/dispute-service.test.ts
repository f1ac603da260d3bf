import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { createDisputeService } from '../../shared/domain/disputes/dispute-service.js';
import { DISPUTE_RESPONSE_MS } from '../../shared/domain/disputes/dispute-rules.js';
import type { Dispute } from '../../shared/domain/disputes/types.js';
import { newId } from '../../shared/domain/ids.js';
import { legsOf } from '../../shared/domain/ledger/journal.js';
import { SYSTEM_ACCOUNTS } from '../../shared/domain/ledger/posting.js';
import { paymentPosting } from '../../shared/domain/payments/payment-posting.js';
import { createPaymentService } from '../../shared/domain/payments/payment-service.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { Transaction } from '../../shared/domain/types.js';
import { createMemoryDisputeStore } from '../fakes/memory-dispute-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

const AT = '2026-11-27T10:00:00.000Z';
const DAY = 24 * 3600_000;

const operatorCtx: RequestContext = {
  principal: {
    kind: 'OPERATOR',
    keyId: 'key_operator',
    organizationId: null,
    environment: null,
    permissions: ['service:admin'],
    walletId: null,
  },
  actor: { actorType: 'API_KEY', actorId: 'key_operator', ipAddress: '192.0.2.1' },
  requestId: 'req_op',
};

function disputeWorld(options: { startFails?: boolean } = {}) {
  const clock = fixedClock(new Date(AT));
  const memory = createMemoryDisputeStore();
  const payer = serviceWorld(clock, memory.table);
  const payee = serviceWorld(clock, memory.table);
  const outsider = serviceWorld(clock, memory.table);
  const started: { id: string; respondBy: string }[] = [];
  const errors: unknown[] = [];
  const service = createDisputeService({
    ...payer.deps,
    store: memory.store,
    workflows: {
      start: async (dispute) => {
        if (options.startFails) throw new Error('no workflow today');
        started.push({ id: dispute.id, respondBy: dispute.respondBy });
      },
    },
    log: { error: (...args: unknown[]) => void errors.push(args) },
  });
  const payerWallet = payer.wallet('100.00');
  const payeeWallet = payee.wallet('100.00');
  const payeeMain = payee.wallet('0.00', { isMain: true, walletType: 'ORG' });
  memory.setMainWallet(payee.scope, payeeMain);

  /** A POSTED payment between two wallets, written as the payments area writes it. */
  async function paid(amount: string, overrides: Partial<Transaction> = {}, from = payerWallet, to = payeeWallet) {
    const fromWallet = (await memory.store.getWallet(from))!;
    const toWallet = (await memory.store.getWallet(to))!;
    const transaction: Transaction = {
      id: newId('transaction'),
      type: 'PAYMENT',
      organizationId: fromWallet.organizationId,
      environment: 'SANDBOX',
      from,
      to,
      payeeOrganizationId: toWallet.organizationId,
      amount,
      fee: '0.00',
      currency: 'USD',
      status: 'POSTED',
      createdAt: clock.now().toISOString(),
      postedAt: clock.now().toISOString(),
      ...overrides,
    };
    await memory.store.commit([
      paymentPosting({ transaction, record: 'create', actor: payer.ctx.actor, auditAction: AUDIT.payment.create }),
    ]);
    return transaction;
  }

  const balance = async (walletId: string) => (await memory.store.getWallet(walletId))!.balance.toFixed(2);
  /** acc_SUSPENSE: the sum of its legs in the journal. */
  const suspense = () =>
    [...memory.table.items.journal.values()]
      .flatMap((record) => legsOf(record))
      .filter((leg) => leg.account === SYSTEM_ACCOUNTS.suspense)
      .reduce((sum, leg) => sum.plus(leg.amount), new Big(0))
      .toFixed(2);
  const open = async (body: Record<string, unknown>, ctx = payer.ctx, key?: string) => {
    const response = await service.open(ctx, AUDIT.dispute.create, body as never, key);
    return response.body as ReturnType<typeof JSON.parse> & { id: string; status: string };
  };
  const respond = (id: string, ctx = payee.ctx, response = 'Delivered on time.') =>
    service.respond(ctx, AUDIT.dispute.respond, id, { response, evidenceUrl: 'https://example.com/log' });
  const resolve = (id: string, outcome: Dispute['status'], note?: string) =>
    service.resolve(operatorCtx, AUDIT.dispute.resolve, id, { outcome: outcome as never, note });
  return {
    clock,
    memory,
    payer,
    payee,
    outsider,
    service,
    started,
    errors,
    payerWallet,
    payeeWallet,
    payeeMain,
    paid,
    balance,
    suspense,
    open,
    respond,
    resolve,
  };
}

describe('dispute service: opening', () => {
  it('holds the amount in suspense, marks the payment, writes both parties audit entries and events, starts the deadline', async () => {
    const w = disputeWorld();
    const payment = await w.paid('40.00');

    const response = await w.service.open(w.payer.ctx, AUDIT.dispute.create, {
      transactionId: payment.id,
      type: 'SERVICE_ISSUE',
      amount: '25.00',
      reason: 'Never delivered',
    });

    expect(response.status).toBe(201);
    const dispute = response.body as { id: string; respondBy: string };
    expect(dispute).toMatchObject({
      status: 'OPEN',
      initiatorOrgId: w.payer.scope.organizationId,
      respondentOrgId: w.payee.scope.organizationId,
      payerWalletId: w.payerWallet,
      receivingWalletId: w.payeeWallet,
      amount: '25.00',
      respondBy: new Date(Date.parse(AT) + DISPUTE_RESPONSE_MS).toISOString(),
      resolvedBy: null,
      creditedWalletId: null,
    });
    expect(dispute).not.toHaveProperty('requestedByKeyId');
    expect(await w.balance(w.payeeWallet)).toBe('115.00');
    expect(await w.balance(w.payerWallet)).toBe('60.00');
    expect(w.suspense()).toBe('25.00');
    expect(w.memory.table.items.journal.get(payment.id)!.disputeId).toBe(dispute.id);
    expect(w.started).toEqual([{ id: dispute.id, respondBy: dispute.respondBy }]);
    expect(w.memory.table.events.map((e) => [e.type, e.organizationId])).toEqual([
      ['dispute.created', w.payer.scope.organizationId],
      ['dispute.created', w.payee.scope.organizationId],
    ]);
    expect(w.memory.table.audit.map((e) => [e.organizationId, e.actorType, e.actorId, e.walletId])).toEqual([
      [w.payer.scope.organizationId, 'API_KEY', 'key_admin', w.payerWallet],
      [w.payee.scope.organizationId, 'SYSTEM', 'dispute-initiator', w.payeeWallet],
    ]);
    const hold = w.memory.table.items.journal.get((response.body as { holdTransactionId: string }).holdTransactionId)!;
    expect(hold).toMatchObject({
      type: 'DISPUTE',
      organizationId: w.payee.scope.organizationId,
      disputeId: dispute.id,
    });
  });

  it('refuses in the documented order', async () => {
    const w = disputeWorld();
    const payment = await w.paid('40.00');
    const body = (overrides: Record<string, unknown> = {}) => ({
      transactionId: payment.id,
      type: 'FRAUD',
      amount: '10.00',
      reason: 'r',
      ...overrides,
    });
    const refused = (input: Record<string, unknown>, ctx = w.payer.ctx) =>
      refusalOf(w.service.open(ctx, AUDIT.dispute.create, input as never));

    expect(await refused(body({ transactionId: 'txn_unknown' }))).toEqual({
      code: 'TRANSACTION_NOT_FOUND',
      details: { field: 'transactionId' },
    });
    expect(await refused(body(), w.outsider.ctx)).toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
    expect(await refused(body(), w.payee.ctx)).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await refused(body(), w.payee.agentCtx(w.payeeWallet))).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await refused(body(), w.payer.agentCtx(w.payer.wallet('1.00')))).toMatchObject({
      code: 'TRANSACTION_NOT_FOUND',
    });
    const own = await w.paid('5.00', {}, w.payerWallet, w.payer.wallet('0.00'));
    expect(await refused(body({ transactionId: own.id }))).toMatchObject({ code: 'DISPUTE_NOT_ALLOWED' });
    const invoicePaid = await w.paid('5.00', { invoiceId: 'inv_1' });
    expect(await refused(body({ transactionId: invoicePaid.id }))).toMatchObject({ code: 'DISPUTE_NOT_ALLOWED' });
    const reversed = await w.paid('5.00', { status: 'REVERSED' });
    expect(await refused(body({ transactionId: reversed.id }))).toEqual({
      code: 'INVALID_STATE',
      details: { status: 'REVERSED' },
    });
    expect(await refused(body({ respondentOrgId: w.outsider.scope.organizationId }))).toEqual({
      code: 'VALIDATION_ERROR',
      details: { field: 'respondentOrgId' },
    });
    expect(await refused(body({ amount: '40.01' }))).toEqual({
      code: 'VALIDATION_ERROR',
      details: { field: 'amount' },
    });
    expect(await refused(body({ amount: '0' }))).toMatchObject({ code: 'INVALID_AMOUNT' });

    const first = await w.open(body({ respondentOrgId: w.payee.scope.organizationId }));
    expect(await refused(body())).toEqual({ code: 'DISPUTE_EXISTS', details: { disputeId: first.id } });
  });

  it('says INSUFFICIENT_FUNDS with nothing of the respondent, and moves nothing', async () => {
    const w = disputeWorld();
    const payment = await w.paid('40.00');
    await w.paid('130.00', {}, w.payeeWallet, w.payee.wallet('0.00'));

    expect(await refusalOf(w.open({ transactionId: payment.id, type: 'FRAUD', amount: '20.00', reason: 'r' }))).toEqual(
      { code: 'INSUFFICIENT_FUNDS' },
    );
    expect(await w.balance(w.payeeWallet)).toBe('10.00');
    expect(w.suspense()).toBe('0.00');
    expect(w.memory.table.items.journal.get(payment.id)!.disputeId).toBeUndefined();
  });

  it('debits a FROZEN receiving wallet (a paused agent); refuses a closed one (a deleted agent)', async () => {
    const w = disputeWorld();
    const agentWallet = w.payee.wallet('50.00');
    const toAgent = await w.paid('10.00', {}, w.payerWallet, agentWallet);
    const toClosed = await w.paid('10.00', {}, w.payerWallet, w.payeeWallet);
    const set = (walletId: string, fields: Record<string, unknown>) => {
      const row = w.memory.table.items.wallets.get(walletId)!;
      w.memory.table.items.wallets.set(walletId, { ...row, wallet: { ...row.wallet, ...fields } });
    };
    set(agentWallet, { status: 'FROZEN' });
    set(w.payeeWallet, { status: 'FROZEN', deletedAt: AT });

    await w.open({ transactionId: toAgent.id, type: 'FRAUD', amount: '10.00', reason: 'r' });
    expect(await w.balance(agentWallet)).toBe('50.00');
    expect(
      await refusalOf(w.open({ transactionId: toClosed.id, type: 'FRAUD', amount: '10.00', reason: 'r' })),
    ).toMatchObject({ code: 'DISPUTE_NOT_ALLOWED' });
  });

  it('opens once per key: the same key and body answers the first dispute, a stored refusal again', async () => {
    const w = disputeWorld();
    const payment = await w.paid('40.00');
    const body = { transactionId: payment.id, type: 'FRAUD', amount: '10.00', reason: 'r' };
    const first = await w.service.open(w.payer.ctx, AUDIT.dispute.create, body as never, 'k-1');
    const again = await w.service.open(w.payer.ctx, AUDIT.dispute.create, body as never, 'k-1');
    expect(again).toMatchObject({ status: 201, replayed: true, body: first.body });
    expect(w.suspense()).toBe('10.00');
    expect(
      await refusalOf(w.service.open(w.payer.ctx, AUDIT.dispute.create, { ...body, amount: '9.00' } as never, 'k-1')),
    ).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSE' });
    const refused = await w.service.open(w.payer.ctx, AUDIT.dispute.create, body as never, 'k-2');
    expect(refused).toMatchObject({ status: 409, replayed: false });
    expect(await w.service.open(w.payer.ctx, AUDIT.dispute.create, body as never, 'k-2')).toMatchObject({
      status: 409,
      replayed: true,
    });
  });

  it('logs a workflow that does not start; the dispute stays OPEN', async () => {
    const w = disputeWorld({ startFails: true });
    const payment = await w.paid('40.00');
    const dispute = await w.open({ transactionId: payment.id, type: 'FRAUD', amount: '10.00', reason: 'r' });
    expect(dispute.status).toBe('OPEN');
    expect(w.errors).toHaveLength(1);
  });

  it('starts the deadline again when the opening is replayed while the dispute is OPEN (the first start may have failed), not after it ended', async () => {
    const options = { startFails: true };
    const w = disputeWorld(options);
    const payment = await w.paid('40.00');
    const body = { transactionId: payment.id, type: 'FRAUD', amount: '10.00', reason: 'r' };
    const first = await w.open(body, w.payer.ctx, 'k-1');
    expect(w.started).toEqual([]);

    options.startFails = false;
    expect(await w.service.open(w.payer.ctx, AUDIT.dispute.create, body as never, 'k-1')).toMatchObject({
      status: 201,
      replayed: true,
    });
    expect(w.started).toEqual([{ id: first.id, respondBy: (first as { respondBy: string }).respondBy }]);

    await w.resolve(first.id, 'CLOSED');
    await w.service.open(w.payer.ctx, AUDIT.dispute.create, body as never, 'k-1');
    expect(w.started).toHaveLength(1);
  });

  it('blocks the reversal of a disputed payment, in the service and in the write', async () => {
    const w = disputeWorld();
    const payment = await w.paid('40.00');
    const dispute = await w.open({ transactionId: payment.id, type: 'FRAUD', amount: '10.00', reason: 'r' });
    const payments = createPaymentService({ ...w.payee.deps, store: w.memory.payments.store });
    expect(await refusalOf(payments.reverse(w.payee.ctx, AUDIT.payment.reverse, payment.id, undefined))).toEqual({
      code: 'REVERSAL_NOT_ALLOWED',
      details: { disputeId: dispute.id },
    });
    expect(
      await refusalOf(
        w.memory.store.commit([
          {
            type: 'setTransactionStatus',
            transactionId: payment.id,
            trigger: 'reverse',
            onMismatch: 'REVERSAL_NOT_ALLOWED',
          } as never,
        ]),
      ),
    ).toMatchObject({ code: 'REVERSAL_NOT_ALLOWED' });
  });
});

describe('dispute service: response, resolution, deadline', () => {
  async function opened(amount = '25.00') {
    const w = disputeWorld();
    const payment = await w.paid('40.00');
    const dispute = await w.open({ transactionId: payment.id, type: 'FRAUD', amount, reason: 'r' });
    return { ...w, dispute };
  }

  it('lets only the respondent answer: the initiator 403, anyone else 404', async () => {
    const w = await opened();
    expect(await refusalOf(w.respond(w.dispute.id, w.payer.ctx))).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await refusalOf(w.respond(w.dispute.id, w.outsider.ctx))).toMatchObject({ code: 'DISPUTE_NOT_FOUND' });
    expect(await refusalOf(w.respond(w.dispute.id, w.payee.agentCtx(w.payeeMain)))).toMatchObject({
      code: 'DISPUTE_NOT_FOUND',
    });
    const responded = await w.respond(w.dispute.id, w.payee.agentCtx(w.payeeWallet));
    expect(responded).toMatchObject({ status: 'RESPONDED', response: 'Delivered on time.', respondedAt: AT });
    expect(await refusalOf(w.respond(w.dispute.id))).toEqual({
      code: 'INVALID_STATE',
      details: { status: 'RESPONDED' },
    });
    expect(w.memory.table.events.map((e) => e.type)).toEqual([
      'dispute.created',
      'dispute.created',
      'dispute.responded',
      'dispute.responded',
    ]);
    expect(w.memory.table.audit.at(-1)).toMatchObject({
      organizationId: w.payee.scope.organizationId,
      action: 'dispute.respond',
      walletId: w.payeeWallet,
    });
  });

  it.each([
    ['RESOLVED_AGENT', { payer: '85.00', payee: '115.00' }],
    ['RESOLVED_MERCHANT', { payer: '60.00', payee: '140.00' }],
    ['CLOSED', { payer: '60.00', payee: '140.00' }],
  ] as const)('resolves %s: the held amount leaves suspense for the winner', async (outcome, expected) => {
    const w = await opened();
    await w.respond(w.dispute.id);
    const ended = await w.resolve(w.dispute.id, outcome, 'decided');
    expect(ended).toMatchObject({ status: outcome, resolvedBy: 'OPERATOR', resolutionNote: 'decided', resolvedAt: AT });
    expect({ payer: await w.balance(w.payerWallet), payee: await w.balance(w.payeeWallet) }).toEqual(expected);
    expect(w.suspense()).toBe('0.00');
    expect(w.memory.table.audit.slice(-2).map((e) => [e.organizationId, e.actorId])).toEqual([
      [w.payer.scope.organizationId, 'key_operator'],
      [w.payee.scope.organizationId, 'key_operator'],
    ]);
    expect(await refusalOf(w.resolve(w.dispute.id, 'CLOSED'))).toEqual({
      code: 'INVALID_STATE',
      details: { status: outcome },
    });
  });

  it('pays a closed winner wallet to its organization main wallet, a FROZEN one to itself', async () => {
    const w = await opened();
    const row = w.memory.table.items.wallets.get(w.payeeWallet)!;
    w.memory.table.items.wallets.set(w.payeeWallet, {
      ...row,
      wallet: { ...row.wallet, deletedAt: AT, status: 'FROZEN' },
    });
    const ended = await w.resolve(w.dispute.id, 'RESOLVED_MERCHANT');
    expect(ended.creditedWalletId).toBe(w.payeeMain);
    expect(await w.balance(w.payeeMain)).toBe('25.00');

    const v = await opened();
    const payerRow = v.memory.table.items.wallets.get(v.payerWallet)!;
    v.memory.table.items.wallets.set(v.payerWallet, { ...payerRow, wallet: { ...payerRow.wallet, status: 'FROZEN' } });
    expect((await v.resolve(v.dispute.id, 'RESOLVED_AGENT')).creditedWalletId).toBe(v.payerWallet);
    expect(await v.balance(v.payerWallet)).toBe('85.00');
  });

  it('refuses an unknown dispute to the operator', async () => {
    const w = await opened();
    expect(await refusalOf(w.resolve('dsp_unknown', 'CLOSED'))).toMatchObject({ code: 'DISPUTE_NOT_FOUND' });
  });

  it('runDeadline: nothing before respondBy, the lapse at it, and the status of an answered dispute', async () => {
    const w = await opened();
    expect(await w.service.runDeadline(w.dispute.id)).toEqual({ status: 'OPEN', respondBy: w.dispute.respondBy });
    w.clock.advance(7 * DAY);
    expect(await w.service.runDeadline(w.dispute.id)).toEqual({ status: 'RESOLVED_AGENT' });
    expect(await w.service.runDeadline(w.dispute.id)).toEqual({ status: 'RESOLVED_AGENT' });
    const ended = await w.service.get(w.payer.ctx, w.dispute.id);
    expect(ended).toMatchObject({ resolvedBy: 'DEADLINE', creditedWalletId: w.payerWallet });
    expect(await w.balance(w.payerWallet)).toBe('85.00');
    expect(w.memory.table.audit.slice(-2).map((e) => [e.actorType, e.actorId, e.action])).toEqual([
      ['SYSTEM', 'dispute-deadline', 'dispute.resolve'],
      ['SYSTEM', 'dispute-deadline', 'dispute.resolve'],
    ]);

    const v = await opened();
    await v.respond(v.dispute.id);
    v.clock.advance(8 * DAY);
    expect(await v.service.runDeadline(v.dispute.id)).toEqual({ status: 'RESPONDED' });
    await expect(v.service.runDeadline('dsp_unknown')).rejects.toMatchObject({ code: 'DISPUTE_NOT_FOUND' });
  });

  it('runDeadline that loses to a response answers the status found', async () => {
    const w = await opened();
    const stale = (await w.memory.store.getDispute(w.dispute.id))!;
    await w.respond(w.dispute.id);
    const read = w.memory.store.getDispute;
    let first = true;
    // The deadline reads the dispute still OPEN; the response committed before its write.
    w.memory.store.getDispute = async (id) => {
      if (!first) return read(id);
      first = false;
      return stale;
    };
    expect(await w.service.runDeadline(w.dispute.id, new Date(Date.parse(w.dispute.respondBy)))).toEqual({
      status: 'RESPONDED',
    });
    expect(w.suspense()).toBe('25.00');
  });

  it('a response at or after respondBy lapses the dispute first and is refused', async () => {
    const w = await opened();
    w.clock.advance(7 * DAY);
    expect(await refusalOf(w.respond(w.dispute.id))).toEqual({
      code: 'INVALID_STATE',
      details: { status: 'RESOLVED_AGENT' },
    });
    expect(await w.balance(w.payerWallet)).toBe('85.00');
    expect(w.suspense()).toBe('0.00');
  });
});

describe('dispute service: reads', () => {
  it('lists both sides newest first, by status, for agent keys their own wallet, with offset and hasMore', async () => {
    const w = disputeWorld();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const payment = await w.paid('5.00');
      ids.push((await w.open({ transactionId: payment.id, type: 'FRAUD', amount: '1.00', reason: 'r' })).id);
      w.clock.advance(1000);
    }
    const back = await w.paid('5.00', {}, w.payeeWallet, w.payerWallet);
    const reverse = (await w.open({ transactionId: back.id, type: 'FRAUD', amount: '1.00', reason: 'r' }, w.payee.ctx))
      .id;
    await w.respond(ids[0]!);

    const list = (ctx: RequestContext, filter = {}, page = { limit: 50, offset: 0 }) =>
      w.service.list(ctx, filter, page);
    expect((await list(w.payer.ctx)).items.map((d) => d.id)).toEqual([reverse, ...ids.reverse()]);
    ids.reverse();
    expect((await list(w.payee.ctx, { status: 'RESPONDED' })).items.map((d) => d.id)).toEqual([ids[0]]);
    expect(await list(w.payer.ctx, {}, { limit: 2, offset: 1 })).toMatchObject({ hasMore: true, limit: 2, offset: 1 });
    expect((await list(w.payer.ctx, {}, { limit: 2, offset: 2 })).hasMore).toBe(false);
    expect((await list(w.payer.agentCtx(w.payerWallet))).items).toHaveLength(4);
    expect((await list(w.payee.agentCtx(w.payeeMain))).items).toHaveLength(0);
    expect((await list(w.outsider.ctx)).items).toHaveLength(0);
    expect(await refusalOf(w.service.get(w.outsider.ctx, ids[0]!))).toMatchObject({ code: 'DISPUTE_NOT_FOUND' });
    expect(
      await refusalOf(
        w.service.get({ ...w.payer.ctx, principal: { ...w.payer.ctx.principal, environment: 'PRODUCTION' } }, ids[0]!),
      ),
    ).toMatchObject({ code: 'ENVIRONMENT_MISMATCH' });
  });
});
