import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { approvalRequestChanges, linkApprovalOf } from '../../shared/domain/approvals/approval-requests.js';
import { createApprovalService } from '../../shared/domain/approvals/approval-service.js';
import type { ApprovalSubject, SubjectChange } from '../../shared/domain/approvals/approval-subjects.js';
import { presentApproval } from '../../shared/domain/approvals/approval-view.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { holdLegs, voidLegs } from '../../shared/domain/ledger/movements.js';
import type { PostingChange } from '../../shared/domain/ledger/posting.js';
import type { PaymentLinkChange } from '../../shared/domain/payment-links/changes.js';
import { PAYMENT_LINK_STATES } from '../../shared/domain/payment-links/payment-link-states.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import { spendOf, spendReturned } from '../../shared/domain/policies/spend.js';
import type { Approval } from '../../shared/domain/types.js';
import { createMemoryApprovalStore } from '../fakes/memory-approval-store.js';
import { createMemoryMoneyTable } from '../fakes/memory-money-table.js';
import { createMemoryPaymentStore } from '../fakes/memory-payment-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

const AT = '2026-11-27T10:00:00.000Z';
const HOUR = 3_600_000;
type Transition = Extract<PaymentLinkChange, { type: 'transitionPaymentLink' }>;

/**
 * The approval service deciding a payment link (approval-subjects.ts) over the memory fakes: a
 * fake link subject (the link's transitions under the state table's condition, the hold voided
 * and the spend given back on a refusal), a wallet of 100.00 and a link of 10.00 + 0.25 fee held.
 */
