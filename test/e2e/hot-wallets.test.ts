import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/domain/clock.js';
import { HOT_MODE_LANES, HOT_MODE_PARTITIONS } from '../../shared/domain/hot-mode/hot-mode-rules.js';
import { HOT_SETTLE_MS } from '../../shared/domain/ledger/hot/keeper-plan.js';
import { keeperMoves } from '../../shared/persistence/hot/keeper-binding.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { outboxEventsOf } from '../fixtures/agents-client.js';
import { expectApiError, expectOk, type Organization } from '../fixtures/payments-client.js';

/**
 * Hot wallets as a client sees them (decisions.md section 13, docs/api.md "Hot wallets"): the
 * operator's switch, then the organization's own API, which is the same for a hot wallet. The
 * stream's fold runs as in `npm start`; the minute keeper is run by the test (its schedule is not
 * started by the test service), after the settle window where a demotion needs it.
 */
describe('hot wallets', () => {
  const { service, ledger, org, otherOrg } = setupE2e({
    organizations: { org: 'Hot Org', otherOrg: 'Other Org' },
  });

  const hotMode = (walletId: string, enabled: boolean, key = service.adminKey, body: unknown = { enabled }) =>
    service.call('POST', `/v1/internal/wallets/${walletId}/hot-mode`, { key, body });

  /** The minute keeper over one wallet, `laterMs` from now (past the settle window where a demotion must finish). */
  const keep = (walletId: string, laterMs = 0) =>
    keeperMoves(systemClock).keep(service.table, walletId, new Date(Date.now() + laterMs));

  async function freshOrganization(): Promise<Organization> {
    return service.createOrganization('Hot journeys');
  }

  /** The wallet as the operator sees it (a call that changes nothing: on for a hot wallet, off for a cooling or cold one). */
  const operatorView = async (walletId: string, hot: boolean) => expectOk(await hotMode(walletId, hot));

  it('lets the operator turn hot mode on for a main wallet: answered with hotMode, audited, invisible to the organization', async () => {
    // Prepare
    const organization = await freshOrganization();
    await ledger.fund(organization.key, organization.mainWalletId, '100.00');

    // Act
    const answer = expectOk(await hotMode(organization.mainWalletId, true));

    // Assess
    expect(answer).toMatchObject({
      id: organization.mainWalletId,
      balance: '100.00000000',
      hotMode: { state: 'HOT', partitions: HOT_MODE_PARTITIONS, lanes: HOT_MODE_LANES },
    });
    const seen = expectOk(
      await service.call('GET', `/v1/wallets/${organization.mainWalletId}`, { key: organization.key }),
    );
    expect(seen).not.toHaveProperty('hotMode');
    expect(seen.balance).toBe('100.00000000');
    const audit = await ledger.auditOf(organization.organizationId);
    expect(audit.filter((entry) => entry.action === 'wallet.hot_mode.enabled')).toEqual([
      expect.objectContaining({ resourceId: organization.mainWalletId, actorType: 'API_KEY' }),
    ]);
    // On again changes nothing.
    expect(expectOk(await hotMode(organization.mainWalletId, true)).hotMode.state).toBe('HOT');
    expect(
      (await ledger.auditOf(organization.organizationId)).filter((e) => e.action.startsWith('wallet.hot_mode')),
    ).toHaveLength(1);
  });

  it('stops payments out of a frozen hot wallet at once', async () => {
    // Prepare: an agent's wallet, hot, with money.
    const organization = await freshOrganization();
    await ledger.fund(organization.key, organization.mainWalletId, '100.00');
    const agent = await ledger.createAgent(organization, 'Hot agent');
    expectOk(
      await service.call('POST', `/v1/agents/${agent.walletId}/adjust-budget`, {
        key: organization.key,
        body: { amount: '40.00' },
      }),
    );
    expectOk(await hotMode(agent.walletId, true));
    await keep(agent.walletId);

    // Act
    expectOk(await service.call('POST', `/v1/agents/${agent.walletId}/pause`, { key: organization.key }));
    const refused = await service.call('POST', '/v1/payments', {
      key: agent.key,
      body: { from: agent.walletId, to: organization.mainWalletId, amount: '1.00' },
    });

    // Assess
    expectApiError(refused, 403, 'WALLET_FROZEN');
    expect((await operatorView(agent.walletId, true)).balance).toBe('40.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('lets no organization key, agent key or other organization switch hot mode; the operator gets 404 for an unknown wallet', async () => {
    // Prepare
    const agent = await ledger.createAgent(org, 'Curious agent');

    // Act + Assess
    expectApiError(await hotMode(org.mainWalletId, true, org.key), 403, 'PERMISSION_DENIED');
    expectApiError(await hotMode(agent.walletId, true, agent.key), 403, 'PERMISSION_DENIED');
    expectApiError(await hotMode(org.mainWalletId, true, otherOrg.key), 403, 'PERMISSION_DENIED');
    expectApiError(await hotMode('wal_000000000000000000000000', true), 404, 'WALLET_NOT_FOUND');
    expectApiError(
      await hotMode(org.mainWalletId, true, service.adminKey, { enabled: 'yes' }),
      400,
      'VALIDATION_ERROR',
    );
    expectApiError(
      await hotMode(org.mainWalletId, true, service.adminKey, { enabled: true, partitions: 3 }),
      400,
      'VALIDATION_ERROR',
    );
    expect(expectOk(await hotMode(org.mainWalletId, false)).hotMode).toBeNull();
  });
  /** A funded agent of the organization (its budget moved from the main wallet). */
  async function fundedAgent(organization: Organization, name: string, amount: string) {
    const agent = await ledger.createAgent(organization, name);
    expectOk(
      await service.call('POST', `/v1/agents/${agent.walletId}/adjust-budget`, {
        key: organization.key,
        body: { amount },
      }),
    );
    return agent;
  }

  /** A payment as a client makes it: one Idempotency-Key, retried on 409 CONCURRENT_UPDATE after its retryAfter. */
  async function payAsClient(key: string, body: Record<string, unknown>, idempotencyKey: string) {
    for (let attempt = 1; ; attempt++) {
      const response = await service.call('POST', '/v1/payments', {
        key,
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      if (response.body?.error?.code !== 'CONCURRENT_UPDATE' || attempt >= 10) return response;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }

  const balanceOf = async (key: string, walletId: string) => new Big(await ledger.balanceOf(key, walletId));
  const sum = (amounts: string[]) => amounts.reduce((total, amount) => total.plus(amount), new Big(0));

  /** The ledger check, once the stream has folded (or bounced) what landed: the inbox of a closed wallet empties. */
  async function expectLedgerClean(): Promise<void> {
    let problems: string[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      problems = (await checkLedger(service.table.client, service.table.tableName)).problems;
      if (problems.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(problems).toEqual([]);
  }

  it('takes 50 concurrent payments into and out of one hot wallet, then hot mode off, without losing a cent', async () => {
    // Prepare: a hot agent with 100.00, ten cold agents paying into it, the main wallet paid out to.
    const organization = await freshOrganization();
    await ledger.fund(organization.key, organization.mainWalletId, '500.00');
    const hot = await fundedAgent(organization, 'Hot agent', '100.00');
    const payers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => fundedAgent(organization, `Payer ${n}`, '20.00')),
    );
    expectOk(await hotMode(hot.walletId, true));
    await keep(hot.walletId);
    const into = Array.from({ length: 25 }, (_, i) => ({
      payer: payers[i % 10]!,
      amount: new Big((i % 9) + 1).times('0.37').toFixed(2),
    }));
    // Out: each within a lane's share (80 % of 100.00 over the lanes), so most take the fast path.
    const out = Array.from({ length: 25 }, (_, i) => new Big(i % 8).times('0.12').plus('0.11').toFixed(2));

    // Act: all 50 at once.
    const [answersIn, answersOut] = await Promise.all([
      Promise.all(
        into.map(({ payer, amount }, i) =>
          payAsClient(payer.key, { from: payer.walletId, to: hot.walletId, amount }, `in-${hot.walletId}-${i}`),
        ),
      ),
      Promise.all(
        out.map((amount, i) =>
          payAsClient(
            hot.key,
            { from: hot.walletId, to: organization.mainWalletId, amount },
            `out-${hot.walletId}-${i}`,
          ),
        ),
      ),
    ]);

    // Assess: every payment posted (funds cover all; payments into a hot wallet never contend).
    for (const answer of [...answersIn, ...answersOut]) expect(answer.status, answer.text).toBe(200);
    const paidIn = sum(into.map(({ amount }) => amount));
    const paidOut = sum(out);
    const expectHot = new Big('100').plus(paidIn).minus(paidOut);
    expect((await balanceOf(organization.key, hot.walletId)).toFixed(8)).toBe(expectHot.toFixed(8));
    for (const [index, payer] of payers.entries()) {
      const spent = sum(into.filter((_, i) => i % 10 === index).map(({ amount }) => amount));
      expect((await balanceOf(organization.key, payer.walletId)).toFixed(8)).toBe(new Big(20).minus(spent).toFixed(8));
    }
    const expectMain = new Big('500').minus(100).minus(200).plus(paidOut);
    expect((await balanceOf(organization.key, organization.mainWalletId)).toFixed(8)).toBe(expectMain.toFixed(8));
    await expectLedgerClean();

    // Hot mode off: after the settle window the wallet is cold again with the same money to the cent.
    expect(expectOk(await hotMode(hot.walletId, false)).hotMode.state).toBe('COOLING');
    await keep(hot.walletId, HOT_SETTLE_MS + 1_000);
    expect(expectOk(await hotMode(hot.walletId, false)).hotMode).toBeNull();
    expect((await balanceOf(organization.key, hot.walletId)).toFixed(8)).toBe(expectHot.toFixed(8));
    expect((await balanceOf(organization.key, organization.mainWalletId)).toFixed(8)).toBe(expectMain.toFixed(8));
    await expectLedgerClean();
  }, 120_000);

  it('keeps a daily limit under concurrent payments out of a hot wallet: never overspent, POLICY_DENIED only when the quota left cannot cover it', async () => {
    // Prepare: a hot agent with 50.00 and a daily limit of 4.00 (its quota spread over the lanes, 0.05 each).
    const organization = await freshOrganization();
    await ledger.fund(organization.key, organization.mainWalletId, '100.00');
    const hot = await fundedAgent(organization, 'Limited hot agent', '50.00');
    await ledger.createPolicy(organization.key, { walletId: hot.walletId, dailyLimit: '4.00' });
    expectOk(await hotMode(hot.walletId, true));
    await keep(hot.walletId);
    const cycle = ['0.35', '0.60', '0.85', '0.40', '0.05', '1.35', '0.12', '0.90'];
    const amounts = Array.from({ length: 10 }, (_, i) => cycle[i % cycle.length]!);

    // Act: 10 payments at once, 6.27 offered against 4.00 (a limited debit beyond a lane's quota takes the exact slow path).
    const answers = await Promise.all(
      amounts.map((amount, i) =>
        payAsClient(
          hot.key,
          { from: hot.walletId, to: organization.mainWalletId, amount },
          `limit-${hot.walletId}-${i}`,
        ),
      ),
    );

    // Assess: posted or POLICY_DENIED (the daily limit) only.
    const posted: string[] = [];
    const denied: string[] = [];
    answers.forEach((answer, i) => {
      if (answer.status === 200) posted.push(amounts[i]!);
      else {
        expect(expectApiError(answer, 403, 'POLICY_DENIED').details?.rule, answer.text).toBe('dailyLimit');
        denied.push(amounts[i]!);
      }
    });
    const spent = sum(posted);
    const left = new Big('4.00').minus(spent);
    expect(spent.lte('4.00')).toBe(true);
    // Spend only grows, so the quota left at any refusal was at least `left`: a refused amount it could cover was a false refusal.
    for (const amount of denied) expect(new Big(amount).gt(left), `${amount} refused with ${left} left`).toBe(true);
    expect((await balanceOf(organization.key, hot.walletId)).toFixed(8)).toBe(new Big(50).minus(spent).toFixed(8));
    // The exact rest posts; one cent more is refused.
    if (left.gt(0))
      expect(
        (
          await payAsClient(
            hot.key,
            { from: hot.walletId, to: organization.mainWalletId, amount: left.toFixed(2) },
            `rest-${hot.walletId}`,
          )
        ).status,
      ).toBe(200);
    expectApiError(
      await payAsClient(
        hot.key,
        { from: hot.walletId, to: organization.mainWalletId, amount: '0.01' },
        `over-${hot.walletId}`,
      ),
      403,
      'POLICY_DENIED',
    );
    expect((await balanceOf(organization.key, hot.walletId)).toFixed(8)).toBe('46.00000000');
    await expectLedgerClean();
  }, 120_000);

  it('deletes an agent whose wallet is hot, under payments in flight: the exact balance swept to the main wallet, audited, a payment that landed after the close bounced to its payer', async () => {
    // Prepare: a hot agent with 40.00 paying out and being paid, a cold agent closed alongside for the answers to compare.
    const organization = await freshOrganization();
    await ledger.fund(organization.key, organization.mainWalletId, '200.00');
    const hot = await fundedAgent(organization, 'Hot agent to delete', '40.00');
    const payer = await fundedAgent(organization, 'Payer', '30.00');
    const cold = await fundedAgent(organization, 'Cold agent to delete', '5.00');
    expectOk(await hotMode(hot.walletId, true));
    await keep(hot.walletId);
    const pays = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        payAsClient(
          payer.key,
          { from: payer.walletId, to: hot.walletId, amount: '0.75' },
          `del-in-${hot.walletId}-${i}`,
        ),
      );
    const outs = Array.from({ length: 5 }, (_, i) =>
      payAsClient(
        hot.key,
        { from: hot.walletId, to: organization.mainWalletId, amount: '0.40' },
        `del-out-${hot.walletId}-${i}`,
      ),
    );

    // Act: the deletion among payments in flight (retried as a client does on 409).
    const deletion = (async () => {
      for (let attempt = 1; ; attempt++) {
        const response = await service.call('DELETE', `/v1/agents/${hot.walletId}`, { key: organization.key });
        if (response.status !== 409 || attempt >= 10) return response;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const [deleted, answersIn, answersOut] = await Promise.all([deletion, Promise.all(pays(6)), Promise.all(outs)]);
    const coldDeleted = expectOk(
      await service.call('DELETE', `/v1/agents/${cold.walletId}`, { key: organization.key }),
    );

    // Assess: deleted, and what it swept is the money it had.
    const answer = expectOk(deleted);
    expect(answer).toMatchObject({ id: hot.walletId, deleted: true });
    const inOk = answersIn.filter((a) => a.status === 200);
    const outOk = answersOut.filter((a) => a.status === 200);
    for (const refused of [...answersIn, ...answersOut].filter((a) => a.status !== 200))
      expect([403, 401], refused.text).toContain(refused.status);
    // After the close: payments into it answer as into a closed cold wallet; out of it, its key is revoked.
    const intoHot = await service.call('POST', '/v1/payments', {
      key: payer.key,
      body: { from: payer.walletId, to: hot.walletId, amount: '1.00' },
    });
    const intoCold = await service.call('POST', '/v1/payments', {
      key: payer.key,
      body: { from: payer.walletId, to: cold.walletId, amount: '1.00' },
    });
    expect({ status: intoHot.status, code: intoHot.body?.error?.code }).toEqual({
      status: intoCold.status,
      code: intoCold.body?.error?.code,
    });
    expectApiError(intoHot, 403, 'WALLET_FROZEN');
    expect(
      (
        await service.call('POST', '/v1/payments', {
          key: hot.key,
          body: { from: hot.walletId, to: organization.mainWalletId, amount: '1.00' },
        })
      ).status,
    ).toBe(401);

    // Every payment into it either counted in the sweep or bounced back (REVERSED): the payer and the main wallet add up.
    await expectLedgerClean();
    const statuses = await Promise.all(
      inOk.map(
        async (a) => expectOk(await service.call('GET', `/v1/payments/${a.body.id}`, { key: organization.key })).status,
      ),
    );
    const bounced = statuses.filter((status) => status === 'REVERSED').length;
    expect(statuses.filter((status) => status !== 'REVERSED' && status !== 'POSTED')).toEqual([]);
    const kept = new Big('0.75').times(inOk.length - bounced);
    const swept = new Big('40').plus(kept).minus(new Big('0.40').times(outOk.length));
    expect(answer.sweptAmount).toBe(swept.toFixed(8));
    expect((await balanceOf(organization.key, payer.walletId)).toFixed(8)).toBe(new Big(30).minus(kept).toFixed(8));
    expect((await balanceOf(organization.key, organization.mainWalletId)).toFixed(8)).toBe(
      new Big(200)
        .minus(40 + 30 + 5)
        .plus(new Big('0.40').times(outOk.length))
        .plus(swept)
        .plus(coldDeleted.sweptAmount)
        .toFixed(8),
    );
    const audit = (await ledger.auditOf(organization.organizationId)).filter(
      (entry) => entry.action === 'wallet.close' && entry.resourceId === hot.walletId,
    );
    expect(audit).toEqual([
      expect.objectContaining({ metadata: expect.objectContaining({ sweptAmount: swept.toFixed(8) }) }),
    ]);
    const events = (await outboxEventsOf(service, organization.organizationId)).filter(
      (event) => event.type === 'agent.deleted' && event.data?.id === hot.walletId,
    );
    expect(events).toHaveLength(1);

    // After the settle window the keeper removes its lanes and hot mode: cold and closed, nothing left.
    await keep(hot.walletId, HOT_SETTLE_MS + 1_000);
    expect(expectOk(await hotMode(hot.walletId, false)).hotMode).toBeNull();
    expect((await balanceOf(organization.key, hot.walletId)).toFixed(8)).toBe('0.00000000');
    await expectLedgerClean();
  }, 120_000);
});
