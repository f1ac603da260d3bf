import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import type { ApiResponse } from '../fixtures/local-service.js';
import { systemAccountEntries, walletEntries } from '../fixtures/table-reads.js';

/** The body of a response with this status (its text shown when it has another). */
function expectStatus(response: ApiResponse, status: number): any {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/**
 * Payment links claimed to a bank account or a USDC address, over HTTP (docs/api.md "Payment
 * links", "Claims to a bank account or USDC address"), against the local service with its default
 * TIME_SCALE (60: ACH settles in 3 s, USDC in 0.5 s). The claim starts a withdrawal that adopts the
 * link's hold; its end decides the link: SETTLED, ACTIVE again with the hold intact, or (past
 * `expiresAt`) EXPIRED with the hold released. Balances are exact at every step; acc_FEES gets the
 * link's fee once per settled link, never for a failed claim.
 */
const SETTLES_WITHIN_MS = 20_000;
/** The event feed is filled from the table's stream: a few seconds behind, more on a busy machine. */
const EVENT_WITHIN_MS = 25_000;
const GOOD_ACCOUNT = '000123456789';
const USDC_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('payment links claimed to a bank account or USDC address', () => {
  const { service, ledger, sender } = setupE2e({
    // Account numbers are sealed with the data key; the polling of five journeys needs more than 100 requests a second.
    env: {
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_SECOND: '2000',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
    organizations: { sender: 'Rail Link Sender Org' },
  });

  const call = (method: string, path: string, body?: unknown) =>
    service.call(method, path, { key: sender.key, ...(body !== undefined ? { body } : {}) });
  const freshWallet = () => ledger.fundedWallet(sender, '100.00', 'Rail links');
  const createLink = async (walletId: string, extra: Record<string, unknown> = {}) =>
    expectStatus(await call('POST', '/v1/payment-links', { walletId, amount: '50.00', ...extra }), 201) as Record<
      string,
      any
    >;
  const getLink = async (id: string) => expectStatus(await call('GET', `/v1/payment-links/${id}`), 200);
  const getTransfer = async (id: string) => expectStatus(await call('GET', `/v1/transfers/${id}`), 200);
  const claim = (slug: string, body: Record<string, unknown>) =>
    service.call('POST', `/v1/payment-links/claim/${slug}/claim`, { body });
  const ach = (accountNumber: string) => ({
    method: 'ach',
    destination: { type: 'ACH', routingNumber: '021000021', accountNumber, accountName: 'Jane Doe' },
  });
  const usdc = (address: string) => ({ method: 'usdc', destination: { type: 'USDC', address } });

  async function balancesOf(walletId: string): Promise<[string, string]> {
    const wallet = expectStatus(await call('GET', `/v1/wallets/${walletId}`), 200);
    return [wallet.balance, wallet.heldBalance];
  }
  /** The link once it reached `status` (the workflow drives its transfer on its own). */
  const linkReaching = (id: string, status: string) =>
    eventually(async () => {
      const link = await getLink(id);
      expect(link.status).toBe(status);
      return link;
    }, SETTLES_WITHIN_MS);
  /** What acc_FEES holds of the sender organization, from the journal. */
  const feesOfSender = async () =>
    (await systemAccountEntries(service.table, 'SANDBOX', 'acc_FEES'))
      .filter((entry) => entry.organizationId === sender.organizationId)
      .reduce((sum, entry) => sum.plus(entry.amount as string), new Big(0))
      .toFixed(2);
  /** The sender's events of a type (the feed lags a few seconds). */
  const eventsOf = async (type: string) =>
    (expectStatus(await call('GET', `/v1/events?type=${type}&limit=100`), 200).data as {
      type: string;
      data: Record<string, any>;
    }[]) ?? [];
  const eventuallyEvent = (type: string, id: string) =>
    eventually(async () => {
      const found = (await eventsOf(type)).filter((event) => event.data.id === id);
      expect(found, `${type} of ${id}`).toHaveLength(1);
      return found[0]!;
    }, EVENT_WITHIN_MS);

  it('ach: CLAIMED with the hold still held, then SETTLED when the withdrawal completes (the fee charged once)', async () => {
    // Prepare
    const walletId = await freshWallet();
    const feesBefore = await feesOfSender();
    const link = await createLink(walletId);
    expect(link).toMatchObject({ amount: '50.00', fee: '0.25', status: 'ACTIVE' });
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '50.25000000']);

    // Act
    const claimed = expectStatus(await claim(link.slug, ach(GOOD_ACCOUNT)), 200);

    // Assess: the claim answers the public view, CLAIMED; the money is still held (the transfer adopted the hold).
    expect(claimed).toMatchObject({ amount: '50.00', status: 'CLAIMED' });
    expect(claimed).not.toHaveProperty('transactionId');
    expect(JSON.stringify(claimed)).not.toContain(GOOD_ACCOUNT);
    const view = await getLink(link.id);
    expect(view).toMatchObject({
      status: 'CLAIMED',
      feeCharged: null,
      claim: {
        method: 'ach',
        destination: { type: 'ACH', routingNumber: '021000021', last4: '6789', accountName: 'Jane Doe' },
        recipientEmail: null,
      },
    });
    expect(JSON.stringify(view)).not.toContain(GOOD_ACCOUNT);
    const transferId = view.claim.transferId as string;
    expect(transferId).toMatch(/^tr_/);
    expect(await getTransfer(transferId)).toMatchObject({
      direction: 'WITHDRAWAL',
      rail: 'ACH',
      currency: 'USD',
      amount: '50.00',
      fee: '0.25',
      walletId,
      paymentLinkId: link.id,
      destination: { type: 'ACH', routingNumber: '021000021', last4: '6789' },
    });
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '50.25000000']);

    const settled = await linkReaching(link.id, 'SETTLED');
    const transfer = await getTransfer(transferId);
    expect(transfer).toMatchObject({ status: 'COMPLETED', fee: '0.25' });
    // The link's transactionId is the capture of its hold (the one CAPTURE of the wallet).
    const captures = (await walletEntries(service.table, walletId)).filter((e) => e.transactionType === 'CAPTURE');
    expect(captures).toHaveLength(1);
    expect(settled).toMatchObject({ feeCharged: '0.25', transactionId: captures[0]!.transactionId });
    expect(settled.settledAt).not.toBeNull();
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '0.00000000']);
    expect(new Big(await feesOfSender()).minus(feesBefore).toFixed(2)).toBe('0.25');

    // The link's organization sees the claim, the settlement and the withdrawal in its event feed.
    expect((await eventuallyEvent('payment_link.claimed', link.id)).data).toMatchObject({ status: 'CLAIMED' });
    expect((await eventuallyEvent('payment_link.settled', link.id)).data).toMatchObject({
      status: 'SETTLED',
      feeCharged: '0.25',
    });
    await eventuallyEvent('withdrawal.initiated', transferId);
    expect((await eventuallyEvent('withdrawal.completed', transferId)).data).toMatchObject({ status: 'COMPLETED' });
    expect(JSON.stringify(await eventsOf('payment_link.claimed'))).not.toContain(GOOD_ACCOUNT);
  });

  it('ach to an account ending 0002 (fails at settlement): ACTIVE again, hold intact; claimed again to a good account: SETTLED, charged once', async () => {
    // Prepare
    const walletId = await freshWallet();
    const feesBefore = await feesOfSender();
    const link = await createLink(walletId);

    // Act
    expectStatus(await claim(link.slug, ach('000000000002')), 200);
    const failedId = (await getLink(link.id)).claim.transferId as string;
    const back = await linkReaching(link.id, 'ACTIVE');

    // Assess
    expect(back.lastClaimFailure).toMatchObject({ reason: 'R03_NO_ACCOUNT' });
    expect(await getTransfer(failedId)).toMatchObject({ status: 'FAILED', failureReason: 'R03_NO_ACCOUNT' });
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '50.25000000']);
    expect(await feesOfSender()).toBe(feesBefore);
    await eventuallyEvent('withdrawal.failed', failedId);

    // Claimed again, to a good account.
    expectStatus(await claim(link.slug, ach(GOOD_ACCOUNT)), 200);
    const settled = await linkReaching(link.id, 'SETTLED');
    expect(settled.claim.transferId).not.toBe(failedId);
    expect(await getTransfer(settled.claim.transferId)).toMatchObject({ status: 'COMPLETED' });
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '0.00000000']);
    expect(new Big(await feesOfSender()).minus(feesBefore).toFixed(2)).toBe('0.25');
    // One hold, captured once, never voided.
    const entries = await walletEntries(service.table, walletId);
    expect(entries.filter((e) => e.transactionType === 'VOID')).toEqual([]);
    expect(new Set(entries.filter((e) => e.transactionType === 'CAPTURE').map((e) => e.transactionId)).size).toBe(1);
  });

  it('ach to an account ending 0003 (rejected at submission): ACTIVE again, hold intact', async () => {
    const walletId = await freshWallet();
    const link = await createLink(walletId);
    expectStatus(await claim(link.slug, ach('000000000003')), 200);
    const back = await linkReaching(link.id, 'ACTIVE');
    expect(back.lastClaimFailure).toMatchObject({ reason: 'SUBMISSION_REJECTED' });
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '50.25000000']);
  });

  it('usdc to a good address: SETTLED through a USDC withdrawal', async () => {
    const walletId = await freshWallet();
    const link = await createLink(walletId);
    const claimed = expectStatus(await claim(link.slug, usdc(USDC_ADDRESS)), 200);
    expect(claimed.status).toBe('CLAIMED');
    const settled = await linkReaching(link.id, 'SETTLED');
    expect(settled.claim).toMatchObject({ method: 'usdc', destination: { type: 'USDC', address: USDC_ADDRESS } });
    expect(await getTransfer(settled.claim.transferId)).toMatchObject({
      rail: 'USDC',
      currency: 'USDC',
      amount: '50.00',
      fee: '0.25',
      status: 'COMPLETED',
    });
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '0.00000000']);
  });

  it('a claim that fails after expiresAt: EXPIRED, the hold released exactly once', async () => {
    // Prepare: a link expiring in 1.5 s (ACH fails at settlement, 3 s after submission); its expiry fires while CLAIMED.
    const walletId = await freshWallet();
    const feesBefore = await feesOfSender();
    const link = await createLink(walletId, { expiresAt: new Date(Date.now() + 1_500).toISOString() });

    // Act
    expectStatus(await claim(link.slug, ach('000000000002')), 200);
    const transferId = (await getLink(link.id)).claim.transferId as string;
    const expired = await linkReaching(link.id, 'EXPIRED');

    // Assess
    expect(expired.expiredAt).not.toBeNull();
    expect(expired.lastClaimFailure).toMatchObject({ reason: 'R03_NO_ACCOUNT' });
    expect(await getTransfer(transferId)).toMatchObject({ status: 'FAILED' });
    expect(await balancesOf(walletId)).toEqual(['100.00000000', '0.00000000']);
    expect(await feesOfSender()).toBe(feesBefore);
    const entries = await walletEntries(service.table, walletId);
    expect(new Set(entries.filter((e) => e.transactionType === 'VOID').map((e) => e.transactionId)).size).toBe(1);
    await eventuallyEvent('payment_link.expired', link.id);
    // Not claimable any more.
    expect((await claim(link.slug, ach(GOOD_ACCOUNT))).status).toBe(409);
    expect(await balancesOf(walletId)).toEqual(['100.00000000', '0.00000000']);
  });
});