function world() {
  const table = createMemoryMoneyTable({ links: new Map<string, PaymentLink>() });
  const memory = createMemoryPaymentStore(table);
  const applyLink = (next: typeof table.items, change: { type: string }): boolean => {
    if (change.type !== 'transitionPaymentLink') return false;
    const { linkId, trigger, set } = change as Transition;
    const old = next.links.get(linkId);
    const transition = PAYMENT_LINK_STATES[trigger];
    if (!old || !(transition.from as readonly string[]).includes(old.status))
      throw new ApiError('INVALID_STATE', `The payment link is ${old?.status}.`, { status: old?.status });
    next.links.set(linkId, { ...old, ...set, status: transition.to });
    return true;
  };
  const clock = fixedClock(new Date(AT));
  const base = serviceWorld(clock, table);
  const store = createMemoryApprovalStore(memory, (changes) => table.commit(changes, applyLink));
  const calls: string[] = [];
  /** Runs once, after the subject read the link and before the decision commits (a racing expiry). */
  let beforeCommit: (() => Promise<void>) | undefined;
  const raced = async () => {
    const race = beforeCommit;
    beforeCommit = undefined;
    await race?.();
  };

  const transition = (link: PaymentLink, trigger: Transition['trigger'], at: string): Transition => ({
    type: 'transitionPaymentLink',
    linkId: link.id,
    trigger,
    set: { updatedAt: at, ...(trigger === 'refuse' ? { cancelledAt: at } : {}) },
  });
  const holdVoid = (link: PaymentLink, at: string): PostingChange => {
    const total = new Big(link.amount).plus(link.fee);
    const spend = spendReturned(link.walletId, total, new Date(link.createdAt), new Date(at));
    return {
      type: 'posting',
      posting: {
        transactionId: newId('transaction'),
        type: 'VOID',
        organizationId: link.organizationId,
        environment: link.environment,
        currency: 'USD',
        legs: voidLegs({ walletId: link.walletId, amount: total }),
        createdAt: at,
        attributes: {
          from: link.walletId,
          to: link.walletId,
          amount: total.toFixed(2),
          fee: '0.00',
          status: 'POSTED',
          postedAt: at,
          holdId: link.holdId,
        },
        record: 'create',
        settles: { holdId: link.holdId, trigger: 'void', capturedAmount: new Big(0) },
        ...(spend ? { spend } : {}),
      },
    };
  };
  const subject: ApprovalSubject = {
    async onApproved(approval, _actor, at) {
      calls.push(`approved:${approval.id}`);
      const link = table.items.links.get(approval.paymentLinkId!)!;
      await raced();
      if (link.status !== 'PENDING_APPROVAL')
        return new ApiError('INVALID_STATE', `The payment link is ${link.status}.`, { status: link.status });
      return [transition(link, 'approve', at)];
    },
    async onRefused(approval, _actor, at) {
      calls.push(`refused:${approval.id}`);
      const link = table.items.links.get(approval.paymentLinkId!)!;
      await raced();
      if (link.status !== 'PENDING_APPROVAL') return [];
      const cancelled: SubjectChange = {
        type: 'event',
        event: {
          id: newId('event'),
          type: 'payment_link.cancelled',
          organizationId: link.organizationId,
          environment: link.environment,
          createdAt: at,
          data: { id: link.id },
        },
      };
      return [transition(link, 'refuse', at), holdVoid(link, at), cancelled];
    },
  };
  const service = createApprovalService({ ...base.deps, store }, { subjects: { subjectOf: async () => subject } });

  const walletId = base.wallet('100.00');
  /** A link of 10.00 (fee 0.25) created PENDING_APPROVAL with its hold, and its approval. */
  async function pendingLink(): Promise<{ link: PaymentLink; approval: Approval }> {
    const now = clock.now();
    const at = now.toISOString();
    const holdId = newId('transaction');
    const total = new Big('10.25');
    const approval: Approval = {
      id: newId('approval'),
      ...base.scope,
      walletId,
      status: 'PENDING',
      payment: { from: walletId, to: walletId, amount: '10.00' },
      transactionId: holdId,
      paymentLinkId: newId('paymentLink'),
      reason: 'requireHumanApproval',
      requestedByKeyId: 'key_agent',
      createdAt: at,
      expiresAt: new Date(now.getTime() + 72 * HOUR).toISOString(),
    };
    const link: PaymentLink = {
      id: approval.paymentLinkId!,
      ...base.scope,
      walletId,
      slug: 'slug'.padEnd(22, 'x'),
      amount: '10.00',
      currency: 'USD',
      fee: '0.25',
      expiresAt: new Date(now.getTime() + 30 * 24 * HOUR).toISOString(),
      status: 'PENDING_APPROVAL',
      holdId,
      approvalId: approval.id,
      createdByKeyId: 'key_agent',
      createdAt: at,
      updatedAt: at,
    };
    const counters = (await memory.store.getWalletSnapshot(walletId))!.counters;
    await table.commit([
      {
        type: 'posting',
        posting: {
          transactionId: holdId,
          type: 'HOLD',
          ...base.scope,
          currency: 'USD',
          legs: holdLegs(walletId, total),
          createdAt: at,
          attributes: { from: walletId, to: walletId, amount: '10.25', fee: '0.00', status: 'HELD', postedAt: at },
          record: 'create',
          spend: spendOf(walletId, total, now, [], counters),
        },
      },
      { type: 'createApproval', approval },
    ]);
    table.items.links.set(link.id, link);
    return { link, approval };
  }

  const balances = async () => {
    const wallet = (await memory.store.getWallet(walletId))!;
    return { available: wallet.balance.toFixed(2), held: wallet.heldBalance.toFixed(2) };
  };
  const daySpent = async () =>
    (await memory.store.getWalletSnapshot(walletId))!.counters.find((c) => c.period === 'DAY')!.spent.toFixed(2);
  const linkStatus = (id: string) => table.items.links.get(id)!.status;
  const holdStatus = (id: string) => table.items.journal.get(id)!.status;
  const eventsOf = (type: string) => table.events.filter((event) => event.type === type);
  const auditOf = (action: string) => table.audit.filter((entry) => entry.action === action);
  const expiryActor = AUDIT.approval.expire;
  const race = (run: () => Promise<void>) => {
    beforeCommit = run;
  };
  /** Another process moves the link (its own expiry): the hold voided with it. */
  const expireLink = async (link: PaymentLink) => {
    const at = clock.now().toISOString();
    await table.commit([{ ...transition(link, 'expire', at), set: { expiredAt: at } }, holdVoid(link, at)], applyLink);
  };
  return {
    ...base,
    clock,
    table,
    service,
    walletId,
    pendingLink,
    balances,
    daySpent,
    linkStatus,
    holdStatus,
    eventsOf,
    auditOf,
    expiryActor,
    race,
    expireLink,
    calls,
  };
}

