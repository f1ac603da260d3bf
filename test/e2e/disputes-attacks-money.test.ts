import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { DISPUTE_RESPONSE_MS } from '../../shared/domain/disputes/dispute-rules.js';
import { SYSTEM_ACCOUNTS } from '../../shared/domain/ledger/posting.js';
import { localTransport } from '../../shared/events/local-transport.js';
import { storedEventKeys } from '../../shared/persistence/entities/stored-event.js';
import type { ApiResponse } from '../fixtures/local-service.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { invoiceSeed } from '../fixtures/invoice-seed.js';
import { expectApiError, expectOk } from '../fixtures/payments-client.js';
import { sumOf, systemAccountEntries } from '../fixtures/table-reads.js';

/** 7 days in 10 minutes: no dispute lapses while a slow machine runs a test (the deadline's race is in disputes-deadline.test.ts). */
const RESPONSE_WINDOW_MS = 600_000;
const TIME_SCALE = Math.round(DISPUTE_RESPONSE_MS / RESPONSE_WINDOW_MS);

/**
 * Adversarial review of the disputes' money and state machine (issue 23): racing openings,
 * reversals, responses, resolutions and the deadline; odd amounts; every kind of record passed as
 * the disputed payment; frozen and closed wallets on either side; the projections (statements,
 * payment lists, the events feed). After each attack: the balances are exact, acc_SUSPENSE holds
 * exactly the OPEN and RESPONDED disputed amounts, and the ledger check is clean.
 */
