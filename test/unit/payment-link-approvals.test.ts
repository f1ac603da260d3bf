import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { createApprovalService } from '../../shared/domain/approvals/approval-service.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import type { ExpiryMessage } from '../../shared/domain/expiries/ports.js';
import { newId } from '../../shared/domain/ids.js';
import { paymentLinkApprovals } from '../../shared/domain/payment-links/payment-link-approvals.js';
import { createPaymentLinkService } from '../../shared/domain/payment-links/payment-link-service.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import { createMemoryApprovalStore } from '../fakes/memory-approval-store.js';
import { createMemoryPaymentLinkStore } from '../fakes/memory-payment-link-store.js';
import { createMemoryPaymentStore } from '../fakes/memory-payment-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

const AT = '2026-11-27T10:00:00.000Z';
const HOUR = 3_600_000;

/**
 * Payment links queued for approval, end to end over the memory fakes: the link service's create
 * (policies, hold, approval record), the approval service deciding with the link subject
 * (payment-link-approvals.ts), the link's own expiry, a wallet claim. One money table for all.
 */
function world() {
  const clock = fixedClock(new Date(AT));
  const links = createMemoryPaymentLinkStore();
  const base = serviceWorld(clock, links.table);
  const scheduled: (ExpiryMessage & { at: string })[] = [];
  const deps = {
    ...base.deps,
    store: links.store,
    hostedUrl: (path: string) => `https://pay.example${path}`,
    expiries: {
      schedule: async (message: ExpiryMessage, at: string) => {
        scheduled.push({ ...message, at });
      },
    },
    log: { error: () => undefined },
  };
  const service = createPaymentLinkService(deps);
  // The link store's commit applies the link transitions a decision commits (and every money change).
  const approvalStore = createMemoryApprovalStore(createMemoryPaymentStore(links.table), (changes) =>
    links.store.commit(changes as Parameters<typeof links.store.commit>[0]),
  );
  const approvals = createApprovalService(
    { ...base.deps, store: approvalStore },
    { subjects: paymentLinkApprovals(deps) },
  );
  const table = links.table;

  const policy = (walletId: string, rules: Partial<Policy>) =>
    links.addPolicy(walletId, {
      id: newId('policy'),
      walletId,
      organizationId: base.scope.organizationId,
      environment: 'SANDBOX',
      name: 'Supervised',
      maxTransactionAmount: new Big('1000'),
      requireHumanApproval: false,
      status: 'ACTIVE',
      createdAt: AT,
      updatedAt: AT,
      ...rules,
    });
  /** An agent wallet of 100.00 under a policy of `rules`, and its key's context. */
  const agent = (rules: Partial<Policy>, balance = '100.00') => {
    const walletId = base.wallet(balance);
    policy(walletId, rules);
    return { walletId, ctx: base.agentCtx(walletId) };
  };
  const create = (ctx: RequestContext, input: Record<string, unknown>) =>
    service.create(ctx, AUDIT.paymentLink.create, input as never);
  /** A link the policy queues: the 202's details. */
  async function queued(a: { walletId: string; ctx: RequestContext }, amount = '10.00') {
    const answer = await create(a.ctx, { walletId: a.walletId, amount });
    expect(answer.status).toBe(202);
    const error = (answer.body as { error: { code: string; details: Record<string, string> } }).error;
    expect(error.code).toBe('APPROVAL_REQUIRED');
    return error.details as { approvalId: string; paymentLinkId: string; expiresAt: string };
  }
  const balances = async (walletId: string) => {
    const wallet = (await links.store.getWallet(walletId))!;
    return { available: wallet.balance.toFixed(2), held: wallet.heldBalance.toFixed(2) };
  };
  const daySpent = async (walletId: string) =>
    (
      (await links.store.getWalletSnapshot(walletId))!.counters.find((c) => c.period === 'DAY')?.spent ?? new Big(0)
    ).toFixed(2);
  const linkOf = (id: string) => table.items.paymentLinks.get(id)!;
  const eventsOf = (type: string, id: string) =>
    table.events.filter((event) => event.type === type && (event.data as { id: string }).id === id);
  const claimToWallet = (slug: string, walletId: string) =>
    service.claim(base.ctx, AUDIT.paymentLink.claim, slug, {
      method: 'wallet',
      destination: { type: 'WALLET', walletId },
    });
  const approve = (approvalId: string) => approvals.approve(base.ctx, AUDIT.approval.approve, approvalId, undefined);
  const reject = (approvalId: string) => approvals.reject(base.ctx, AUDIT.approval.reject, approvalId, 'no');
  return {
    ...base,
    clock,
    table,
    service,
    approvals,
    scheduled,
    agent,
    create,
    queued,
    balances,
    daySpent,
    linkOf,
    eventsOf,
    claimToWallet,
    approve,
    reject,
  };
}