describe('approvals of payment links (the subject seam)', () => {
  it('approve: the link ACTIVE with its hold intact, no transaction touched, audited, approval.approved naming the link', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    const journal = new Map(w.table.items.journal);

    const decided = await w.service.approve(w.ctx, AUDIT.approval.approve, approval.id, 'ok');

    expect(decided).toMatchObject({ status: 'APPROVED', decidedBy: 'key_admin', note: 'ok' });
    expect(w.linkStatus(link.id)).toBe('ACTIVE');
    expect(w.holdStatus(link.holdId)).toBe('HELD');
    expect(w.table.items.journal).toEqual(journal);
    expect(await w.balances()).toEqual({ available: '89.75', held: '10.25' });
    expect(w.eventsOf('approval.approved').map((e) => e.data)).toEqual([presentApproval(decided)]);
    expect(presentApproval(decided).paymentLinkId).toBe(link.id);
    expect(w.auditOf('approval.approved')).toEqual([
      expect.objectContaining({
        resource: 'approval',
        resourceId: approval.id,
        walletId: w.walletId,
        actorId: 'key_admin',
        metadata: { transactionId: link.holdId, amount: '10.00', currency: 'USD', paymentLinkId: link.id },
      }),
    ]);
    expect(w.eventsOf('payment.failed')).toEqual([]);
  });

  it('reject: the link CANCELLED, the hold voided to the cent, the spend given back, payment_link.cancelled', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    expect(await w.daySpent()).toBe('10.25');

    const decided = await w.service.reject(w.ctx, AUDIT.approval.reject, approval.id, 'not now');

    expect(decided).toMatchObject({ status: 'REJECTED', rejectionReason: 'not now' });
    expect(w.linkStatus(link.id)).toBe('CANCELLED');
    expect(w.holdStatus(link.holdId)).toBe('VOIDED');
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
    expect(await w.daySpent()).toBe('0.00');
    expect(w.eventsOf('payment_link.cancelled')).toHaveLength(1);
    expect(w.eventsOf('approval.rejected').map((e) => e.data)).toEqual([presentApproval(decided)]);
    expect(w.auditOf('approval.rejected')[0]!.metadata).toEqual({
      transactionId: link.holdId,
      amount: '10.00',
      currency: 'USD',
      paymentLinkId: link.id,
      reason: 'not now',
    });
  });

  it('the scheduled expiry: the approval EXPIRED, the link CANCELLED and its hold released', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();

    expect(await w.service.expire(w.expiryActor, approval.id)).toBe('not-due');
    w.clock.advance(73 * HOUR);
    expect(await w.service.expire(w.expiryActor, approval.id)).toBe('expired');

    expect(w.table.items.approvals.get(approval.id)).toMatchObject({
      status: 'EXPIRED',
      failureCode: 'APPROVAL_EXPIRED',
    });
    expect(w.linkStatus(link.id)).toBe('CANCELLED');
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
    expect(w.eventsOf('approval.expired')).toHaveLength(1);
    expect(w.eventsOf('payment_link.cancelled')).toHaveLength(1);
    expect(await w.service.expire(w.expiryActor, approval.id)).toBe('decided');
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
  });

  it('the sweep expires due link approvals with the payments, each hold released once', async () => {
    const w = world();
    const first = await w.pendingLink();
    const second = await w.pendingLink();
    expect(await w.balances()).toEqual({ available: '79.50', held: '20.50' });
    w.clock.advance(73 * HOUR);

    expect(await w.service.expireDue(w.expiryActor)).toBe(2);
    expect(await w.service.expireDue(w.expiryActor)).toBe(0);

    expect([w.linkStatus(first.link.id), w.linkStatus(second.link.id)]).toEqual(['CANCELLED', 'CANCELLED']);
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
    expect(w.eventsOf('payment_link.cancelled')).toHaveLength(2);
  });

  it('deciding too late expires it (refused with INVALID_STATE) and cancels the link', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    w.clock.advance(73 * HOUR);

    expect(await refusalOf(w.service.approve(w.ctx, AUDIT.approval.approve, approval.id, undefined))).toEqual({
      code: 'INVALID_STATE',
      details: { status: 'EXPIRED' },
    });
    expect(w.linkStatus(link.id)).toBe('CANCELLED');
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
  });

  it('approve after the link expired: the approval FAILED (INVALID_STATE), nothing else moves', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    await w.expireLink(link);
    const before = await w.balances();

    const decided = await w.service.approve(w.ctx, AUDIT.approval.approve, approval.id, undefined);

    expect(decided).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_STATE' });
    expect(w.table.items.approvals.get(approval.id)!.status).toBe('FAILED');
    expect(w.linkStatus(link.id)).toBe('EXPIRED');
    expect(await w.balances()).toEqual(before);
    expect(before).toEqual({ available: '100.00', held: '0.00' });
    expect(w.eventsOf('payment.failed')).toEqual([]);
    expect(w.eventsOf('payment_link.cancelled')).toEqual([]);
    expect(w.auditOf('approval.approved')[0]!.metadata).toMatchObject({
      status: 'FAILED',
      failureCode: 'INVALID_STATE',
    });
  });

  it.each(['reject', 'expire'] as const)('%s after the link expired: decided, the link left EXPIRED', async (how) => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    await w.expireLink(link);

    if (how === 'reject') await w.service.reject(w.ctx, AUDIT.approval.reject, approval.id, undefined);
    else {
      w.clock.advance(73 * HOUR);
      expect(await w.service.expire(w.expiryActor, approval.id)).toBe('expired');
    }

    expect(w.table.items.approvals.get(approval.id)!.status).toBe(how === 'reject' ? 'REJECTED' : 'EXPIRED');
    expect(w.linkStatus(link.id)).toBe('EXPIRED');
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
    expect(w.eventsOf('payment_link.cancelled')).toEqual([]);
  });

  it('approve racing the link expiry (it expires after the subject read it): FAILED, the link EXPIRED', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    w.race(() => w.expireLink(link));

    const decided = await w.service.approve(w.ctx, AUDIT.approval.approve, approval.id, undefined);

    expect(decided).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_STATE' });
    expect(w.linkStatus(link.id)).toBe('EXPIRED');
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
    expect(w.eventsOf('approval.approved')).toEqual([]);
  });

  it('reject racing the link expiry: the subject is read again, the approval REJECTED, the hold released once', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    w.race(() => w.expireLink(link));

    const decided = await w.service.reject(w.ctx, AUDIT.approval.reject, approval.id, undefined);

    expect(decided.status).toBe('REJECTED');
    expect(w.calls.filter((call) => call.startsWith('refused'))).toHaveLength(2);
    expect(w.linkStatus(link.id)).toBe('EXPIRED');
    expect(await w.balances()).toEqual({ available: '100.00', held: '0.00' });
    expect(w.eventsOf('payment_link.cancelled')).toEqual([]);
    expect(w.eventsOf('approval.rejected')).toHaveLength(1);
  });

  it('a second decision is refused and changes nothing', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    await w.service.approve(w.ctx, AUDIT.approval.approve, approval.id, undefined);

    expect(await refusalOf(w.service.reject(w.ctx, AUDIT.approval.reject, approval.id, undefined))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(w.linkStatus(link.id)).toBe('ACTIVE');
    expect(await w.balances()).toEqual({ available: '89.75', held: '10.25' });
  });

  it('without a subject resolver a link approval is never decided as a payment', async () => {
    const w = world();
    const { link, approval } = await w.pendingLink();
    const bare = createApprovalService({
      ...w.deps,
      store: createMemoryApprovalStore(createMemoryPaymentStore(w.table)),
    });

    await expect(bare.reject(w.ctx, AUDIT.approval.reject, approval.id, undefined)).rejects.toThrow(
      /no subject resolver/,
    );
    expect(w.table.items.approvals.get(approval.id)!.status).toBe('PENDING');
    expect(w.holdStatus(link.holdId)).toBe('HELD');
  });

  it("a payment's approval view names no link (paymentLinkId null)", () => {
    const approval: Approval = {
      id: newId('approval'),
      organizationId: 'org_a',
      environment: 'SANDBOX',
      walletId: 'wal_a',
      status: 'PENDING',
      payment: { from: 'wal_a', to: 'wal_b', amount: '5.00' },
      transactionId: 'txn_a',
      reason: 'requireHumanApproval',
      requestedByKeyId: 'key_a',
      createdAt: AT,
      expiresAt: AT,
    };
    expect(presentApproval(approval).paymentLinkId).toBeNull();
  });

  it("a link's approval request: the hold as its transaction, a payment's reason and expiry, approval.requested", () => {
    const link = {
      id: 'lnk_a',
      organizationId: 'org_a',
      environment: 'SANDBOX' as const,
      walletId: 'wal_a',
      amount: '10.00',
      description: 'Bounty',
      holdId: 'txn_hold',
    };
    const request = { id: 'apr_a', reason: 'requireHumanApproval', requestedByKeyId: 'key_a', now: new Date(AT) };

    const approval = linkApprovalOf(link, { ...request, timeScale: 60 });

    expect(approval).toEqual({
      id: 'apr_a',
      organizationId: 'org_a',
      environment: 'SANDBOX',
      walletId: 'wal_a',
      status: 'PENDING',
      payment: { from: 'wal_a', to: 'wal_a', amount: '10.00', description: 'Bounty' },
      transactionId: 'txn_hold',
      paymentLinkId: 'lnk_a',
      reason: 'requireHumanApproval',
      requestedByKeyId: 'key_a',
      createdAt: AT,
      expiresAt: '2026-11-27T11:12:00.000Z',
    });
    expect(linkApprovalOf({ ...link, environment: 'PRODUCTION' }, { ...request, timeScale: 60 }).expiresAt).toBe(
      '2026-11-30T10:00:00.000Z',
    );
    const [create, requested] = approvalRequestChanges(approval, newId);
    expect(create).toEqual({ type: 'createApproval', approval });
    expect(requested).toMatchObject({
      type: 'event',
      event: { type: 'approval.requested', organizationId: 'org_a', createdAt: AT, data: presentApproval(approval) },
    });
  });
});
