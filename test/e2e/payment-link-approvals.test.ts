import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { expectApiError, expectStatus } from '../fixtures/agents-client.js';

/**
 * Payment links under the spend policies of the wallet that funds them (docs/api.md "Payment
 * links", "Links that need approval"): a link a policy queues for approval is created
 * PENDING_APPROVAL with its hold taken at once, becomes ACTIVE when an organization admin approves
 * it and is CANCELLED (hold released to the cent) when rejected; period limits count amount + fee;
 * recipient rules apply to the wallets a link is restricted to.
 */
describe('payment links that need approval, and policies at creation', () => {
  const { service, ledger, org } = setupE2e({ organizations: { org: 'Link Approvals Org' } });
  const call = (...args: Parameters<typeof service.call>) => service.call(...args);

  /** An agent wallet of the organization funded with `funds`, under a policy with `rules`. */
  async function agentWith(rules: Record<string, unknown>, funds = '100.00') {
    const agent = await ledger.createAgent(org, 'Payout agent');
    await ledger.fund(org.key, agent.walletId, funds);
    await ledger.createPolicy(org.key, { walletId: agent.walletId, ...rules });
    return agent;
  }

  const createLink = (key: string, body: Record<string, unknown>) => call('POST', '/v1/payment-links', { key, body });
  const getLink = async (id: string) =>
    expectStatus(await call('GET', `/v1/payment-links/${id}`, { key: org.key }), 200);
  const balances = async (walletId: string) => {
    const body = expectStatus(await call('GET', `/v1/wallets/${walletId}/balance`, { key: org.key }), 200);
    return { balance: body.balance as string, heldBalance: body.heldBalance as string };
  };
  const claimToWallet = (slug: string, walletId: string) =>
    call('POST', `/v1/payment-links/claim/${slug}/claim`, {
      body: { method: 'wallet', destination: { type: 'WALLET', walletId } },
      headers: { 'Idempotency-Key': `claim-${walletId}-${slug.slice(0, 8)}` },
    });

  /** A link of `amount` the agent's requireHumanApproval policy queues: 202 with both ids. */
  async function queuedLink(agent: { walletId: string; key: string }, amount: string) {
    const response = await createLink(agent.key, { walletId: agent.walletId, amount, description: 'Bounty payout' });
    const error = expectApiError(response, 202, 'APPROVAL_REQUIRED');
    const approvalId = error.details!.approvalId as string;
    const paymentLinkId = error.details!.paymentLinkId as string;
    expect(approvalId).toMatch(/^apr_/);
    expect(paymentLinkId).toMatch(/^lnk_/);
    return { approvalId, paymentLinkId };
  }

  it('queues the link with its hold taken, not claimable until approved; approved: ACTIVE, claimed to a wallet, SETTLED', async () => {
    // Prepare
    const agent = await agentWith({ requireHumanApproval: true });
    const recipient = await ledger.fundedWallet(org, undefined, 'Recipient');

    // Act: create (fee of 10.00 = 0.25, the minimum)
    const { approvalId, paymentLinkId } = await queuedLink(agent, '10.00');

    // Assess: held at once, PENDING_APPROVAL, not claimable
    expect(await balances(agent.walletId)).toEqual({ balance: '89.75000000', heldBalance: '10.25000000' });
    const link = await getLink(paymentLinkId);
    expect(link).toMatchObject({ status: 'PENDING_APPROVAL', approvalId, amount: '10.00', fee: '0.25' });
    expectApiError(await claimToWallet(link.slug, recipient), 409, 'INVALID_STATE');
    const publicView = expectStatus(await call('GET', `/v1/payment-links/claim/${link.slug}`), 200);
    expect(publicView).toMatchObject({ status: 'PENDING_APPROVAL', amount: '10.00' });
    const approval = expectStatus(await call('GET', `/v1/approvals/${approvalId}`, { key: org.key }), 200);
    expect(approval).toMatchObject({
      status: 'PENDING',
      walletId: agent.walletId,
      paymentLinkId,
      reason: 'requireHumanApproval',
      payment: { from: agent.walletId, amount: '10.00' },
    });
    expectApiError(
      await call('POST', `/v1/approvals/${approvalId}/approve`, { key: agent.key }),
      403,
      'PERMISSION_DENIED',
    );

    // Act: an organization admin key approves
    const approved = await call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key, body: { note: 'ok' } });

    // Assess
    expect(expectStatus(approved, 200)).toMatchObject({ id: approvalId, status: 'APPROVED', paymentLinkId });
    expect((await getLink(paymentLinkId)).status).toBe('ACTIVE');
    expect(await balances(agent.walletId)).toEqual({ balance: '89.75000000', heldBalance: '10.25000000' });

    // Act: claimed to a wallet
    const claimed = expectStatus(await claimToWallet(link.slug, recipient), 200);

    // Assess: the claimant gets exactly the amount, the reserve of the fee comes back
    expect(claimed).toMatchObject({ status: 'SETTLED', amount: '10.00' });
    expect((await getLink(paymentLinkId)).status).toBe('SETTLED');
    expect(await balances(recipient)).toEqual({ balance: '10.00000000', heldBalance: '0.00000000' });
    expect(await balances(agent.walletId)).toEqual({ balance: '90.00000000', heldBalance: '0.00000000' });
    await ledger.expectLedgerBalanced();
  });

  it('a rejected link is CANCELLED, its hold released to the cent, with payment_link.cancelled', async () => {
    // Prepare
    const agent = await agentWith({ requireHumanApproval: true }, '50.00');
    const { approvalId, paymentLinkId } = await queuedLink(agent, '20.00');
    expect(await balances(agent.walletId)).toEqual({ balance: '29.75000000', heldBalance: '20.25000000' });

    // Act
    const rejected = await call('POST', `/v1/approvals/${approvalId}/reject`, {
      key: org.key,
      body: { reason: 'not this week' },
    });

    // Assess
    expect(expectStatus(rejected, 200)).toMatchObject({ status: 'REJECTED', paymentLinkId });
    const link = await getLink(paymentLinkId);
    expect(link).toMatchObject({ status: 'CANCELLED', cancelledAt: expect.any(String) });
    expect(await balances(agent.walletId)).toEqual({ balance: '50.00000000', heldBalance: '0.00000000' });
    expectApiError(await claimToWallet(link.slug, await ledger.fundedWallet(org)), 409, 'INVALID_STATE');
    expectApiError(await call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key }), 409, 'INVALID_STATE');
    await eventually(async () => {
      const events = expectStatus(await call('GET', '/v1/events?limit=100', { key: org.key }), 200).data as {
        type: string;
        data: { id: string; status?: string };
      }[];
      const ofLink = events.filter((event) => event.data.id === paymentLinkId);
      expect(ofLink.map((event) => event.type)).toContain('payment_link.cancelled');
      expect(ofLink.find((event) => event.type === 'payment_link.cancelled')!.data.status).toBe('CANCELLED');
      expect(events.some((event) => event.type === 'approval.rejected' && event.data.id === approvalId)).toBe(true);
    }, 5_000);
    await ledger.expectLedgerBalanced();
  });

  it('counts amount + fee against a period limit: 403 POLICY_DENIED and nothing held; within it, created', async () => {
    // Prepare: a day limit of 10.10 (10.00 + 0.25 exceeds it, 9.85 + 0.25 fits exactly)
    const agent = await agentWith({ dailyLimit: '10.10' }, '100.00');

    // Act
    const over = await createLink(agent.key, { walletId: agent.walletId, amount: '10.00' });

    // Assess
    const error = expectApiError(over, 403, 'POLICY_DENIED');
    expect(error.details).toMatchObject({ rule: 'dailyLimit', limit: '10.10' });
    expect(await balances(agent.walletId)).toEqual({ balance: '100.00000000', heldBalance: '0.00000000' });
    const within = expectStatus(await createLink(agent.key, { walletId: agent.walletId, amount: '9.85' }), 201);
    expect(within).toMatchObject({ status: 'ACTIVE', fee: '0.25' });
    expect(await balances(agent.walletId)).toEqual({ balance: '89.90000000', heldBalance: '10.10000000' });
    expectApiError(await createLink(agent.key, { walletId: agent.walletId, amount: '0.01' }), 403, 'POLICY_DENIED');
  });

  it('evaluates recipient rules against the wallets a link is restricted to; an unrestricted link is denied', async () => {
    // Prepare
    const blocked = await ledger.fundedWallet(org, undefined, 'Blocked');
    const allowed = await ledger.fundedWallet(org, undefined, 'Allowed');
    const agent = await agentWith({ blockedRecipients: [blocked] });
    const link = (recipientRestrictions?: Record<string, unknown>) =>
      createLink(agent.key, {
        walletId: agent.walletId,
        amount: '5.00',
        ...(recipientRestrictions ? { recipientRestrictions } : {}),
      });

    // Act + Assess
    const denied = expectApiError(await link({ walletIds: [allowed, blocked] }), 403, 'POLICY_DENIED');
    expect(denied.details).toMatchObject({ rule: 'blockedRecipients' });
    expectApiError(await link(), 403, 'POLICY_DENIED');
    expectApiError(await link({ emails: ['someone@example.com'] }), 403, 'POLICY_DENIED');
    expect(await balances(agent.walletId)).toEqual({ balance: '100.00000000', heldBalance: '0.00000000' });
    expect(expectStatus(await link({ walletIds: [allowed] }), 201)).toMatchObject({ status: 'ACTIVE' });
    expect(await balances(agent.walletId)).toEqual({ balance: '94.75000000', heldBalance: '5.25000000' });
  });
});