describe('disputes under attack: money and state machine', () => {
  const { service, ledger, agents, payerOrg, payeeOrg } = setupE2e({
    env: { TIME_SCALE: String(TIME_SCALE) },
    organizations: { payerOrg: 'Hostile Payer Org', payeeOrg: 'Unlucky Merchant Org' },
  });
  /** What acc_SUSPENSE must hold: the OPEN and RESPONDED disputes' amounts, by id. */
  const held = new Map<string, string>();

  const openDispute = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    service.call('POST', '/v1/disputes', { key, body, ...(headers ? { headers } : {}) });
  const respond = (key: string, id: string, body: Record<string, unknown> = { response: 'Delivered.' }) =>
    service.call('POST', `/v1/disputes/${id}/respond`, { key, body });
  const resolve = (id: string, outcome: string) =>
    service.call('POST', `/v1/disputes/${id}/resolve`, { key: service.adminKey, body: { outcome } });
  const getDispute = (key: string, id: string) => service.call('GET', `/v1/disputes/${id}`, { key });
  const reverse = (key: string, id: string) => service.call('POST', `/v1/payments/${id}/reverse`, { key, body: {} });
  const balance = async (key: string, walletId: string) => (await ledger.balanceOf(key, walletId)).slice(0, -6);

  async function posted(amount = '40.00', payerFunds = '100.00', payeeFunds = '10.00') {
    const payer = await ledger.fundedWallet(payerOrg, payerFunds);
    const payee = await ledger.fundedWallet(payeeOrg, new Big(payeeFunds).gt(0) ? payeeFunds : undefined, 'Payee');
    const payment = await ledger.paid(payerOrg.key, { from: payer, to: payee, amount });
    return { payer, payee, paymentId: payment.id as string };
  }

  const body = (paymentId: string, amount: string | number = '10.00', extra: Record<string, unknown> = {}) => ({
    transactionId: paymentId,
    type: 'FRAUD',
    amount,
    reason: 'Never delivered.',
    ...extra,
  });

  async function expectSuspenseAndLedger() {
    const expected = [...held.values()].reduce((sum, amount) => sum.plus(amount), new Big(0));
    const suspense = sumOf(await systemAccountEntries(service.table, 'SANDBOX', SYSTEM_ACCOUNTS.suspense));
    expect(suspense.toFixed(2)).toBe(expected.toFixed(2));
    await ledger.expectLedgerBalanced();
  }

  async function expectBalances(wallets: { payer: string; payee: string }, expected: { payer: string; payee: string }) {
    expect({
      payer: await balance(payerOrg.key, wallets.payer),
      payee: await balance(payeeOrg.key, wallets.payee),
    }).toEqual(expected);
    await expectSuspenseAndLedger();
  }

  const codeOf = (response: ApiResponse) => (response.status < 300 ? response.status : response.body?.error?.code);

  describe('racing openings of one payment', () => {
    it('without keys: exactly one of eight parallel openings opens, the others DISPUTE_EXISTS; money moved once', async () => {
      const world = await posted();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => openDispute(payerOrg.key, body(world.paymentId, `${i + 1}.00`))),
      );
      const winners = answers.filter((response) => response.status === 201);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!.body;
      held.set(winner.id, winner.amount);
      for (const loser of answers.filter((response) => response.status !== 201))
        expect(expectApiError(loser, 409, 'DISPUTE_EXISTS').details).toEqual({ disputeId: winner.id });
      const payeeAfter = new Big('50.00').minus(winner.amount).toFixed(2);
      await expectBalances(world, { payer: '60.00', payee: payeeAfter });
      expect(expectOk(await ledger.getPayment(payerOrg.key, world.paymentId)).disputeId).toBe(winner.id);

      expectOk(await resolve(winner.id, 'CLOSED'));
      held.delete(winner.id);
      await expectBalances(world, { payer: '60.00', payee: '50.00' });
    });

    it('with one Idempotency-Key: parallel retries open one dispute and all get its answer (or IDEMPOTENCY_KEY_IN_USE)', async () => {
      const world = await posted();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          openDispute(payerOrg.key, body(world.paymentId, '7.00'), { 'Idempotency-Key': `same-${world.paymentId}` }),
        ),
      );
      const created = answers.filter((response) => response.status === 201).map((response) => response.body.id);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created).size).toBe(1);
      for (const other of answers.filter((response) => response.status !== 201))
        expectApiError(other, 409, 'IDEMPOTENCY_KEY_IN_USE');
      held.set(created[0]!, '7.00');
      await expectBalances(world, { payer: '60.00', payee: '43.00' });

      // A replay after the dispute changed state answers the first answer (OPEN), moving nothing.
      expectOk(await resolve(created[0]!, 'RESOLVED_AGENT'));
      held.delete(created[0]!);
      const replay = await openDispute(payerOrg.key, body(world.paymentId, '7.00'), {
        'Idempotency-Key': `same-${world.paymentId}`,
      });
      expect(expectOk(replay, 201)).toMatchObject({ id: created[0], status: 'OPEN' });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      await expectBalances(world, { payer: '67.00', payee: '43.00' });
    });

    it('with different keys: one opens, the others are told DISPUTE_EXISTS, and that refusal is what their keys replay', async () => {
      const world = await posted();
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          openDispute(payerOrg.key, body(world.paymentId, '3.00'), { 'Idempotency-Key': `k${i}-${world.paymentId}` }),
        ),
      );
      const winnerIndex = answers.findIndex((response) => response.status === 201);
      expect(answers.filter((response) => response.status === 201)).toHaveLength(1);
      const winner = answers[winnerIndex]!.body;
      held.set(winner.id, '3.00');
      for (const [i, answer] of answers.entries()) {
        if (i === winnerIndex) continue;
        expectApiError(answer, 409, 'DISPUTE_EXISTS');
        const replay = await openDispute(payerOrg.key, body(world.paymentId, '3.00'), {
          'Idempotency-Key': `k${i}-${world.paymentId}`,
        });
        expectApiError(replay, 409, 'DISPUTE_EXISTS');
      }
      await expectBalances(world, { payer: '60.00', payee: '47.00' });
      expectOk(await resolve(winner.id, 'RESOLVED_MERCHANT'));
      held.delete(winner.id);
      await expectBalances(world, { payer: '60.00', payee: '50.00' });
    });
  });

  it('openings of the whole received amount racing: the losers are told DISPUTE_EXISTS, never INSUFFICIENT_FUNDS', async () => {
    // The payee holds exactly what the payment brought: once the winner took it, a loser that read the
    // payment before the winner's mark and the wallet after its hold is refused by the balance pre-check
    // of dispute-opening.ts with INSUFFICIENT_FUNDS ("try again later") instead of DISPUTE_EXISTS.
    for (let round = 0; round < 3; round++) {
      const world = await posted('30.00', '100.00', '0.00');
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => openDispute(payerOrg.key, body(world.paymentId, '30.00'))),
      );
      const winners = answers.filter((response) => response.status === 201);
      expect(winners).toHaveLength(1);
      held.set(winners[0]!.body.id, '30.00');
      expect(answers.filter((response) => response.status !== 201).map(codeOf)).toEqual(
        Array.from({ length: 5 }, () => 'DISPUTE_EXISTS'),
      );
      await expectBalances(world, { payer: '70.00', payee: '0.00' });
      expectOk(await resolve(winners[0]!.body.id, 'RESOLVED_AGENT'));
      held.delete(winners[0]!.body.id);
      await expectBalances(world, { payer: '100.00', payee: '0.00' });
    }
  });

  it('an opening racing the deletion of the receiving agent: one of them wins whole; no money stranded', async () => {
    for (let round = 0; round < 3; round++) {
      const merchantAgent = await agents.createAgent(payeeOrg, { name: `Racing deletion ${round}` });
      const payer = await ledger.fundedWallet(payerOrg, '50.00');
      const payment = await ledger.paid(payerOrg.key, { from: payer, to: merchantAgent.id, amount: '10.00' });
      const mainBefore = new Big(await balance(payeeOrg.key, payeeOrg.mainWalletId));
      const [opening, deletion] = await Promise.all([
        openDispute(payerOrg.key, body(payment.id, '6.00')),
        service.call('DELETE', `/v1/agents/${merchantAgent.id}`, { key: payeeOrg.key }),
      ]);
      const mainAfter = new Big(await balance(payeeOrg.key, payeeOrg.mainWalletId));
      if (opening.status === 201) {
        held.set(opening.body.id, '6.00');
        // The deletion swept what was left (4.00) or refused to delete (the balance moved meanwhile).
        if (deletion.status === 200) expect(mainAfter.minus(mainBefore).toFixed(2)).toBe('4.00');
        else expect(mainAfter.minus(mainBefore).toFixed(2)).toBe('0.00');
        expectOk(await resolve(opening.body.id, 'RESOLVED_MERCHANT'));
        held.delete(opening.body.id);
      } else {
        expect(codeOf(opening)).toBe('DISPUTE_NOT_ALLOWED');
        expect(deletion.status, deletion.text).toBe(200);
        expect(mainAfter.minus(mainBefore).toFixed(2)).toBe('10.00');
      }
      await expectSuspenseAndLedger();
    }
  });

  it("a resolution racing the deletion of the winner's agent: the money lands once, on the agent or its main wallet", async () => {
    for (let round = 0; round < 3; round++) {
      const buyer = await agents.createAgent(payerOrg, { name: `Buyer racing ${round}` });
      await agents.fundMain(payerOrg, '30.00');
      expectOk(await agents.adjust(payerOrg, buyer.id, '20.00'));
      const merchant = await ledger.fundedWallet(payeeOrg, undefined, 'Merchant racing');
      const bought = await ledger.paid(buyer.apiKey, { from: buyer.id, to: merchant, amount: '8.00' });
      const dispute = expectOk(await openDispute(buyer.apiKey, body(bought.id, '8.00')), 201);
      held.set(dispute.id, '8.00');
      const mainBefore = new Big(await balance(payerOrg.key, payerOrg.mainWalletId));
      const [resolution, deletion] = await Promise.all([
        resolve(dispute.id, 'RESOLVED_AGENT'),
        service.call('DELETE', `/v1/agents/${buyer.id}`, { key: payerOrg.key }),
      ]);
      held.delete(dispute.id);
      const ended = expectOk(resolution);
      const mainGain = new Big(await balance(payerOrg.key, payerOrg.mainWalletId)).minus(mainBefore).toFixed(2);
      if (deletion.status === 200) {
        // Deleted: the 12.00 left and the 8.00 won both end on the main wallet, once each.
        expect(mainGain).toBe('20.00');
      } else {
        expect(codeOf(deletion)).not.toBe(500);
        expect(ended.creditedWalletId).toBe(buyer.id);
        expect(await balance(payerOrg.key, buyer.id)).toBe('20.00');
        expect(mainGain).toBe('0.00');
      }
      await expectSuspenseAndLedger();
    }
  });

  it("a dispute's lines on the statements: the hold negative on the receiving wallet, the release positive, balances running right", async () => {
    const world = await posted('40.00');
    const dispute = expectOk(await openDispute(payerOrg.key, body(world.paymentId, '25.00')), 201);
    held.set(dispute.id, '25.00');
    const statement = async (key: string, walletId: string) =>
      expectOk(await service.call('GET', `/v1/wallets/${walletId}/transactions`, { key })).data as {
        transactionId: string;
        type: string;
        amount: string;
        balanceAfter: string;
      }[];
    const [hold] = await statement(payeeOrg.key, world.payee);
    expect(hold).toMatchObject({ transactionId: dispute.holdTransactionId, type: 'DISPUTE' });
    expect(new Big(hold!.amount).toFixed(2)).toBe('-25.00');
    expect(new Big(hold!.balanceAfter).toFixed(2)).toBe('25.00');
    const ended = expectOk(await resolve(dispute.id, 'RESOLVED_AGENT'));
    held.delete(dispute.id);
    const [release] = await statement(payerOrg.key, world.payer);
    expect(release).toMatchObject({ transactionId: ended.resolutionTransactionId, type: 'DISPUTE_RESOLUTION' });
    expect(new Big(release!.amount).toFixed(2)).toBe('25.00');
    expect(new Big(release!.balanceAfter).toFixed(2)).toBe('85.00');
    // The payee's statement does not show the release (it went to the payer), nor the payer's the hold.
    expect((await statement(payeeOrg.key, world.payee)).map((line) => line.type)).toEqual([
      'DISPUTE',
      'PAYMENT',
      'FUNDING',
    ]);
    await expectBalances(world, { payer: '85.00', payee: '25.00' });
  });

  it('a reversal racing an opening: exactly one wins, whole; the money is where the winner put it', async () => {
    for (let round = 0; round < 4; round++) {
      const world = await posted('20.00');
      const [opening, reversal] = await Promise.all([
        openDispute(payerOrg.key, body(world.paymentId, '20.00')),
        reverse(payeeOrg.key, world.paymentId),
      ]);
      const outcome = [codeOf(opening), codeOf(reversal)];
      if (opening.status === 201) {
        expect(outcome[1]).toBe('REVERSAL_NOT_ALLOWED');
        held.set(opening.body.id, '20.00');
        await expectBalances(world, { payer: '80.00', payee: '10.00' });
        expectOk(await resolve(opening.body.id, 'RESOLVED_AGENT'));
        held.delete(opening.body.id);
        await expectBalances(world, { payer: '100.00', payee: '10.00' });
      } else {
        expect(reversal.status, reversal.text).toBe(200);
        expect(expectApiError(opening, 409, 'INVALID_STATE').details).toEqual({ status: 'REVERSED' });
        await expectBalances(world, { payer: '100.00', payee: '10.00' });
        expect(expectOk(await ledger.getPayment(payerOrg.key, world.paymentId)).disputeId).toBeNull();
      }
    }
  });

  it('two operator resolutions in parallel with different outcomes: one wins, the other INVALID_STATE; paid once', async () => {
    for (const outcomes of [
      ['RESOLVED_AGENT', 'RESOLVED_MERCHANT'],
      ['CLOSED', 'RESOLVED_AGENT'],
      ['RESOLVED_AGENT', 'RESOLVED_AGENT'],
    ]) {
      const world = await posted();
      const dispute = expectOk(await openDispute(payerOrg.key, body(world.paymentId, '15.00')), 201);
      held.set(dispute.id, '15.00');
      const answers = await Promise.all(outcomes.map((outcome) => resolve(dispute.id, outcome)));
      const won = answers.filter((response) => response.status === 200);
      expect(won).toHaveLength(1);
      const lost = answers.find((response) => response.status !== 200)!;
      expect(expectApiError(lost, 409, 'INVALID_STATE').details).toEqual({ status: won[0]!.body.status });
      held.delete(dispute.id);
      const final = expectOk(await getDispute(payerOrg.key, dispute.id));
      expect(final.status).toBe(won[0]!.body.status);
      await expectBalances(
        world,
        final.status === 'RESOLVED_AGENT' ? { payer: '75.00', payee: '35.00' } : { payer: '60.00', payee: '50.00' },
      );
    }
  });

  it('a response racing a resolution before respondBy: both may win in order, the money moves once', async () => {
    for (const outcome of ['RESOLVED_AGENT', 'RESOLVED_MERCHANT', 'CLOSED', 'RESOLVED_AGENT']) {
      const world = await posted();
      const dispute = expectOk(await openDispute(payerOrg.key, body(world.paymentId, '9.00')), 201);
      held.set(dispute.id, '9.00');
      const [response, resolution] = await Promise.all([
        respond(payeeOrg.key, dispute.id),
        resolve(dispute.id, outcome),
      ]);
      held.delete(dispute.id);
      expect(resolution.status, resolution.text).toBe(200);
      const final = expectOk(await getDispute(payeeOrg.key, dispute.id));
      expect(final.status).toBe(outcome);
      if (response.status === 200)
        expect(final).toMatchObject({ response: 'Delivered.', respondedAt: expect.any(String) });
      else expect(expectApiError(response, 409, 'INVALID_STATE').details).toEqual({ status: outcome });
      await expectBalances(
        world,
        outcome === 'RESOLVED_AGENT' ? { payer: '69.00', payee: '41.00' } : { payer: '60.00', payee: '50.00' },
      );
    }
  });

  it('refuses odd amounts as payments do, before anything moves; the whole amount and a partial one open', async () => {
    const world = await posted('40.00');
    const refused = async (amount: unknown) =>
      (await openDispute(payerOrg.key, { ...body(world.paymentId), amount })).body?.error?.code;
    for (const amount of [
      '0',
      '0.00',
      '-1.00',
      '10.001',
      '1e1',
      '1E1',
      '0x10',
      ' 10',
      '10 ',
      '',
      'ten',
      1e21,
      -5,
      '99999999999.99',
      '1'.repeat(40),
    ])
      expect([amount, await refused(amount)]).toEqual([amount, 'INVALID_AMOUNT']);
    for (const amount of ['40.01', '1000.00', 41])
      expect([amount, await refused(amount)]).toEqual([amount, 'VALIDATION_ERROR']);
    await expectBalances(world, { payer: '60.00', payee: '50.00' });

    const whole = expectOk(await openDispute(payerOrg.key, body(world.paymentId, '40')), 201);
    expect(whole.amount).toBe('40.00');
    held.set(whole.id, '40.00');
    await expectBalances(world, { payer: '60.00', payee: '10.00' });
    expectOk(await resolve(whole.id, 'RESOLVED_AGENT'));
    held.delete(whole.id);
    await expectBalances(world, { payer: '100.00', payee: '10.00' });

    const partial = await posted('40.00');
    const dispute = expectOk(await openDispute(payerOrg.key, body(partial.paymentId, 0.05)), 201);
    expect(dispute.amount).toBe('0.05');
    held.set(dispute.id, '0.05');
    await expectBalances(partial, { payer: '60.00', payee: '49.95' });
    expectOk(await resolve(dispute.id, 'RESOLVED_AGENT'));
    held.delete(dispute.id);
    await expectBalances(partial, { payer: '60.05', payee: '49.95' });
  });

  it('refuses every record that is not a POSTED payment to another organization', async () => {
    const payer = await ledger.fundedWallet(payerOrg, '100.00');
    const payee = await ledger.fundedWallet(payeeOrg, '10.00', 'Payee');
    const attempt = (transactionId: string, key = payerOrg.key) => openDispute(key, body(transactionId, '1.00'));

    // QUEUED, then REJECTED; QUEUED, then FAILED (funds gone at approval).
    const approver = await ledger.createKey(payerOrg, ['admin', 'payments:read', 'wallets:read'], 'Approver');
    await ledger.createPolicy(payerOrg.key, { walletId: payer, approvalThreshold: '30.00' });
    const queued = await ledger.queuedPayment(payerOrg.key, { from: payer, to: payee, amount: '35.00' });
    expect(expectApiError(await attempt(queued.transactionId), 409, 'INVALID_STATE').details).toEqual({
      status: 'QUEUED',
    });
    expectOk(await service.call('POST', `/v1/approvals/${queued.approvalId}/reject`, { key: approver.key }));
    expect(expectApiError(await attempt(queued.transactionId), 409, 'INVALID_STATE').details).toEqual({
      status: 'REJECTED',
    });
    const failing = await ledger.queuedPayment(payerOrg.key, { from: payer, to: payee, amount: '36.00' });
    await ledger.paid(payerOrg.key, { from: payer, to: payerOrg.mainWalletId, amount: '29.00' });
    await ledger.paid(payerOrg.key, { from: payer, to: payerOrg.mainWalletId, amount: '29.00' });
    await ledger.paid(payerOrg.key, { from: payer, to: payerOrg.mainWalletId, amount: '29.00' });
    expectOk(await service.call('POST', `/v1/approvals/${failing.approvalId}/approve`, { key: approver.key }));
    expect(expectOk(await ledger.getPayment(payerOrg.key, failing.transactionId)).status).toBe('FAILED');
    // The payee never saw a failed payment: it stays unknown to it; the payer learns its status.
    expect(expectApiError(await attempt(failing.transactionId), 409, 'INVALID_STATE').details).toEqual({
      status: 'FAILED',
    });
    expectApiError(await attempt(failing.transactionId, payeeOrg.key), 404, 'TRANSACTION_NOT_FOUND');

    // A funding, a budget adjustment and a sweep of the caller's own: not disputable.
    const funding = (
      expectOk(await service.call('GET', `/v1/wallets/${payer}/transactions`, { key: payerOrg.key })).data as {
        type: string;
        transactionId: string;
      }[]
    ).find((line) => line.type === 'FUNDING')!;
    expectApiError(await attempt(funding.transactionId), 422, 'DISPUTE_NOT_ALLOWED');
    const agent = await agents.createAgent(payerOrg, { name: 'Budgeted' });
    await agents.fundMain(payerOrg, '20.00');
    expectOk(await agents.adjust(payerOrg, agent.id, '5.00'));
    const deleted = expectOk(await service.call('DELETE', `/v1/agents/${agent.id}`, { key: payerOrg.key }));
    const lines = expectOk(
      await service.call('GET', `/v1/wallets/${payerOrg.mainWalletId}/transactions?limit=100`, { key: payerOrg.key }),
    ).data as { type: string; transactionId: string }[];
    for (const type of ['BUDGET_ADJUSTMENT', 'SWEEP']) {
      const line = lines.find((entry) => entry.type === type);
      expect(line, `${type} on the main wallet's statement (${JSON.stringify(deleted)})`).toBeDefined();
      expectApiError(await attempt(line!.transactionId), 422, 'DISPUTE_NOT_ALLOWED');
    }

    // A dispute's own movements (hold and resolution) are not payments: unknown as such to both sides.
    const payment = await ledger.paid(payerOrg.key, { from: payerOrg.mainWalletId, to: payee, amount: '2.00' });
    const dispute = expectOk(await attempt(payment.id), 201);
    held.set(dispute.id, '1.00');
    for (const key of [payerOrg.key, payeeOrg.key])
      expectApiError(await attempt(dispute.holdTransactionId, key), 404, 'TRANSACTION_NOT_FOUND');
    const ended = expectOk(await resolve(dispute.id, 'RESOLVED_AGENT'));
    held.delete(dispute.id);
    for (const key of [payerOrg.key, payeeOrg.key])
      expectApiError(await attempt(ended.resolutionTransactionId, key), 404, 'TRANSACTION_NOT_FOUND');
    await expectSuspenseAndLedger();
  });

  it("refuses a wallet payment of another organization's invoice (DISPUTE_NOT_ALLOWED), moving nothing", async () => {
    const seed = invoiceSeed(service);
    const receivables = await ledger.fundedWallet(payeeOrg, undefined, 'Receivables');
    const invoice = await seed.finalized({ key: payeeOrg.key, walletId: receivables, total: '12.00' });
    const buyer = await ledger.createAgent(payerOrg, 'Invoice payer');
    await ledger.fund(payerOrg.key, buyer.walletId, '50.00');
    const paid = expectOk(
      await service.call('POST', `/v1/invoices/pay/${invoice.slug}/wallet`, {
        key: buyer.key,
        body: { walletId: buyer.walletId },
      }),
    );
    const before = await balance(payeeOrg.key, receivables);
    for (const key of [buyer.key, payerOrg.key]) {
      const refused = expectApiError(await openDispute(key, body(paid.id, '12.00')), 422, 'DISPUTE_NOT_ALLOWED');
      expect(refused.details).toEqual({ invoiceId: invoice.id });
    }
    expect(await balance(payeeOrg.key, receivables)).toBe(before);
    expect(expectOk(await ledger.getPayment(payerOrg.key, paid.id)).disputeId).toBeNull();
    await expectSuspenseAndLedger();
  });

  it('a FROZEN receiving wallet (paused agent) is debited and, when the merchant wins, credited back', async () => {
    const merchantAgent = await agents.createAgent(payeeOrg, { name: 'Merchant agent' });
    const payer = await ledger.fundedWallet(payerOrg, '50.00');
    const payment = await ledger.paid(payerOrg.key, { from: payer, to: merchantAgent.id, amount: '20.00' });
    expectOk(await service.call('POST', `/v1/agents/${merchantAgent.id}/pause`, { key: payeeOrg.key }));

    const dispute = expectOk(await openDispute(payerOrg.key, body(payment.id, '8.00')), 201);
    held.set(dispute.id, '8.00');
    await expectBalances({ payer, payee: merchantAgent.id }, { payer: '30.00', payee: '12.00' });
    const ended = expectOk(await resolve(dispute.id, 'RESOLVED_MERCHANT'));
    held.delete(dispute.id);
    expect(ended.creditedWalletId).toBe(merchantAgent.id);
    await expectBalances({ payer, payee: merchantAgent.id }, { payer: '30.00', payee: '20.00' });
  });

  it('closed wallets: the receiving one refuses the opening; either winner closed later is paid to its main wallet', async () => {
    // The receiving agent deleted before the opening: DISPUTE_NOT_ALLOWED, nothing moves.
    const gone = await agents.createAgent(payeeOrg, { name: 'Gone' });
    const payer = await ledger.fundedWallet(payerOrg, '50.00');
    const toGone = await ledger.paid(payerOrg.key, { from: payer, to: gone.id, amount: '5.00' });
    expectOk(await service.call('DELETE', `/v1/agents/${gone.id}`, { key: payeeOrg.key }));
    expectApiError(await openDispute(payerOrg.key, body(toGone.id, '5.00')), 422, 'DISPUTE_NOT_ALLOWED');
    await expectSuspenseAndLedger();

    // The receiving agent deleted while the dispute is OPEN: the merchant's win goes to its main wallet.
    const merchantAgent = await agents.createAgent(payeeOrg, { name: 'Deleted later' });
    const payment = await ledger.paid(payerOrg.key, { from: payer, to: merchantAgent.id, amount: '10.00' });
    const dispute = expectOk(await openDispute(payerOrg.key, body(payment.id, '4.00')), 201);
    held.set(dispute.id, '4.00');
    const mainBefore = new Big(await balance(payeeOrg.key, payeeOrg.mainWalletId));
    expectOk(await service.call('DELETE', `/v1/agents/${merchantAgent.id}`, { key: payeeOrg.key }));
    const ended = expectOk(await resolve(dispute.id, 'CLOSED'));
    held.delete(dispute.id);
    expect(ended.creditedWalletId).toBe(payeeOrg.mainWalletId);
    // The sweep moved the agent's 6.00; the resolution the 4.00.
    expect(await balance(payeeOrg.key, payeeOrg.mainWalletId)).toBe(mainBefore.plus('10.00').toFixed(2));
    await expectSuspenseAndLedger();

    // The paying agent deleted while the dispute is OPEN: the initiator's win goes to its main wallet.
    const buyer = await agents.createAgent(payerOrg, { name: 'Buyer agent' });
    await agents.fundMain(payerOrg, '30.00');
    expectOk(await agents.adjust(payerOrg, buyer.id, '20.00'));
    const merchant = await ledger.fundedWallet(payeeOrg, undefined, 'Merchant');
    const bought = await ledger.paid(buyer.apiKey, { from: buyer.id, to: merchant, amount: '9.00' });
    const claim = expectOk(await openDispute(buyer.apiKey, body(bought.id, '9.00')), 201);
    held.set(claim.id, '9.00');
    const payerMainBefore = new Big(await balance(payerOrg.key, payerOrg.mainWalletId));
    expectOk(await service.call('DELETE', `/v1/agents/${buyer.id}`, { key: payerOrg.key }));
    const won = expectOk(await resolve(claim.id, 'RESOLVED_AGENT'));
    held.delete(claim.id);
    expect(won.creditedWalletId).toBe(payerOrg.mainWalletId);
    expect(await balance(payerOrg.key, payerOrg.mainWalletId)).toBe(payerMainBefore.plus('20.00').toFixed(2));
    expect(await balance(payeeOrg.key, merchant)).toBe('0.00');
    await expectSuspenseAndLedger();
  });

  it("INSUFFICIENT_FUNDS says nothing of the respondent's wallet, also for an agent key and with a key replayed", async () => {
    const buyer = await agents.createAgent(payerOrg, { name: 'Probe agent' });
    await agents.fundMain(payerOrg, '30.00');
    expectOk(await agents.adjust(payerOrg, buyer.id, '20.00'));
    const merchant = await agents.createAgent(payeeOrg, { name: 'Spender' });
    const bought = await ledger.paid(buyer.apiKey, { from: buyer.id, to: merchant.id, amount: '15.00' });
    await ledger.paid(merchant.apiKey, { from: merchant.id, to: payeeOrg.mainWalletId, amount: '14.00' });

    for (const headers of [
      undefined,
      { 'Idempotency-Key': `probe-${bought.id}` },
      { 'Idempotency-Key': `probe-${bought.id}` },
    ]) {
      const response = await openDispute(buyer.apiKey, body(bought.id, '1.01'), headers);
      const error = expectApiError(response, 402, 'INSUFFICIENT_FUNDS');
      expect(error.details).toBeUndefined();
      expect(response.text).not.toContain(merchant.id);
      expect(response.text).not.toContain('0.99');
      expect(response.text).not.toContain(payeeOrg.mainWalletId);
    }
    const exact = expectOk(await openDispute(buyer.apiKey, body(bought.id, '1.00')), 201);
    held.set(exact.id, '1.00');
    expect(await balance(payeeOrg.key, merchant.id)).toBe('0.00');
    expectOk(await resolve(exact.id, 'RESOLVED_AGENT'));
    held.delete(exact.id);
    expect(await balance(payerOrg.key, buyer.id)).toBe('6.00');
    await expectSuspenseAndLedger();
  });

  it('projects nothing as a payment: no payment.* event, payment list or payment lookup for the dispute movements', async () => {
    const world = await posted('30.00');
    const dispute = expectOk(await openDispute(payerOrg.key, body(world.paymentId, '30.00')), 201);
    held.set(dispute.id, '30.00');
    const ended = expectOk(await resolve(dispute.id, 'RESOLVED_AGENT'));
    held.delete(dispute.id);
    await expectBalances(world, { payer: '100.00', payee: '10.00' });
    await service.projected();

    const movementIds = [dispute.holdTransactionId, ended.resolutionTransactionId];
    for (const org of [payerOrg, payeeOrg]) {
      await eventually(async () => {
        const feed = expectOk(await service.call('GET', '/v1/events?limit=100', { key: org.key })).data as {
          type: string;
          data: Record<string, unknown>;
        }[];
        const ofDispute = feed.filter((event) => event.type.startsWith('dispute.') && event.data.id === dispute.id);
        expect(ofDispute.map((event) => event.type).sort()).toEqual(['dispute.created', 'dispute.resolved']);
        const mentioning = feed.filter(
          (event) => !event.type.startsWith('dispute.') && movementIds.some((id) => JSON.stringify(event).includes(id)),
        );
        expect(mentioning).toEqual([]);
        const paymentEvents = feed.filter(
          (event) => event.type.startsWith('payment.') && event.data.id === world.paymentId,
        );
        expect(paymentEvents.map((event) => event.type)).toEqual(org === payerOrg ? ['payment.posted'] : []);
      });
      const payments = expectOk(await service.call('GET', '/v1/payments?limit=100', { key: org.key })).data as {
        id: string;
        type: string;
      }[];
      expect(payments.filter((payment) => movementIds.includes(payment.id))).toEqual([]);
      expect(new Set(payments.map((payment) => payment.type))).toEqual(
        new Set(['PAYMENT', 'REVERSAL'].filter((t) => payments.some((p) => p.type === t))),
      );
      for (const id of movementIds) expectApiError(await ledger.getPayment(org.key, id), 404, 'TRANSACTION_NOT_FOUND');
    }
  });

  it('publishes no second payment.posted when an approved payment is disputed', async () => {
    // The opening marks the payment's journal record (`disputeId`): a MODIFY of a POSTED record with an
    // `approvalId`, which journal-projection.ts projectsOnChange takes for "a queued payment that just
    // posted": the projector projects the payment again and puts its payment.posted on the bus a second
    // time (only stores with a derived id hide it; once the stored event's 30 days are over it is even
    // stored and listed again).
    const published: { type: string; dataId: unknown }[] = [];
    const unregister = localTransport.registerQueue(
      'disputes-attacks-spy',
      {
        send: (message) => {
          const envelope = JSON.parse(message) as { detail: { type: string; data: Record<string, unknown> } };
          published.push({ type: envelope.detail.type, dataId: envelope.detail.data.id });
        },
        deadLetter: () => undefined,
      },
      { busTarget: true },
    );
    try {
      const payer = await ledger.fundedWallet(payerOrg, '100.00');
      const payee = await ledger.fundedWallet(payeeOrg, undefined, 'Approved payee');
      const approver = await ledger.createKey(payerOrg, ['admin', 'payments:read', 'wallets:read'], 'Approver 2');
      await ledger.createPolicy(payerOrg.key, { walletId: payer, approvalThreshold: '30.00' });
      const queued = await ledger.queuedPayment(payerOrg.key, { from: payer, to: payee, amount: '35.00' });
      expectOk(await service.call('POST', `/v1/approvals/${queued.approvalId}/approve`, { key: approver.key }));
      await service.projected();
      const postedOf = () =>
        published.filter((event) => event.type === 'payment.posted' && event.dataId === queued.transactionId);
      await eventually(() => expect(postedOf()).toHaveLength(1));

      const dispute = expectOk(await openDispute(payerOrg.key, body(queued.transactionId, '5.00')), 201);
      held.set(dispute.id, '5.00');
      await service.projected();
      await eventually(() =>
        expect(
          published.filter((event) => event.type === 'dispute.created' && event.dataId === dispute.id),
        ).toHaveLength(2),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(postedOf()).toHaveLength(1);
      expectOk(await resolve(dispute.id, 'CLOSED'));
      held.delete(dispute.id);
      await expectSuspenseAndLedger();
    } finally {
      unregister();
    }
  });

  it("lists no month-old payment.posted again in the payer's events feed when an approved payment is disputed after the feed's 30 days", async () => {
    const payer = await ledger.fundedWallet(payerOrg, '100.00');
    const payee = await ledger.fundedWallet(payeeOrg, undefined, 'Old approved payee');
    const approver = await ledger.createKey(payerOrg, ['admin', 'payments:read', 'wallets:read'], 'Approver 3');
    await ledger.createPolicy(payerOrg.key, { walletId: payer, approvalThreshold: '30.00' });
    const queued = await ledger.queuedPayment(payerOrg.key, { from: payer, to: payee, amount: '31.00' });
    expectOk(await service.call('POST', `/v1/approvals/${queued.approvalId}/approve`, { key: approver.key }));
    const postedEvents = async () =>
      (
        expectOk(await service.call('GET', `/v1/events?type=payment.posted&limit=100`, { key: payerOrg.key })).data as {
          id: string;
          data: { id: string };
        }[]
      ).filter((event) => event.data.id === queued.transactionId);
    const [event] = await eventually(async () => {
      const found = await postedEvents();
      expect(found).toHaveLength(1);
      return found;
    });
    // Thirty days later DynamoDB's TTL has removed the stored event (EVENT_RETENTION_S): played by deleting it.
    await service.table.client.send(
      new DeleteCommand({ TableName: service.table.tableName, Key: storedEventKeys.primary(event!.id) }),
    );
    expect(await postedEvents()).toEqual([]);

    const dispute = expectOk(await openDispute(payerOrg.key, body(queued.transactionId, '1.00')), 201);
    held.set(dispute.id, '1.00');
    await service.projected();
    await eventually(async () => {
      const feed = expectOk(
        await service.call('GET', '/v1/events?type=dispute.created&limit=100', { key: payerOrg.key }),
      );
      expect((feed.data as { data: { id: string } }[]).some((e) => e.data.id === dispute.id)).toBe(true);
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await postedEvents()).toEqual([]);
    expectOk(await resolve(dispute.id, 'RESOLVED_AGENT'));
    held.delete(dispute.id);
    await expectSuspenseAndLedger();
  });

  it('moves no spend counter: a paying agent at its daily limit stays there after winning its dispute', async () => {
    const buyer = await agents.createAgent(payerOrg, { name: 'Limited agent' });
    await agents.fundMain(payerOrg, '60.00');
    expectOk(await agents.adjust(payerOrg, buyer.id, '50.00'));
    await ledger.createPolicy(payerOrg.key, { walletId: buyer.id, dailyLimit: '20.00' });
    const merchant = await ledger.fundedWallet(payeeOrg, undefined, 'Limited merchant');
    const bought = await ledger.paid(buyer.apiKey, { from: buyer.id, to: merchant, amount: '20.00' });
    const dispute = expectOk(await openDispute(buyer.apiKey, body(bought.id, '20.00')), 201);
    held.set(dispute.id, '20.00');
    expectOk(await resolve(dispute.id, 'RESOLVED_AGENT'));
    held.delete(dispute.id);
    expect(await balance(payerOrg.key, buyer.id)).toBe('50.00');
    const again = await ledger.pay(buyer.apiKey, { from: buyer.id, to: merchant, amount: '0.01' });
    expectApiError(again, 403, 'POLICY_DENIED');
    await expectSuspenseAndLedger();
  });
});