describe('payment links queued for approval', () => {
  it('creates the link PENDING_APPROVAL with its hold, the approval naming it, both expiries scheduled', async () => {
    const w = world();
    const a = w.agent({ requireHumanApproval: true });

    const { approvalId, paymentLinkId, expiresAt } = await w.queued(a);

    const link = w.linkOf(paymentLinkId);
    expect(link).toMatchObject({ status: 'PENDING_APPROVAL', approvalId, amount: '10.00', fee: '0.25' });
    expect(w.table.items.journal.get(link.holdId)!.status).toBe('HELD');
    expect(await w.balances(a.walletId)).toEqual({ available: '89.75', held: '10.25' });
    expect(w.table.items.approvals.get(approvalId)).toMatchObject({
      status: 'PENDING',
      walletId: a.walletId,
      paymentLinkId,
      transactionId: link.holdId,
      payment: { from: a.walletId, to: a.walletId, amount: '10.00' },
      reason: 'requireHumanApproval',
      requestedByKeyId: 'key_agent',
      expiresAt,
    });
    expect(w.eventsOf('approval.requested', approvalId)).toHaveLength(1);
    expect(w.scheduled).toEqual(
      expect.arrayContaining([
        { kind: 'approval', id: approvalId, at: expiresAt },
        { kind: 'paymentLink', id: paymentLinkId, at: link.expiresAt },
      ]),
    );
    expect(await refusalOf(w.claimToWallet(link.slug, w.wallet('0.00')))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'PENDING_APPROVAL' },
    });
  });

  it('approved: ACTIVE with its hold intact and audited on the link; then claimable to a wallet', async () => {
    const w = world();
    const a = w.agent({ requireHumanApproval: true });
    const { approvalId, paymentLinkId } = await w.queued(a);
    const recipient = w.wallet('0.00');

    const decided = await w.approve(approvalId);

    expect(decided).toMatchObject({ status: 'APPROVED', paymentLinkId });
    const link = w.linkOf(paymentLinkId);
    expect(link.status).toBe('ACTIVE');
    expect(w.table.items.journal.get(link.holdId)!.status).toBe('HELD');
    expect(await w.balances(a.walletId)).toEqual({ available: '89.75', held: '10.25' });
    expect(w.table.audit.filter((e) => e.resourceId === paymentLinkId).map((e) => e.action)).toEqual([
      'payment-link.create',
      'approval.approved',
    ]);
    expect(w.eventsOf('approval.approved', approvalId)).toHaveLength(1);

    expect((await w.claimToWallet(link.slug, recipient)).status).toBe(200);
    expect(w.linkOf(paymentLinkId).status).toBe('SETTLED');
    expect(await w.balances(recipient)).toEqual({ available: '10.00', held: '0.00' });
    expect(await w.balances(a.walletId)).toEqual({ available: '90.00', held: '0.00' });
  });

  it.each([
    ['rejected', 'REJECTED'],
    ['expired', 'EXPIRED'],
  ] as const)(
    '%s: CANCELLED, the hold voided to the cent and its spend given back, payment_link.cancelled',
    async (how, status) => {
      const w = world();
      const a = w.agent({ requireHumanApproval: true });
      const { approvalId, paymentLinkId } = await w.queued(a);
      expect(await w.daySpent(a.walletId)).toBe('10.25');

      if (how === 'rejected') await w.reject(approvalId);
      else {
        w.clock.advance(73 * HOUR);
        expect(await w.approvals.expire(AUDIT.approval.expire, approvalId)).toBe('expired');
      }

      const link = w.linkOf(paymentLinkId);
      expect(link).toMatchObject({ status: 'CANCELLED', cancelledAt: w.clock.now().toISOString() });
      expect(w.table.items.journal.get(link.holdId)!.status).toBe('VOIDED');
      expect(w.table.items.approvals.get(approvalId)!.status).toBe(status);
      expect(await w.balances(a.walletId)).toEqual({ available: '100.00', held: '0.00' });
      // Given back to the day it was counted in (three days later that counter is no longer kept).
      if (how === 'rejected') expect(await w.daySpent(a.walletId)).toBe('0.00');
      const cancelled = w.eventsOf('payment_link.cancelled', paymentLinkId);
      expect(cancelled.map((e) => (e.data as { status: string }).status)).toEqual(['CANCELLED']);
      expect(
        w.table.audit.find((e) => e.resourceId === paymentLinkId && e.action === 'payment-link.cancel'),
      ).toMatchObject({ metadata: expect.objectContaining({ approvalId, approvalStatus: status }) });
    },
  );

  it('the link expired first (hold released by its expiry): approve ends FAILED, reject changes nothing more', async () => {
    const w = world();
    const a = w.agent({ requireHumanApproval: true });
    const first = await w.queued(a);
    const second = await w.queued(a);
    const expiresAt = w.linkOf(first.paymentLinkId).expiresAt;
    w.clock.set(new Date(Date.parse(expiresAt) + 1000));
    // The approvals' own expiry is 72 hours; the links' 30 days: move the approvals' back so they are still open.
    for (const { approvalId } of [first, second]) {
      const approval = w.table.items.approvals.get(approvalId)!;
      w.table.items.approvals.set(approvalId, {
        ...approval,
        expiresAt: new Date(Date.parse(expiresAt) + HOUR).toISOString(),
      });
    }
    expect(await w.service.expire(AUDIT.paymentLink.expire, first.paymentLinkId)).toBe('expired');
    expect(await w.service.expire(AUDIT.paymentLink.expire, second.paymentLinkId)).toBe('expired');
    expect(await w.balances(a.walletId)).toEqual({ available: '100.00', held: '0.00' });

    const approved = await w.approve(first.approvalId);
    const rejected = await w.reject(second.approvalId);

    expect(approved).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_STATE' });
    expect(rejected.status).toBe('REJECTED');
    expect([w.linkOf(first.paymentLinkId).status, w.linkOf(second.paymentLinkId).status]).toEqual([
      'EXPIRED',
      'EXPIRED',
    ]);
    expect(await w.balances(a.walletId)).toEqual({ available: '100.00', held: '0.00' });
    expect(w.eventsOf('payment_link.cancelled', first.paymentLinkId)).toEqual([]);
    expect(w.table.events.filter((e) => e.type === 'payment.failed')).toEqual([]);
  });

  it("approved after the link's expiresAt but before its expiry ran: FAILED, the link EXPIRED and its hold released once", async () => {
    const w = world();
    const a = w.agent({ requireHumanApproval: true });
    const created = await w.create(a.ctx, {
      walletId: a.walletId,
      amount: '10.00',
      expiresAt: new Date(Date.parse(AT) + HOUR).toISOString(),
    });
    const { approvalId, paymentLinkId } = (created.body as { error: { details: Record<string, string> } }).error
      .details as { approvalId: string; paymentLinkId: string };
    w.clock.advance(2 * HOUR);

    const decided = await w.approve(approvalId);

    expect(decided).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_STATE' });
    expect(w.linkOf(paymentLinkId).status).toBe('EXPIRED');
    expect(w.eventsOf('payment_link.expired', paymentLinkId)).toHaveLength(1);
    expect(await w.balances(a.walletId)).toEqual({ available: '100.00', held: '0.00' });
    expect(await w.service.expire(AUDIT.paymentLink.expire, paymentLinkId)).toBe('ended');
    expect(await w.balances(a.walletId)).toEqual({ available: '100.00', held: '0.00' });
  });

  it('an approval threshold counts amount + fee: 9.75 (9.75 + 0.25 = 10.00) is created, 9.76 queued', async () => {
    const w = world();
    const a = w.agent({ approvalThreshold: new Big('10.00') });

    expect((await w.create(a.ctx, { walletId: a.walletId, amount: '9.75' })).status).toBe(201);
    expect((await w.create(a.ctx, { walletId: a.walletId, amount: '9.76' })).status).toBe(202);
  });
});

