import { describe, expect, it } from 'vitest';
import { DISPUTE_RESPONSE_MS } from '../../shared/domain/disputes/dispute-rules.js';
import { disputeWorld } from '../fixtures/dispute-world.js';
import { eventually } from '../fixtures/eventually.js';
import { expectApiError, expectOk } from '../fixtures/payments-client.js';

/** The transitions driven by hand: 7 days last 10 minutes, so no dispute lapses while a slow machine runs a test. */
const TRANSITIONS_WINDOW_MS = 600_000;

describe('disputes: every transition, with exact balances, suspense and the ledger after each step', () => {
  const {
    service,
    ledger,
    payerOrg,
    payeeOrg,
    open,
    timeScale,
    postedPayment,
    openDispute,
    respond,
    resolve,
    getDispute,
    expectMoney,
    opened,
    ended,
  } = disputeWorld(TRANSITIONS_WINDOW_MS);

  it('opens: the amount leaves the receiving wallet for suspense; both parties see the dispute and the payment marked', async () => {
    const { payer, payee, paymentId, dispute } = await opened();

    expect(dispute).toMatchObject({
      id: expect.stringMatching(/^dsp_/),
      transactionId: paymentId,
      initiatorOrgId: payerOrg.organizationId,
      respondentOrgId: payeeOrg.organizationId,
      payerWalletId: payer,
      receivingWalletId: payee,
      type: 'SERVICE_ISSUE',
      amount: '25.00',
      currency: 'USD',
      status: 'OPEN',
      response: null,
      resolvedBy: null,
      creditedWalletId: null,
      environment: 'SANDBOX',
    });
    expect(Date.parse(dispute.respondBy) - Date.parse(dispute.createdAt)).toBe(
      Math.floor(DISPUTE_RESPONSE_MS / timeScale),
    );
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '25.00' });
    expect(expectOk(await getDispute(payeeOrg.key, dispute.id))).toEqual(dispute);
    for (const key of [payerOrg.key, payeeOrg.key])
      expect(expectOk(await ledger.getPayment(key, paymentId)).disputeId).toBe(dispute.id);

    // A disputed payment can not be reversed.
    const reversal = await service.call('POST', `/v1/payments/${paymentId}/reverse`, { key: payeeOrg.key, body: {} });
    expect(expectApiError(reversal, 422, 'REVERSAL_NOT_ALLOWED').details).toEqual({ disputeId: dispute.id });
    // At most one dispute per payment.
    const again = await openDispute(payerOrg.key, {
      transactionId: paymentId,
      type: 'FRAUD',
      amount: '1.00',
      reason: 'r',
    });
    expect(expectApiError(again, 409, 'DISPUTE_EXISTS').details).toEqual({ disputeId: dispute.id });

    expect((await ended(dispute.id, { outcome: 'CLOSED' })).status).toBe('CLOSED');
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '50.00' });
  });

  it('OPEN -> RESPONDED -> RESOLVED_AGENT: the held amount goes to the initiator paying wallet', async () => {
    const { payer, payee, dispute } = await opened();

    const responded = expectOk(
      await respond(payeeOrg.key, dispute.id, {
        response: 'Delivered on March 14.',
        evidenceUrl: 'https://merchant.example.com/log/1',
      }),
    );
    expect(responded).toMatchObject({
      status: 'RESPONDED',
      response: 'Delivered on March 14.',
      evidenceUrl: 'https://merchant.example.com/log/1',
      respondedAt: expect.any(String),
    });
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '25.00' });

    const resolved = await ended(dispute.id, { outcome: 'RESOLVED_AGENT', note: 'No delivery proof.' });
    expect(resolved).toMatchObject({
      status: 'RESOLVED_AGENT',
      resolvedBy: 'OPERATOR',
      resolutionNote: 'No delivery proof.',
      creditedWalletId: payer,
      resolutionTransactionId: expect.stringMatching(/^txn_/),
    });
    await expectMoney({ payer, payee }, { payer: '85.00', payee: '25.00' });

    // Both statements show the movements; the payment lists do not list them as payments.
    const statementTypes = async (key: string, walletId: string) =>
      (
        expectOk(await service.call('GET', `/v1/wallets/${walletId}/transactions`, { key })).data as { type: string }[]
      ).map((line) => line.type);
    expect(await statementTypes(payeeOrg.key, payee)).toEqual(['DISPUTE', 'PAYMENT', 'FUNDING']);
    expect(await statementTypes(payerOrg.key, payer)).toEqual(['DISPUTE_RESOLUTION', 'PAYMENT', 'FUNDING']);
    for (const [key, walletId] of [
      [payerOrg.key, payer],
      [payeeOrg.key, payee],
    ] as const) {
      const payments = expectOk(await service.call('GET', `/v1/payments?walletId=${walletId}`, { key }));
      expect((payments.data as { type: string }[]).map((p) => p.type)).toEqual(['PAYMENT']);
    }
    expect(
      expectApiError(
        await ledger.getPayment(payerOrg.key, resolved.resolutionTransactionId),
        404,
        'TRANSACTION_NOT_FOUND',
      ),
    );

    // Ended: no second resolution, no response.
    expect(expectApiError(await resolve(dispute.id, { outcome: 'CLOSED' }), 409, 'INVALID_STATE').details).toEqual({
      status: 'RESOLVED_AGENT',
    });
    expect(expectApiError(await respond(payeeOrg.key, dispute.id), 409, 'INVALID_STATE').details).toEqual({
      status: 'RESOLVED_AGENT',
    });
    await expectMoney({ payer, payee }, { payer: '85.00', payee: '25.00' });
  });

  it('OPEN -> RESPONDED -> RESOLVED_MERCHANT: the held amount returns to the receiving wallet', async () => {
    const { payer, payee, dispute } = await opened('40.00');
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '10.00' });
    expectOk(await respond(payeeOrg.key, dispute.id));
    expect(expectApiError(await respond(payeeOrg.key, dispute.id), 409, 'INVALID_STATE').details).toEqual({
      status: 'RESPONDED',
    });
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '10.00' });

    const resolved = await ended(dispute.id, { outcome: 'RESOLVED_MERCHANT' });
    expect(resolved).toMatchObject({ status: 'RESOLVED_MERCHANT', creditedWalletId: payee, resolutionNote: null });
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '50.00' });
  });

  it('emits dispute.created, .responded and .resolved to both organizations', async () => {
    const { payer, payee, dispute } = await opened();
    expectOk(await respond(payeeOrg.key, dispute.id));
    const resolved = await ended(dispute.id, { outcome: 'RESOLVED_MERCHANT' });
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '50.00' });
    await service.projected();

    for (const org of [payerOrg, payeeOrg]) {
      // Nothing is projected from the two movements: no payment.* or wallet.* event names them.
      const movements = [dispute.holdTransactionId, resolved.resolutionTransactionId];
      const all = expectOk(await service.call('GET', '/v1/events?limit=100', { key: org.key }));
      const others = JSON.stringify((all.data as { type: string }[]).filter((e) => !e.type.startsWith('dispute.')));
      for (const id of movements) expect(others).not.toContain(id);
      await eventually(async () => {
        const feed = expectOk(await service.call('GET', '/v1/events?limit=100', { key: org.key }));
        const ours = (feed.data as { type: string; data: { id: string; status: string } }[])
          .filter((event) => event.type.startsWith('dispute.') && event.data.id === dispute.id)
          .map((event) => [event.type, event.data.status])
          .sort();
        expect(ours).toEqual([
          ['dispute.created', 'OPEN'],
          ['dispute.resolved', 'RESOLVED_MERCHANT'],
          ['dispute.responded', 'RESPONDED'],
        ]);
      });
    }
  });

  it('refuses what the contract refuses, before any money moves', async () => {
    const { payer, payee, paymentId } = await postedPayment();
    const body = { transactionId: paymentId, type: 'FRAUD', amount: '10.00', reason: 'r' };
    const refused = async (key: string, overrides: Record<string, unknown>, status: number, code: string) =>
      expectApiError(await openDispute(key, { ...body, ...overrides }), status, code);

    expect((await refused(payerOrg.key, { amount: '40.01' }, 400, 'VALIDATION_ERROR')).details).toEqual({
      field: 'amount',
    });
    expect(
      (await refused(payerOrg.key, { respondentOrgId: payerOrg.organizationId }, 400, 'VALIDATION_ERROR')).details,
    ).toEqual({ field: 'respondentOrgId' });
    await refused(payerOrg.key, { amount: '0.001' }, 400, 'INVALID_AMOUNT');
    await refused(payerOrg.key, { type: 'OTHER' }, 400, 'VALIDATION_ERROR');
    await refused(payerOrg.key, { extra: true }, 400, 'VALIDATION_ERROR');
    await refused(payerOrg.key, { reason: '' }, 400, 'VALIDATION_ERROR');
    await refused(payerOrg.key, { transactionId: 'wal_1' }, 400, 'VALIDATION_ERROR');
    await refused(payerOrg.key, { transactionId: 'txn_unknown' }, 404, 'TRANSACTION_NOT_FOUND');
    await refused(payeeOrg.key, {}, 403, 'PERMISSION_DENIED');
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '50.00' });

    // A payment between the organization's own wallets, and a reversal: not disputable.
    const own = await ledger.paid(payerOrg.key, { from: payer, to: payerOrg.mainWalletId, amount: '1.00' });
    await refused(payerOrg.key, { transactionId: own.id, amount: '1.00' }, 422, 'DISPUTE_NOT_ALLOWED');
    const reversal = expectOk(
      await service.call('POST', `/v1/payments/${paymentId}/reverse`, { key: payeeOrg.key, body: {} }),
    );
    await refused(payeeOrg.key, { transactionId: reversal.id }, 422, 'DISPUTE_NOT_ALLOWED');
    expect((await refused(payerOrg.key, {}, 409, 'INVALID_STATE')).details).toEqual({ status: 'REVERSED' });
    await expectMoney({ payer, payee }, { payer: '99.00', payee: '10.00' });
  });

  it('tells the initiator INSUFFICIENT_FUNDS and nothing of the respondent when the receiving wallet lacks the amount', async () => {
    const { payer, payee, paymentId } = await postedPayment();
    await ledger.paid(payeeOrg.key, { from: payee, to: payeeOrg.mainWalletId, amount: '45.00' });

    const response = await openDispute(payerOrg.key, {
      transactionId: paymentId,
      type: 'FRAUD',
      amount: '10.00',
      reason: 'r',
    });

    const error = expectApiError(response, 402, 'INSUFFICIENT_FUNDS');
    expect(error.details).toBeUndefined();
    expect(response.text).not.toContain(payee);
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '5.00' });
  });

  it('bounds balance probing: 3 refusals for funds of a payment, then 429 with Retry-After for 24 hours', async () => {
    const { payer, payee, paymentId } = await postedPayment();
    await ledger.paid(payeeOrg.key, { from: payee, to: payeeOrg.mainWalletId, amount: '45.00' });
    const attempt = (amount: string) =>
      openDispute(payerOrg.key, { transactionId: paymentId, type: 'FRAUD', amount, reason: 'r' });

    for (const amount of ['40.00', '20.00', '10.00']) expectApiError(await attempt(amount), 402, 'INSUFFICIENT_FUNDS');
    // 5.00 is what the wallet holds: the answer no longer says so.
    const limited = await attempt('5.00');
    const retryAfter = expectApiError(limited, 429, 'RATE_LIMIT_EXCEEDED').details?.retryAfter as number;
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 120);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(limited.headers.get('retry-after')).toBe(String(retryAfter));
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '5.00' });
  });

  it("a paused agent can not open a dispute with its own key (403 WALLET_FROZEN); its organization's key can", async () => {
    const agent = await ledger.createAgent(payerOrg, 'Paused buyer');
    expectOk(
      await service.call('POST', `/v1/wallets/${payerOrg.mainWalletId}/fund`, {
        key: payerOrg.key,
        body: { amount: '50.00' },
      }),
    );
    expectOk(
      await service.call('POST', `/v1/agents/${agent.walletId}/adjust-budget`, {
        key: payerOrg.key,
        body: { amount: '50.00' },
      }),
    );
    const payee = await ledger.fundedWallet(payeeOrg, '10.00', 'Payee');
    const payment = await ledger.paid(agent.key, { from: agent.walletId, to: payee, amount: '20.00' });
    expectOk(await service.call('POST', `/v1/agents/${agent.walletId}/pause`, { key: payerOrg.key }));
    const body = { transactionId: payment.id, type: 'FRAUD', amount: '5.00', reason: 'r' };

    const refused = expectApiError(await openDispute(agent.key, body), 403, 'WALLET_FROZEN');
    expect(refused.details).toEqual({ walletId: agent.walletId });
    const dispute = expectOk(await openDispute(payerOrg.key, body), 201);
    open.set(dispute.id, '5.00');
    await expectMoney({ payer: agent.walletId, payee }, { payer: '30.00', payee: '25.00' });
    await ended(dispute.id, { outcome: 'CLOSED' });
  });

  it('opens once per Idempotency-Key: the same body answers the first dispute, another body IDEMPOTENCY_KEY_REUSE', async () => {
    const { payer, payee, paymentId } = await postedPayment();
    const body = { transactionId: paymentId, type: 'REVERSAL', amount: '5.00', reason: 'Changed my mind' };
    const first = expectOk(await openDispute(payerOrg.key, body, { 'Idempotency-Key': 'dispute-1' }), 201);
    open.set(first.id, '5.00');
    const replay = await openDispute(payerOrg.key, body, { 'Idempotency-Key': 'dispute-1' });
    expect(expectOk(replay, 201)).toEqual(first);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectApiError(
      await openDispute(payerOrg.key, { ...body, amount: '6.00' }, { 'Idempotency-Key': 'dispute-1' }),
      409,
      'IDEMPOTENCY_KEY_REUSE',
    );
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '45.00' });
    await ended(first.id, { outcome: 'CLOSED' });
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '50.00' });
  });

  it('checks the response: an https evidence URL, the respondent only', async () => {
    const { payer, payee, dispute } = await opened('5.00');
    for (const evidenceUrl of [
      'http://merchant.example.com/log',
      'ftp://x',
      'not a url',
      `https://x.example/${'a'.repeat(2048)}`,
    ])
      expect(
        expectApiError(await respond(payeeOrg.key, dispute.id, { response: 'r', evidenceUrl }), 400, 'VALIDATION_ERROR')
          .details,
      ).toMatchObject({ field: 'evidenceUrl' });
    expectApiError(await respond(payeeOrg.key, dispute.id, { response: '' }), 400, 'VALIDATION_ERROR');
    expectApiError(await respond(payerOrg.key, dispute.id), 403, 'PERMISSION_DENIED');
    expectApiError(await resolve(dispute.id, { outcome: 'CLOSED' }, payerOrg.key), 403, 'PERMISSION_DENIED');
    expectApiError(await resolve(dispute.id, { outcome: 'OPEN' }), 400, 'VALIDATION_ERROR');
    expectApiError(await resolve('dsp_unknown', { outcome: 'CLOSED' }), 404, 'DISPUTE_NOT_FOUND');
    await ended(dispute.id, { outcome: 'CLOSED' });
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '50.00' });
  });

  it('lists the disputes of both sides newest first, by status, with limit and offset', async () => {
    const first = await opened('1.00');
    const second = await opened('2.00');
    expectOk(await respond(payeeOrg.key, second.dispute.id));
    const list = async (key: string, query = '') =>
      expectOk(await service.call('GET', `/v1/disputes${query}`, { key })) as {
        data: { id: string }[];
        hasMore: boolean;
        limit: number;
        offset: number;
      };

    for (const key of [payerOrg.key, payeeOrg.key]) {
      const page = await list(key, '?limit=2');
      expect(page.data.map((d) => d.id)).toEqual([second.dispute.id, first.dispute.id]);
      expect(page).toMatchObject({ limit: 2, offset: 0 });
    }
    expect(await list(payerOrg.key, '?limit=1&offset=1')).toMatchObject({
      data: [{ id: first.dispute.id }],
      hasMore: true,
      offset: 1,
    });
    expect((await list(payeeOrg.key, '?status=RESPONDED')).data.map((d) => d.id)).toEqual([second.dispute.id]);
    expect((await list(payerOrg.key)).limit).toBe(50);
    expectApiError(
      await service.call('GET', '/v1/disputes?offset=10001', { key: payerOrg.key }),
      400,
      'VALIDATION_ERROR',
    );
    expectApiError(await service.call('GET', '/v1/disputes?limit=0', { key: payerOrg.key }), 400, 'VALIDATION_ERROR');
    expectApiError(
      await service.call('GET', '/v1/disputes?status=LOST', { key: payerOrg.key }),
      400,
      'VALIDATION_ERROR',
    );

    for (const { dispute } of [first, second]) {
      await ended(dispute.id, { outcome: 'CLOSED' });
    }
    await expectMoney({ payer: first.payer, payee: first.payee }, { payer: '60.00', payee: '50.00' });
  });
});
