import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

/**
 * Transfers over HTTP, as a client uses them, against the local service with its default
 * TIME_SCALE (60: ACH settles in 3 s, WIRE in 1 s, FEDNOW in 33 ms, USDC in 0.5 s; ACH clears 2 s
 * later): the workflow drives every transfer on its own. Balances are checked at every state a
 * client can observe, and every state change reaches a registered webhook.
 */
type Org = Awaited<ReturnType<TestService['createOrganization']>>;
type Rail = 'ACH' | 'WIRE' | 'FEDNOW' | 'USDC';
interface Balances {
  balance: string;
  heldBalance: string;
  pendingBalance: string;
}

const SETTLED_WITHIN_MS = 15_000;
const bank = (type: Rail, accountNumber = '000123456789') =>
  type === 'USDC'
    ? { type, address: '0x52908400098527886E0F7030069857D2E4169EE7' }
    : { type, routingNumber: '021000021', accountNumber };

describe('transfers over HTTP (the workflow settles them on its own)', () => {
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let org: Org;

  beforeAll(async () => {
    // This file follows several transfers at once by polling with one key: above the default 100 requests a second.
    service = await startTestService({
      WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_SECOND: '2000',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    receiver = await startReceiver();
    org = await service.createOrganization('Transfers Org');
    const hook = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: { url: receiver.url('/transfers'), events: ['*'] },
    });
    expect(hook.status, hook.text).toBe(201);
  });
  afterAll(async () => {
    await receiver.close();
    await service.close();
  });

  const call = (method: string, path: string, body?: unknown, key = org.key) =>
    service.call(method, path, { key, ...(body !== undefined ? { body } : {}) });

  async function newWallet(fund?: string): Promise<string> {
    const created = await call('POST', '/v1/wallets', { name: 'Transfer wallet' });
    expect(created.status, created.text).toBe(201);
    if (fund) expect((await call('POST', `/v1/wallets/${created.body.id}/fund`, { amount: fund })).status).toBe(200);
    return created.body.id as string;
  }

  async function balancesOf(walletId: string): Promise<Balances> {
    const wallet = (await call('GET', `/v1/wallets/${walletId}`)).body;
    return { balance: wallet.balance, heldBalance: wallet.heldBalance, pendingBalance: wallet.pendingBalance };
  }

  /**
   * Follows a transfer until `done(status)`, checking the wallet against `expected(status)` at every
   * state seen (a state read before and after the wallet). Answers the states seen, in order.
   */
  async function follow(
    transferId: string,
    walletId: string,
    expected: (status: string) => Balances | undefined,
    done: (transfer: Record<string, any>) => boolean,
  ): Promise<{ seen: string[]; transfer: Record<string, any> }> {
    const seen: string[] = [];
    const deadline = Date.now() + SETTLED_WITHIN_MS;
    const stateOf = (transfer: Record<string, any>) =>
      transfer.status === 'COMPLETED' && transfer.clearing
        ? `COMPLETED/${transfer.clearing.status}`
        : (transfer.status as string);
    for (;;) {
      // The transfer, the wallet, the transfer again: the same state both times proves the wallet was read in it.
      const before = (await call('GET', `/v1/transfers/${transferId}`)).body;
      const wallet = await balancesOf(walletId);
      const transfer = (await call('GET', `/v1/transfers/${transferId}`)).body;
      const state = stateOf(transfer);
      if (seen.at(-1) !== state) seen.push(state);
      const want = expected(state);
      if (want && stateOf(before) === state) expect(wallet, `${transferId} ${state}`).toEqual(want);
      if (done(transfer)) {
        if (want) expect(await balancesOf(walletId), `${transferId} ${state}`).toEqual(want);
        return { seen, transfer };
      }
      if (Date.now() > deadline) throw new Error(`${transferId} still ${state} (seen ${seen.join(' -> ')})`);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  }

  const finished = (transfer: Record<string, any>) =>
    ['FAILED', 'CANCELLED'].includes(transfer.status) ||
    (transfer.status === 'COMPLETED' && (!transfer.clearing || transfer.clearing.status === 'AVAILABLE'));
  const balances = (balance: string, heldBalance = '0.00000000', pendingBalance = '0.00000000'): Balances => ({
    balance,
    heldBalance,
    pendingBalance,
  });

  it.each<[Rail, string, string, string]>([
    ['ACH', '100.00', '0.50', '99.50000000'],
    ['WIRE', '1000.00', '5.00', '995.00000000'],
    ['FEDNOW', '25.00', '0.25', '24.75000000'],
    ['USDC', '100.123456', '0.50', '99.62345600'],
  ])(
    'a %s deposit reaches COMPLETED on its own and credits amount - fee (exact at every step)',
    async (rail, amount, fee, net) => {
      const walletId = await newWallet();
      const created = await call('POST', '/v1/transfers/deposit', {
        walletId,
        amount,
        currency: rail === 'USDC' ? 'USDC' : 'USD',
        source: bank(rail),
      });
      expect(created.status, created.text).toBe(202);
      expect(created.body).toMatchObject({
        object: 'transfer',
        status: 'INITIATED',
        direction: 'DEPOSIT',
        rail,
        amount,
        fee,
        walletId,
      });
      const zero = balances('0.00000000');
      const { seen, transfer } = await follow(
        created.body.id,
        walletId,
        (state) =>
          state === 'COMPLETED/PENDING'
            ? balances('0.00000000', '0.00000000', net)
            : state === 'COMPLETED' || state === 'COMPLETED/AVAILABLE'
              ? balances(net)
              : zero,
        finished,
      );
      expect(seen).toContain(rail === 'ACH' ? 'COMPLETED/AVAILABLE' : 'COMPLETED');
      if (rail === 'ACH') expect(seen).toContain('COMPLETED/PENDING');
      expect(transfer).toMatchObject({ status: 'COMPLETED', failureReason: null, completedAt: expect.any(String) });
      expect(await balancesOf(walletId)).toEqual(balances(net));
    },
  );

  it.each<[Rail, string, string, string, string]>([
    ['ACH', '200.00', '1.00', '299.00000000', '201.00000000'],
    ['WIRE', '40.00', '0.25', '459.75000000', '40.25000000'],
    ['FEDNOW', '100.00', '0.50', '399.50000000', '100.50000000'],
    ['USDC', '10.50', '0.25', '489.25000000', '10.75000000'],
  ])('a %s withdrawal holds amount + fee, then pays it out on completion', async (rail, amount, fee, after, held) => {
    const walletId = await newWallet('500.00');
    const created = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount,
      currency: rail === 'USDC' ? 'USDC' : 'USD',
      destination: bank(rail),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ status: 'INITIATED', direction: 'WITHDRAWAL', rail, amount, fee });
    const { seen } = await follow(
      created.body.id,
      walletId,
      (state) => (state === 'COMPLETED' ? balances(after) : balances(after, held)),
      finished,
    );
    expect(seen.at(-1)).toBe('COMPLETED');
  });

  it('an account ending 0002 and a USDC address ending dead end FAILED with the funds returned', async () => {
    const walletId = await newWallet('100.00');
    const achOut = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '20.00',
      currency: 'USD',
      destination: bank('ACH', '000000000002'),
    });
    // ACH settles after 3 s: until then amount + fee are held.
    expect(await balancesOf(walletId)).toEqual(balances('79.75000000', '20.25000000'));
    const usdcOut = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '30.00',
      currency: 'USDC',
      destination: { type: 'USDC', address: '0x000000000000000000000000000000000000dead', chain: 'Ethereum' },
    });
    const achIn = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '50.00',
      currency: 'USD',
      source: bank('ACH', '000000000002'),
    });
    for (const created of [achOut, usdcOut, achIn]) expect(created.status, created.text).toBeLessThan(300);
    const ended = await Promise.all(
      [achOut, usdcOut, achIn].map((created) => follow(created.body.id, walletId, () => undefined, finished)),
    );
    expect(ended.map(({ transfer }) => [transfer.status, transfer.failureReason])).toEqual([
      ['FAILED', 'R03_NO_ACCOUNT'],
      ['FAILED', 'ADDRESS_REJECTED'],
      ['FAILED', 'R03_NO_ACCOUNT'],
    ]);
    expect(await balancesOf(walletId)).toEqual(balances('100.00000000'));
  });

  it('cancel from PENDING returns amount and fee, and answers 409 INVALID_STATE afterwards (the settle step after a cancel: test/unit/transfer-service.test.ts)', async () => {
    const walletId = await newWallet('100.00');
    const created = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '60.00',
      currency: 'USD',
      destination: bank('ACH'),
    });
    await eventually(async () =>
      expect((await call('GET', `/v1/transfers/${created.body.id}`)).body.status).toBe('PENDING'),
    );
    expect(await balancesOf(walletId)).toEqual(balances('39.70000000', '60.30000000'));
    const cancelled = await call('POST', `/v1/transfers/${created.body.id}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledAt: expect.any(String) });
    expect(await balancesOf(walletId)).toEqual(balances('100.00000000'));
    const again = await call('POST', `/v1/transfers/${created.body.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
  });

  it('refuses unverified and unknown bank accounts and a missing source, each with its code (the amount and rail rules: test/unit/transfer-service.test.ts)', async () => {
    const walletId = await newWallet();
    const linked = await call('POST', '/v1/bank-accounts', {
      routingNumber: '011000015',
      accountNumber: '000987654321',
      accountName: 'Ops',
      accountType: 'CHECKING',
    });
    expect(linked.status, linked.text).toBe(201);
    const unverified = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      bankAccountId: linked.body.id,
    });
    expect([unverified.status, unverified.body.error.code]).toEqual([400, 'BANK_ACCOUNT_NOT_VERIFIED']);
    const unknown = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      bankAccountId: 'ba_DoesNotExist000000000000',
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'BANK_ACCOUNT_NOT_FOUND']);
    const neither = await call('POST', '/v1/transfers/deposit', { walletId, amount: '30.00', currency: 'USD' });
    expect([neither.status, neither.body.error.code, neither.body.error.details.field]).toEqual([
      400,
      'VALIDATION_ERROR',
      'source',
    ]);
    const badRouting = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      source: { type: 'ACH', routingNumber: '021000022', accountNumber: '000123456789' },
    });
    expect([badRouting.status, badRouting.body.error.details.field]).toEqual([400, 'source.routingNumber']);
    const massAssigned = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      source: bank('ACH'),
      status: 'COMPLETED',
    });
    expect([massAssigned.status, massAssigned.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    // Verified, the same account works.
    expect(
      (await call('POST', `/v1/bank-accounts/${linked.body.id}/verify`, { amounts: ['0.32', '0.45'] })).status,
    ).toBe(200);
    const verified = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      bankAccountId: linked.body.id,
    });
    expect(verified.status, verified.text).toBe(202);
    expect(verified.body.source).toMatchObject({ type: 'ACH', bankAccountId: linked.body.id, last4: '4321' });
    expect(JSON.stringify((await call('GET', '/v1/transfers')).body)).not.toContain('000987654321');
  });

  it("another organization's transfer answers 404, and an agent key sees only its own wallet's transfers", async () => {
    const walletId = await newWallet('100.00');
    const mine = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '5.00',
      currency: 'USD',
      destination: bank('WIRE'),
    });
    const other = await service.createOrganization('Other Org');
    const foreign = await call('GET', `/v1/transfers/${mine.body.id}`, undefined, other.key);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'TRANSFER_NOT_FOUND']);
    expect((await call('POST', `/v1/transfers/${mine.body.id}/cancel`, undefined, other.key)).status).toBe(404);
    expect((await call('GET', '/v1/transfers', undefined, other.key)).body.data).toEqual([]);

    const agent = await call('POST', '/v1/agents', { name: 'Transfer agent' });
    expect(agent.status, agent.text).toBe(201);
    const hidden = await call('GET', `/v1/transfers/${mine.body.id}`, undefined, agent.body.apiKey);
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'TRANSFER_NOT_FOUND']);
    const notOwn = await call(
      'POST',
      '/v1/transfers/withdraw',
      { walletId, amount: '5.00', currency: 'USD', destination: bank('WIRE') },
      agent.body.apiKey,
    );
    expect([notOwn.status, notOwn.body.error.code]).toEqual([404, 'WALLET_NOT_FOUND']);
    const helper = await call(
      'POST',
      `/v1/test-helpers/transfers/${mine.body.id}/advance`,
      { to: 'COMPLETED' },
      agent.body.apiKey,
    );
    expect(helper.status).toBe(403);
  });

  it('internal transfers move money at once; the same idempotency key answers the first deposit again', async () => {
    const from = await newWallet('50.00');
    const to = await newWallet();
    const moved = await call('POST', '/v1/transfers/internal', {
      fromWalletId: from,
      toWalletId: to,
      amount: '20.00',
      description: 'float',
    });
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body).toMatchObject({
      status: 'COMPLETED',
      rail: 'INTERNAL',
      direction: 'INTERNAL',
      fee: '0.00',
      toWalletId: to,
      description: 'float',
    });
    expect((await balancesOf(from)).balance).toBe('30.00000000');
    expect((await balancesOf(to)).balance).toBe('20.00000000');

    const body = { walletId: to, amount: '25.00', currency: 'USD', source: bank('FEDNOW') };
    const first = await service.call('POST', '/v1/transfers/deposit', {
      key: org.key,
      body,
      headers: { 'idempotency-key': 'deposit-once' },
    });
    const second = await service.call('POST', '/v1/transfers/deposit', {
      key: org.key,
      body,
      headers: { 'idempotency-key': 'deposit-once' },
    });
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    const listed = await call('GET', `/v1/transfers?walletId=${to}&direction=DEPOSIT`);
    expect(listed.body.data.map((transfer: { id: string }) => transfer.id)).toEqual([first.body.id]);
  });

  it('the test helper advances a transfer through the same states and movements', async () => {
    const walletId = await newWallet();
    const created = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '40.00',
      currency: 'USD',
      source: bank('WIRE'),
    });
    const advanced = await call('POST', `/v1/test-helpers/transfers/${created.body.id}/advance`, { to: 'COMPLETED' });
    expect(advanced.status, advanced.text).toBe(200);
    expect(advanced.body).toMatchObject({ status: 'COMPLETED' });
    expect((await balancesOf(walletId)).balance).toBe('39.75000000');
    const back = await call('POST', `/v1/test-helpers/transfers/${created.body.id}/advance`, { to: 'FAILED' });
    expect([back.status, back.body.error.code]).toEqual([409, 'INVALID_STATE']);
    // The workflow finds the work done: nothing is credited twice.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await balancesOf(walletId)).balance).toBe('39.75000000');
  });

  it('every state change reached the registered webhook as its event', async () => {
    const walletId = await newWallet('100.00');
    const out = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '10.00',
      currency: 'USD',
      destination: bank('FEDNOW'),
    });
    const fails = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '10.00',
      currency: 'USD',
      destination: bank('FEDNOW', '000000000002'),
    });
    const inbound = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      source: bank('ACH'),
    });
    const failsIn = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      source: bank('WIRE', '000000000002'),
    });
    const rejected = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '10.00',
      currency: 'USD',
      destination: bank('WIRE', '000000000003'),
    });
    const cancelledIn = await call('POST', '/v1/transfers/deposit', {
      walletId,
      amount: '30.00',
      currency: 'USD',
      source: bank('ACH'),
    });
    const cancelledOut = await call('POST', '/v1/transfers/withdraw', {
      walletId,
      amount: '10.00',
      currency: 'USD',
      destination: bank('ACH'),
    });
    for (const created of [cancelledIn, cancelledOut]) {
      await eventually(async () =>
        expect((await call('GET', `/v1/transfers/${created.body.id}`)).body.status).toBe('PENDING'),
      );
      expect((await call('POST', `/v1/transfers/${created.body.id}/cancel`)).body.status).toBe('CANCELLED');
    }
    await Promise.all(
      [out, fails, inbound, failsIn, rejected].map((created) =>
        follow(created.body.id, walletId, () => undefined, finished),
      ),
    );
    const eventsOf = (id: string) =>
      receiver
        .at('/transfers')
        .map((hook) => JSON.parse(hook.body))
        .filter((event) => event.data.id === id || event.data.transferId === id)
        .map((event) => event.type);
    await eventually(() => {
      expect(eventsOf(out.body.id).sort()).toEqual(['withdrawal.completed', 'withdrawal.initiated']);
      expect(eventsOf(fails.body.id).sort()).toEqual(['withdrawal.failed', 'withdrawal.initiated']);
      expect(eventsOf(inbound.body.id).sort()).toEqual([
        'deposit.completed',
        'deposit.initiated',
        'wallet.funds_available',
        'wallet.funds_pending',
      ]);
      expect(eventsOf(failsIn.body.id).sort()).toEqual(['deposit.failed', 'deposit.initiated']);
      // Rejected at submission: never initiated.
      expect(eventsOf(rejected.body.id)).toEqual(['withdrawal.failed']);
      expect(eventsOf(cancelledIn.body.id).sort()).toEqual(['deposit.cancelled', 'deposit.initiated']);
      expect(eventsOf(cancelledOut.body.id).sort()).toEqual(['withdrawal.cancelled', 'withdrawal.initiated']);
    }, 5000);
    // Nothing was credited by the failed or cancelled deposits; the withdrawals that did not complete returned everything.
    // 100.00 funded - 10.25 (withdrawal and fee) + 29.75 (ACH deposit net, cleared) = 119.50.
    expect(await balancesOf(walletId)).toEqual(balances('119.50000000'));
    const completed = receiver
      .at('/transfers')
      .map((hook) => JSON.parse(hook.body))
      .find((event) => event.type === 'deposit.completed' && event.data.id === inbound.body.id);
    expect(completed.data).toMatchObject({
      id: inbound.body.id,
      status: 'COMPLETED',
      netAmount: '29.75',
      clearing: { status: 'PENDING' },
    });
    expect(JSON.stringify(receiver.received.map((hook) => hook.body))).not.toContain('000123456789');
  });
});