describe('the policies a link meets at creation', () => {
  const denied = async (
    w: ReturnType<typeof world>,
    a: { walletId: string; ctx: RequestContext },
    input: Record<string, unknown>,
  ) => {
    const refusal = await refusalOf(w.create(a.ctx, { walletId: a.walletId, ...input }));
    expect(await w.balances(a.walletId)).toEqual({ available: '100.00', held: '0.00' });
    expect(w.table.items.paymentLinks.size).toBe(0);
    return refusal;
  };

  it('a frozen wallet: 403 WALLET_FROZEN, nothing held', async () => {
    const w = world();
    const walletId = w.wallet('100.00', { status: 'FROZEN' });
    expect(await denied(w, { walletId, ctx: w.agentCtx(walletId) }, { amount: '5.00' })).toMatchObject({
      code: 'WALLET_FROZEN',
    });
  });

  it('maxTransactionAmount counts amount + fee', async () => {
    const w = world();
    const a = w.agent({ maxTransactionAmount: new Big('10.00') });
    expect(await denied(w, a, { amount: '9.76' })).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: 'maxTransactionAmount' },
    });
    expect((await w.create(a.ctx, { walletId: a.walletId, amount: '9.75' })).status).toBe(201);
  });

  it.each([
    ['dailyLimit', 'DAY'],
    ['weeklyLimit', 'WEEK'],
    ['monthlyLimit', 'MONTH'],
  ] as const)('%s counts amount + fee, against what the wallet spent', async (rule, _period) => {
    const w = world();
    const a = w.agent({ [rule]: new Big('20.35') });
    expect(await denied(w, a, { amount: '20.11' })).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule, limit: '20.35', spent: '0.00', remaining: '20.35' },
    });
    expect((await w.create(a.ctx, { walletId: a.walletId, amount: '10.00' })).status).toBe(201);
    const second = await refusalOf(w.create(a.ctx, { walletId: a.walletId, amount: '10.00' }));
    expect(second).toMatchObject({ code: 'POLICY_DENIED', details: { rule, spent: '10.25', remaining: '10.10' } });
    expect((await w.create(a.ctx, { walletId: a.walletId, amount: '9.85' })).status).toBe(201);
    expect(await w.balances(a.walletId)).toEqual({ available: '79.65', held: '20.35' });
  });

  it('blockedRecipients: each wallet the link is restricted to must pass', async () => {
    const w = world();
    const blocked = w.wallet('0.00');
    const fine = w.wallet('0.00');
    const a = w.agent({ blockedRecipients: [blocked] });
    for (const walletIds of [[blocked], [fine, blocked]])
      expect(await denied(w, a, { amount: '5.00', recipientRestrictions: { walletIds } })).toMatchObject({
        code: 'POLICY_DENIED',
        details: { rule: 'blockedRecipients' },
      });
    expect(
      (await w.create(a.ctx, { walletId: a.walletId, amount: '5.00', recipientRestrictions: { walletIds: [fine] } }))
        .status,
    ).toBe(201);
  });

  it('allowedRecipients: every restricted wallet must be on the list', async () => {
    const w = world();
    const allowed = w.wallet('0.00');
    const other = w.wallet('0.00');
    const a = w.agent({ allowedRecipients: [allowed] });
    expect(
      await denied(w, a, { amount: '5.00', recipientRestrictions: { walletIds: [allowed, other] } }),
    ).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: 'allowedRecipients' },
    });
    expect(
      (await w.create(a.ctx, { walletId: a.walletId, amount: '5.00', recipientRestrictions: { walletIds: [allowed] } }))
        .status,
    ).toBe(201);
  });

  it.each([
    ['allowedRecipients', 'unrestricted', undefined],
    ['blockedRecipients', 'unrestricted', undefined],
    ['allowedRecipients', 'restricted by email only', { emails: ['ann@example.com'] }],
    ['blockedRecipients', 'restricted by email only', { emails: ['ann@example.com'] }],
  ] as const)('a policy listing recipients (%s) refuses a link %s', async (rule, _what, recipientRestrictions) => {
    const w = world();
    const a = w.agent({ [rule]: [w.wallet('0.00')] });
    const refusal = await denied(w, a, { amount: '5.00', ...(recipientRestrictions ? { recipientRestrictions } : {}) });
    expect(refusal).toMatchObject({ code: 'POLICY_DENIED', details: { rule } });
  });

  it('a deleted policy listing recipients no longer applies', async () => {
    const w = world();
    const a = w.agent({ blockedRecipients: [w.wallet('0.00')], status: 'DELETED' });
    expect((await w.create(a.ctx, { walletId: a.walletId, amount: '5.00' })).status).toBe(201);
  });

  it('allowedHoursUtc outside the hours: POLICY_DENIED', async () => {
    const w = world();
    const a = w.agent({ allowedHoursUtc: { start: 12, end: 18 } });
    expect(await denied(w, a, { amount: '5.00' })).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: 'allowedHoursUtc' },
    });
  });

  it('a deny rule wins over approval: nothing queued, nothing held', async () => {
    const w = world();
    const a = w.agent({ requireHumanApproval: true, dailyLimit: new Big('5.00') });
    expect(await denied(w, a, { amount: '5.00' })).toMatchObject({ code: 'POLICY_DENIED' });
    expect(w.table.items.approvals.size).toBe(0);
  });
});
