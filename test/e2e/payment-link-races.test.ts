import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

/**
 * Payment links under contention (issue 22): many claimants at once, a cancel racing the expiry,
 * and what the public side of a link may show. The hold must be released or captured exactly once
 * whatever the interleaving, and the ledger stays balanced.
 */
describe('payment links: races and what the public side shows', () => {
  const { service, ledger, payer, claimants, wallets } = setupE2e({
    organizations: { payer: 'Link Payer Org', claimants: 'Link Claimants Org' },
    wallets: {
      funding: { organization: 'payer', balance: '1000.00', name: 'Payouts' },
      ...Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`claimant${i}`, { organization: 'claimants', name: `Claimant ${i}` }]),
      ),
    } as Record<string, { organization: 'payer' | 'claimants'; balance?: string; name?: string }>,
  });

  const walletOf = async (key: string, walletId: string) => {
    const response = await service.call('GET', `/v1/wallets/${walletId}/balance`, { key });
    expectStatus(response, 200);
    return response.body as { balance: string; heldBalance: string };
  };

  async function createLink(body: Record<string, unknown>) {
    const response = await service.call('POST', '/v1/payment-links', {
      key: payer.key,
      body: { walletId: wallets.funding!, ...body },
    });
    expectStatus(response, 201);
    return response.body as { id: string; slug: string; url: string; amount: string; fee: string; status: string };
  }

  const claim = (slug: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    service.call('POST', `/v1/payment-links/claim/${slug}/claim`, { body, ...(headers ? { headers } : {}) });

  it('lets exactly one of 20 parallel claims win: 19 answer 409 INVALID_STATE, the money moves once', async () => {
    const before = await walletOf(payer.key, wallets.funding!);
    const link = await createLink({ amount: '25.00', description: 'Bounty' });
    expect(link.fee).toBe('0.25');
    const held = await walletOf(payer.key, wallets.funding!);
    expect(held.heldBalance).toBe((Number(before.heldBalance) + 25.25).toFixed(8));

    const claimantIds = Array.from({ length: 20 }, (_, i) => wallets[`claimant${i}`]!);
    const answers = await Promise.all(
      claimantIds.map((walletId) => claim(link.slug, { method: 'wallet', destination: { type: 'WALLET', walletId } })),
    );

    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners, answers.map((answer) => answer.text).join('\n')).toHaveLength(1);
    for (const loser of answers.filter((answer) => answer.status !== 200)) expectApiError(loser, 409, 'INVALID_STATE');
    expect(winners[0]!.body.status).toBe('SETTLED');
    expect(winners[0]!.body.transactionId).toMatch(/^txn_/);

    // The payer paid the amount and nothing else (the fee reserve came back); one claimant got it.
    const after = await walletOf(payer.key, wallets.funding!);
    expect(after.balance).toBe((Number(before.balance) - 25).toFixed(8));
    expect(after.heldBalance).toBe(before.heldBalance);
    const balances = await Promise.all(claimantIds.map((walletId) => walletOf(claimants.key, walletId)));
    expect(balances.filter((b) => b.balance === '25.00000000')).toHaveLength(1);
    expect(balances.filter((b) => b.balance === '0.00000000')).toHaveLength(19);
    await ledger.expectLedgerBalanced();
  });

  it('releases the hold exactly once when a cancel races the expiry', async () => {
    const before = await walletOf(payer.key, wallets.funding!);
    const soon = () => new Date(Date.now() + 1_500).toISOString();
    const links = await Promise.all(
      Array.from({ length: 4 }, (_, i) => createLink({ amount: `${10 + i}.00`, expiresAt: soon() })),
    );
    // Cancel each link over and over around its expiry: some cancels win, some lose to the schedule.
    const deadline = Date.now() + 3_000;
    const outcomes = await Promise.all(
      links.map(async (link) => {
        const seen: number[] = [];
        while (Date.now() < deadline) {
          const answer = await service.call('PATCH', `/v1/payment-links/${link.id}`, {
            key: payer.key,
            body: { status: 'CANCELLED' },
          });
          seen.push(answer.status);
          if (answer.status !== 200) expectApiError(answer, 409, 'INVALID_STATE');
          await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 600));
        }
        return seen;
      }),
    );
    // At most one cancel per link succeeded; every link ended CANCELLED or EXPIRED.
    for (const seen of outcomes) expect(seen.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
    await eventually(async () => {
      for (const link of links) {
        const now = await service.call('GET', `/v1/payment-links/${link.id}`, { key: payer.key });
        expect(['CANCELLED', 'EXPIRED']).toContain(now.body.status);
      }
    }, 5_000);
    const after = await walletOf(payer.key, wallets.funding!);
    expect(after).toEqual(before);
    await ledger.expectLedgerBalanced();
  });

  it('shows the public nothing but amount, currency, description, status, expiry, whether it is restricted, and the environment', async () => {
    const link = await createLink({
      amount: '12.34',
      description: 'Thanks for the help',
      metadata: { internalRef: 'secret-ref-93817' },
      recipientRestrictions: { emails: ['private.person@example.com'], walletIds: [wallets.claimant0!] },
    });
    const view = await service.call('GET', `/v1/payment-links/claim/${link.slug}`);
    expectStatus(view, 200);
    expect(Object.keys(view.body).sort()).toEqual(
      ['amount', 'currency', 'description', 'environment', 'expiresAt', 'restricted', 'status'].sort(),
    );
    expect(view.body).toMatchObject({ amount: '12.34', currency: 'USD', status: 'ACTIVE', restricted: true });
    for (const secret of [
      wallets.funding!,
      wallets.claimant0!,
      'secret-ref-93817',
      'private.person',
      link.id,
      payer.organizationId,
    ])
      expect(view.text).not.toContain(secret);

    // A refused claim says no more than that.
    const refused = await claim(link.slug, {
      method: 'wallet',
      destination: { type: 'WALLET', walletId: wallets.claimant1! },
      recipientEmail: 'someone.else@example.com',
    });
    expectApiError(refused, 403, 'RECIPIENT_NOT_ALLOWED');
    for (const secret of [wallets.funding!, wallets.claimant0!, 'secret-ref-93817', 'private.person'])
      expect(refused.text).not.toContain(secret);

    // The claim page neither.
    const page = await fetch(link.url);
    const html = await page.text();
    expect(page.status).toBe(200);
    for (const secret of [wallets.funding!, wallets.claimant0!, 'secret-ref-93817', 'private.person', link.id])
      expect(html).not.toContain(secret);

    // An unknown slug and a wrong id are simply unknown.
    expectApiError(
      await service.call('GET', '/v1/payment-links/claim/NoSuchSlug0000000000000'),
      404,
      'PAYMENT_LINK_NOT_FOUND',
    );
    expectApiError(
      await service.call('GET', `/v1/payment-links/${link.id}`, { key: claimants.key }),
      404,
      'PAYMENT_LINK_NOT_FOUND',
    );
  });
});
