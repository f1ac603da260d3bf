import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../fixtures/log-capture.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import type { ApiResponse } from '../fixtures/local-service.js';

function expectStatus(response: ApiResponse, status: number): any {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/**
 * Adversarial review of the payment links' rail claims and claim page (issue 22, second review):
 * money moves once whatever the transfer's end, the claimant's account number never reaches the
 * link's organization, and client-caused errors never answer 500.
 */
const ACCOUNT = '000987654321';
const FAILING = '000987650002';
const SETTLES_WITHIN_MS = 20_000;

describe('payment link rail claims and claim page under attack', () => {
  const { service, ledger, sender } = setupE2e({
    env: {
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_SECOND: '2000',
      RATE_LIMIT_PER_MINUTE: '100000',
      PUBLIC_RATE_LIMIT_PER_SECOND: '2000',
    },
    organizations: { sender: 'Rail Attack Org' },
  });
  const call = (method: string, path: string, body?: unknown) =>
    service.call(method, path, { key: sender.key, ...(body !== undefined ? { body } : {}) });
  const createLink = async (walletId: string) =>
    expectStatus(await call('POST', '/v1/payment-links', { walletId, amount: '50.00' }), 201) as Record<string, any>;
  const getLink = async (id: string) => expectStatus(await call('GET', `/v1/payment-links/${id}`), 200);
  const claim = (slug: string, body: Record<string, unknown>, key?: string) =>
    service.call('POST', `/v1/payment-links/claim/${slug}/claim`, {
      body,
      ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
    });
  const ach = (accountNumber: string) => ({
    method: 'ach',
    destination: { type: 'ACH', routingNumber: '021000021', accountNumber },
  });
  const balancesOf = async (walletId: string) => {
    const wallet = expectStatus(await call('GET', `/v1/wallets/${walletId}`), 200);
    return [wallet.balance, wallet.heldBalance];
  };
  const page = async (
    method: string,
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(service.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it('the org cancelling the claim transfer leaves the link ACTIVE with its hold; claimed again, the money moves once', async () => {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Cancel attack');
    const link = await createLink(walletId);
    expectStatus(await claim(link.slug, ach(ACCOUNT)), 200);
    const transferId = (await getLink(link.id)).claim.transferId as string;

    await eventually(async () => {
      const transfer = expectStatus(await call('GET', `/v1/transfers/${transferId}`), 200);
      expect(transfer.status).toBe('PENDING');
    }, SETTLES_WITHIN_MS);
    expectStatus(await call('POST', `/v1/transfers/${transferId}/cancel`), 200);
    const back = await eventually(async () => {
      const view = await getLink(link.id);
      expect(view.status).toBe('ACTIVE');
      return view;
    }, SETTLES_WITHIN_MS);
    expect(back.lastClaimFailure).not.toBeNull();
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '50.25000000']);
    // The cancelled transfer can not be cancelled again (nor release the hold a second time).
    expect((await call('POST', `/v1/transfers/${transferId}/cancel`)).status).toBe(409);
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '50.25000000']);
    expectStatus(await claim(link.slug, ach(ACCOUNT)), 200);
    await eventually(async () => expect((await getLink(link.id)).status).toBe('SETTLED'), SETTLES_WITHIN_MS);
    // Exactly 50.25 left the wallet, never more; nothing held any longer.
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '0.00000000']);
    // A settled link can be neither cancelled nor claimed again.
    expect((await call('PATCH', `/v1/payment-links/${link.id}`, { status: 'CANCELLED' })).status).toBe(409);
    expect((await claim(link.slug, ach(ACCOUNT))).status).toBe(409);
    await ledger.expectLedgerBalanced();
  });

  it('client-caused bad destinations answer 400 on the API and a 4xx page, never 500', async () => {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Bad input');
    const link = await createLink(walletId);
    const bad: Record<string, unknown>[] = [
      ach('12'),
      ach('12345678901234567890'),
      ach('12ab5678'),
      { method: 'ach', destination: { type: 'ACH', routingNumber: '021000022', accountNumber: ACCOUNT } },
      { method: 'usdc', destination: { type: 'USDC', address: '0x1234' } },
      { method: 'usdc', destination: { type: 'USDC', address: 'not an address at all' } },
      {
        method: 'usdc',
        destination: { type: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7', chain: 'nope' },
      },
      { method: 'ach', destination: { type: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' } },
    ];
    for (const body of bad) {
      const answer = await claim(link.slug, body);
      expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    }
    const path = `/hosted/payment-links/${link.slug}`;
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    const forms: [string, Record<string, string>][] = [
      ['bank', { routingNumber: '021000021', accountNumber: '12' }],
      ['bank', { routingNumber: '12', accountNumber: ACCOUNT }],
      ['bank', { routingNumber: '021000021', accountNumber: 'x'.repeat(5000) }],
      ['usdc', { address: '0x1234' }],
      ['usdc', { address: '0x52908400098527886E0F7030069857D2E4169EE7', chain: 'nope' }],
      ['wallet', { walletId: 'wal_doesnotexist' }],
      ['wallet', { walletId: walletId }],
      ['wallet', { walletId: 'wal_x', recipientEmail: 'not-an-email' }],
      ['wallet', { walletId: 'wal_x', idempotencyKey: 'x'.repeat(2000) }],
    ];
    for (const [method, form] of forms) {
      const answer = await page('POST', `${path}?method=${method}`, form, sameOrigin);
      expect(answer.status, `${method} ${JSON.stringify(form).slice(0, 120)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${JSON.stringify(form).slice(0, 120)}`).toBeLessThan(500);
      expect(answer.text).not.toContain(walletId);
    }
    expect((await getLink(link.id)).status).toBe('ACTIVE');
  });

  it('a cross-site post never claims; the 303 stays on the page; the page shows nothing of the owner', async () => {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Page attack');
    const other = await ledger.fundedWallet(sender, '1.00', 'Claimant');
    const link = await createLink(walletId);
    const path = `/hosted/payment-links/${link.slug}`;
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ] as Record<string, string>[]) {
      const answer = await page('POST', `${path}?method=wallet`, { walletId: other }, headers);
      expect(answer.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(headers)).toBeLessThan(500);
    }
    expect((await getLink(link.id)).status).toBe('ACTIVE');
    const shown = await page('GET', `${path}?method=https://evil.example`);
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain(walletId);
    expect(shown.text).not.toContain(link.id);
    expect(shown.text).not.toContain('evil.example');
    const posted = await page(
      'POST',
      `${path}?method=//evil.example`,
      { walletId: other },
      { 'sec-fetch-site': 'same-origin' },
    );
    expect(posted.status, posted.text).toBe(303);
    expect(posted.headers.get('location')).toMatch(new RegExp(`^(https?://[^/]+)?${path}\\?claimed=wallet$`));
  });

  it('of 10 parallel ach/usdc claims exactly one creates a transfer; the hold is captured once', async () => {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Parallel rails');
    const link = await createLink(walletId);
    const bodies = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? ach(`0001234567${i}`)
        : { method: 'usdc', destination: { type: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' } },
    );
    const answers = await Promise.all(bodies.map((body) => claim(link.slug, body)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, answers.map((answer) => answer.text).join('\n')).toEqual([200, ...Array(9).fill(409)]);
    await eventually(async () => expect((await getLink(link.id)).status).toBe('SETTLED'), SETTLES_WITHIN_MS);
    const transfers = expectStatus(await call('GET', `/v1/transfers?walletId=${walletId}&limit=100`), 200).data as {
      paymentLinkId: string | null;
    }[];
    expect(transfers.filter((transfer) => transfer.paymentLinkId === link.id)).toHaveLength(1);
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '0.00000000']);
  });

  it('one idempotency key used on two links claims both (namespaced by link); replays and odd page posts never 500', async () => {
    const walletId = await ledger.fundedWallet(sender, '200.00', 'Key reuse');
    const claimant = await ledger.fundedWallet(sender, '1.00', 'Key claimant');
    const first = await createLink(walletId);
    const second = await createLink(walletId);
    const body = { method: 'wallet', destination: { type: 'WALLET', walletId: claimant } };
    const a = expectStatus(await claim(first.slug, body, 'shared-key-0001'), 200);
    const b = expectStatus(await claim(second.slug, body, 'shared-key-0001'), 200);
    expect(a.transactionId).not.toBe(b.transactionId);
    expect((await getLink(first.id)).status).toBe('SETTLED');
    expect((await getLink(second.id)).status).toBe('SETTLED');
    // A replay answers the first answer and moves nothing; another body with the key: 409.
    expect(expectStatus(await claim(first.slug, body, 'shared-key-0001'), 200).transactionId).toBe(a.transactionId);
    expect((await claim(first.slug, ach(ACCOUNT), 'shared-key-0001')).status).toBe(409);
    expect(await balancesOf(claimant)).toEqual(['101.00000000', '0.00000000']);
    // Page posts to an unknown slug, to a settled link, and with a replayed page key: never a 500.
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    const unknown = await page(
      'POST',
      '/hosted/payment-links/AAAAAAAAAAAAAAAAAAAAAA?method=wallet',
      { walletId: claimant },
      sameOrigin,
    );
    expect(unknown.status, unknown.text.slice(0, 300)).toBe(404);
    const settled = await page(
      'POST',
      `/hosted/payment-links/${first.slug}?method=usdc`,
      { address: '0x52908400098527886E0F7030069857D2E4169EE7', idempotencyKey: 'page_x' },
      sameOrigin,
    );
    expect(settled.status, settled.text.slice(0, 300)).toBeLessThan(500);
    const replayed = await page(
      'POST',
      `/hosted/payment-links/${first.slug}?method=wallet`,
      { walletId: claimant, idempotencyKey: 'shared-key-0001' },
      sameOrigin,
    );
    expect(replayed.status, replayed.text.slice(0, 300)).toBeLessThan(500);
    const wrongMethod = await page(
      'POST',
      `/hosted/payment-links/${second.slug}?method=bank`,
      { walletId: claimant },
      sameOrigin,
    );
    expect(wrongMethod.status, wrongMethod.text.slice(0, 300)).toBeLessThan(500);
    expect(await balancesOf(claimant)).toEqual(['101.00000000', '0.00000000']);
  });

  it('approvals: the requesting admin key may not approve its own link; reject then approve is refused; the hold is released once', async () => {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Approval attack');
    expectStatus(
      await call('POST', '/v1/policies', {
        walletId,
        name: 'Ask first',
        maxTransactionAmount: '1000.00',
        requireHumanApproval: true,
      }),
      201,
    );
    const queued = await call('POST', '/v1/payment-links', { walletId, amount: '50.00' });
    expect(queued.status, queued.text).toBe(202);
    const { approvalId, paymentLinkId } = queued.body.error.details as { approvalId: string; paymentLinkId: string };
    expect(await balancesOf(walletId)).toEqual(['49.75000000', '50.25000000']);
    const own = await call('POST', `/v1/approvals/${approvalId}/approve`);
    expect(own.status, own.text).toBe(403);
    // The link can not be cancelled by PATCH while pending, nor claimed.
    expect((await call('PATCH', `/v1/payment-links/${paymentLinkId}`, { status: 'CANCELLED' })).status).toBe(409);
    const link = await getLink(paymentLinkId);
    expect((await claim(link.slug, ach(ACCOUNT))).status).toBe(409);
    const other = expectStatus(
      await call('POST', '/v1/api-keys', { name: 'second admin', permissions: ['admin'] }),
      201,
    ).key as string;
    const rejected = await service.call('POST', `/v1/approvals/${approvalId}/reject`, { key: other });
    expect(rejected.status, rejected.text).toBe(200);
    expect((await getLink(paymentLinkId)).status).toBe('CANCELLED');
    expect(await balancesOf(walletId)).toEqual(['100.00000000', '0.00000000']);
    const late = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: other });
    expect(late.status, late.text).toBe(409);
    const again = await service.call('POST', `/v1/approvals/${approvalId}/reject`, { key: other });
    expect(again.status, again.text).toBe(409);
    expect((await getLink(paymentLinkId)).status).toBe('CANCELLED');
    expect(await balancesOf(walletId)).toEqual(['100.00000000', '0.00000000']);
  });

  it('approvals: a link that expired while pending can not be approved (FAILED), its hold released once', async () => {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Expired pending');
    expectStatus(
      await call('POST', '/v1/policies', {
        walletId,
        name: 'Ask first',
        maxTransactionAmount: '1000.00',
        requireHumanApproval: true,
      }),
      201,
    );
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const queued = await call('POST', '/v1/payment-links', { walletId, amount: '50.00', expiresAt });
    expect(queued.status, queued.text).toBe(202);
    const { approvalId, paymentLinkId } = queued.body.error.details as { approvalId: string; paymentLinkId: string };
    await eventually(async () => expect((await getLink(paymentLinkId)).status).toBe('EXPIRED'), SETTLES_WITHIN_MS);
    expect(await balancesOf(walletId)).toEqual(['100.00000000', '0.00000000']);
    const other = expectStatus(await call('POST', '/v1/api-keys', { name: 'approver', permissions: ['admin'] }), 201)
      .key as string;
    const approved = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: other });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_STATE' });
    expect((await getLink(paymentLinkId)).status).toBe('EXPIRED');
    expect(await balancesOf(walletId)).toEqual(['100.00000000', '0.00000000']);
    await ledger.expectLedgerBalanced();
  });

  it('the claimant account number is nowhere in the table, the transfer, the events or the audit log', async () => {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Leak check');
    const link = await createLink(walletId);
    const logged: string[] = [];
    const capture = captureLogs(logged);
    // First to an account that fails at settlement (its number logged nowhere either), then a good one.
    expectStatus(await claim(link.slug, ach(FAILING), 'leak-key-0'), 200);
    await eventually(async () => expect((await getLink(link.id)).status).toBe('ACTIVE'), SETTLES_WITHIN_MS);
    expectStatus(await claim(link.slug, ach(ACCOUNT), 'leak-key-1'), 200);
    const view = await eventually(async () => {
      const settled = await getLink(link.id);
      expect(settled.status).toBe('SETTLED');
      return settled;
    }, SETTLES_WITHIN_MS);
    const transfer = expectStatus(await call('GET', `/v1/transfers/${view.claim.transferId}`), 200);
    expect(JSON.stringify(transfer)).not.toContain(ACCOUNT);
    expect(JSON.stringify(view)).not.toContain(ACCOUNT);
    for (const path of [
      '/v1/events?limit=100',
      '/v1/events?type=withdrawal.failed&limit=100',
      '/v1/audit-logs?limit=100',
      `/v1/transfers?walletId=${walletId}`,
    ]) {
      const answer = await call('GET', path);
      expect(answer.text, path).not.toContain(ACCOUNT);
    }
    await service.projected();
    const items: unknown[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const output = await service.table.client.send(
        new ScanCommand({ TableName: service.table.tableName, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
      );
      items.push(...(output.Items ?? []));
      startKey = output.LastEvaluatedKey;
    } while (startKey);
    capture.restore();
    const stored = JSON.stringify(items);
    expect(stored).toContain(link.id);
    for (const number of [ACCOUNT, FAILING]) {
      expect(stored).not.toContain(number);
      expect(logged.filter((line) => line.includes(number))).toEqual([]);
    }
  });
});
