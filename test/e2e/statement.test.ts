import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectStatus,
  ledgerClient,
  type LedgerClient,
  type Organization,
} from '../fixtures/payments-client.js';
import type { ApiResponse } from '../fixtures/local-service.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

interface StatementEntry {
  transactionId: string;
  type: string;
  amount: string;
  balanceAfter: string;
  description: string | null;
  createdAt: string;
}

describe('statement: GET /v1/wallets/:id/transactions', () => {
  let service: TestService;
  let ledger: LedgerClient;
  let org: Organization;
  let otherOrg: Organization;
  let wallet: string;
  let counterparty: string;
  /** The wallet's movements oldest first: [transactionId, type, signed amount]. */
  let movements: [string, string, string][];
  beforeAll(async () => {
    service = await startTestService();
    ledger = ledgerClient(service);
    org = await service.createOrganization('Statement Org');
    otherOrg = await service.createOrganization('Other Org');
    wallet = await ledger.createWallet(org.key, 'Main ops');
    counterparty = await ledger.fundedWallet(org, '500.00', 'Counterparty');
    movements = [];
    const fund = await service.call('POST', `/v1/wallets/${wallet}/fund`, { key: org.key, body: { amount: '100.00' } });
    movements.push([fund.body.transactionId, 'FUNDING', '100']);
    const out1 = await ledger.paid(org.key, {
      from: wallet,
      to: counterparty,
      amount: '30.25',
      description: 'hosting',
    });
    movements.push([out1.id, 'PAYMENT', '-30.25']);
    const in1 = await ledger.paid(org.key, { from: counterparty, to: wallet, amount: '10.00' });
    movements.push([in1.id, 'PAYMENT', '10']);
    const out2 = await ledger.paid(org.key, { from: wallet, to: counterparty, amount: '5.50' });
    movements.push([out2.id, 'PAYMENT', '-5.5']);
    const reversal = await service.call('POST', `/v1/payments/${out2.id}/reverse`, { key: org.key });
    movements.push([reversal.body.id, 'REVERSAL', '5.5']);
  });
  afterAll(() => service.close());

  const statement = (query = '', walletId = wallet, key = org.key) =>
    service.call('GET', `/v1/wallets/${walletId}/transactions${query}`, { key });

  /** The expected statement newest first, each entry with the balance right after it. */
  function expectedEntries() {
    let running = new Big(0);
    const lines = movements.map(([transactionId, type, amount]) => {
      running = running.plus(amount);
      return { transactionId, type, amount: new Big(amount).toFixed(8), balanceAfter: running.toFixed(8) };
    });
    return lines.reverse();
  }

  const shape = (response: ApiResponse) =>
    (response.body.data as StatementEntry[]).map(({ transactionId, type, amount, balanceAfter }) => ({
      transactionId,
      type,
      amount,
      balanceAfter,
    }));

  it('lists the wallet entries newest first with signed amounts and the balance after each', async () => {
    // Act
    const response = await statement();

    // Assess
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ cursor: null, hasMore: false });
    expect(shape(response)).toEqual(expectedEntries());
    expect(response.body.data[0].balanceAfter).toBe(await ledger.balanceOf(org.key, wallet));
    expect(response.body.data.find((e: StatementEntry) => e.transactionId === movements[1]![0]).description).toBe(
      'hosting',
    );
  });

  it('keeps balanceAfter right across pages of 2 entries', async () => {
    // Act
    const pages = await ledger.allPages(org.key, `/v1/wallets/${wallet}/transactions`, 2);

    // Assess
    expect(pages.map((p) => p.body.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap(shape)).toEqual(expectedEntries());
    expect(pages.at(-1)!.body).toMatchObject({ cursor: null, hasMore: false });
  });

  it('anchors later pages on the first page even when money moves between page requests', async () => {
    // Prepare
    const own = await ledger.fundedWallet(org, '40.00', 'Moving');
    await ledger.paid(org.key, { from: own, to: counterparty, amount: '15.00' });
    await ledger.paid(org.key, { from: own, to: counterparty, amount: '5.00' });
    const first = await statement('?limit=2', own);

    // Act
    await ledger.paid(org.key, { from: own, to: counterparty, amount: '1.00' });
    const second = await statement(`?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`, own);

    // Assess
    expect(first.body.data.map((e: StatementEntry) => e.balanceAfter)).toEqual(['20.00000000', '25.00000000']);
    expect(second.body.data.map((e: StatementEntry) => [e.type, e.balanceAfter])).toEqual([['FUNDING', '40.00000000']]);
  });

  it("shows the receiving side in the payee's statement", async () => {
    // Prepare
    const receiver = await ledger.fundedWallet(otherOrg, undefined, 'Receiver');
    const payment = await ledger.paid(org.key, { from: counterparty, to: receiver, amount: '7.77' });

    // Act
    const response = await statement('', receiver, otherOrg.key);

    // Assess
    expectStatus(response, 200);
    expect(shape(response)).toEqual([
      { transactionId: payment.id, type: 'PAYMENT', amount: '7.77000000', balanceAfter: '7.77000000' },
    ]);
  });

  it('answers an empty page for a wallet without movements', async () => {
    const empty = await ledger.createWallet(org.key, 'Empty');
    const response = await statement('', empty);
    expectStatus(response, 200);
    expect(response.body).toEqual({ data: [], cursor: null, hasMore: false });
  });

  it("answers 404 WALLET_NOT_FOUND for an unknown wallet and for another organization's wallet", async () => {
    expectApiError(await statement('', 'wal_doesnotexist000000000000'), 404, 'WALLET_NOT_FOUND');
    expectApiError(await statement('', wallet, otherOrg.key), 404, 'WALLET_NOT_FOUND');
  });

  it('answers 404 WALLET_NOT_FOUND to an agent key for a wallet that is not its own', async () => {
    const agent = await ledger.createAgent(org, 'Curious');
    expectApiError(await statement('', wallet, agent.key), 404, 'WALLET_NOT_FOUND');
    expectStatus(await statement('', agent.walletId, agent.key), 200);
  });

  it('answers 400 VALIDATION_ERROR for a limit out of range, a forged cursor or a cursor of another wallet', async () => {
    // Prepare
    const page = await statement('?limit=2');
    const cursor = encodeURIComponent(page.body.cursor as string);

    // Act
    const responses = [
      await statement('?limit=0'),
      await statement('?limit=101'),
      await statement('?cursor=forged.cursor'),
      await statement(`?limit=2&cursor=${cursor}`, counterparty),
    ];

    // Assess
    for (const response of responses) expectApiError(response, 400, 'VALIDATION_ERROR');
  });

  it('answers 403 PERMISSION_DENIED for a key without wallets:read and 401 without a key', async () => {
    const payer = await ledger.createKey(org, ['payments:read', 'payments:write']);
    expectApiError(await statement('', wallet, payer.key), 403, 'PERMISSION_DENIED');
    expectApiError(await service.call('GET', `/v1/wallets/${wallet}/transactions`), 401, 'UNAUTHORIZED');
  });

  it('agrees with the ledger invariants after all the movements', async () => {
    await ledger.expectLedgerBalanced();
  });
});
