import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import { sandboxRail, unconfiguredRail } from '../../shared/domain/transfers/sandbox-rail.js';
import type { LinkRiderChange, TransferLinkRider } from '../../shared/domain/transfers/transfer-link-rider.js';
import { createTransferService } from '../../shared/domain/transfers/transfer-service.js';
import type { Transfer } from '../../shared/domain/transfers/types.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { createMemoryTransferStore } from '../fakes/memory-transfer-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

/**
 * The transfer seam of payment links (shared/domain/transfers/transfer-link-rider.ts): a withdrawal
 * that carries `paymentLinkId` ends with its link, in the same commit, as a fake rider says. The
 * memory transfer store moves the link with the state table's condition, so a refused link
 * transition refuses the whole commit.
 */
const AT = '2026-11-21T10:00:00.000Z';

function world(options: { voidHold?: boolean; withRider?: boolean; holdTakenAt?: string } = {}) {
  const memory = createMemoryTransferStore();
  const clock = fixedClock(new Date(AT));
  const base = serviceWorld(clock, memory.table);
  const calls: { hook: 'onCompleted' | 'onUnpaid'; transfer: Transfer; at: string }[] = [];
  const linkChanges = (transfer: Transfer, trigger: 'settle' | 'unclaim' | 'lapse', at: string): LinkRiderChange[] => [
    { type: 'transitionPaymentLink', linkId: transfer.paymentLinkId!, trigger, set: { updatedAt: at } },
    {
      type: 'event',
      event: {
        id: newId('event'),
        organizationId: transfer.organizationId,
        environment: transfer.environment,
        type: `payment_link.fake_${trigger}`,
        data: { transferId: transfer.id },
        createdAt: at,
      },
    },
  ];
  const rider: TransferLinkRider = {
    async onCompleted(transfer, at) {
      calls.push({ hook: 'onCompleted', transfer, at });
      return linkChanges(transfer, 'settle', at);
    },
    async onUnpaid(transfer, at) {
      calls.push({ hook: 'onUnpaid', transfer, at });
      const voidHold = options.voidHold ?? false;
      return {
        changes: linkChanges(transfer, voidHold ? 'lapse' : 'unclaim', at),
        voidHold,
        ...(options.holdTakenAt ? { holdTakenAt: options.holdTakenAt } : {}),
      };
    },
  };
  const service = createTransferService(
    { ...base.deps, store: memory.store },
    {
      rails: { SANDBOX: sandboxRail(clock, 1), PRODUCTION: unconfiguredRail },
      sealer: localSealer(randomBytes(32).toString('hex')),
      workflows: { start: async () => undefined },
      log: { error: () => undefined },
      ...(options.withRider === false ? {} : { linkRider: rider }),
    },
  );
  const balancesOf = async (walletId: string) => {
    const w = (await memory.store.getWallet(walletId))!;
    return [w.balance.toFixed(2), w.heldBalance.toFixed(2)];
  };
  /**
   * A CLAIMED link and its claim's transfer: a withdrawal (its hold of amount + fee taken), then
   * made the link's (as a rail claim builds it: the link's hold adopted, `paymentLinkId`).
   */
  const linkTransfer = async (accountNumber = '000123456789') => {
    const walletId = base.wallet('100.00');
    const answer = await service.withdraw(base.ctx, AUDIT.transfer.withdraw, {
      walletId,
      amount: '50.00',
      currency: 'USD',
      counterparty: { type: 'ACH', routingNumber: '021000021', accountNumber },
    });
    const transfer = memory.table.items.transfers.get((answer.body as { id: string }).id)!;
    const link = linkOf(transfer);
    memory.addPaymentLink(link);
    memory.table.items.transfers.set(transfer.id, { ...transfer, paymentLinkId: link.id });
    return { walletId, transferId: transfer.id, linkId: link.id, holdId: transfer.holdId! };
  };
  const linkStatus = (linkId: string) => memory.table.items.paymentLinks.get(linkId)?.status;
  const holdStatus = (holdId: string) => memory.table.items.journal.get(holdId)?.status;
  const eventTypes = () => memory.table.events.map((e) => e.type);
  /** The workflow's steps, as Step Functions runs them. */
  const runWorkflow = async (transferId: string) => {
    const submitted = await service.runStep({ step: 'submit', transferId });
    if (submitted.status !== 'PENDING') return submitted;
    clock.set(new Date(submitted.settleAt!));
    return service.runStep({ step: 'settle', transferId });
  };
  return {
    memory,
    clock,
    service,
    calls,
    base,
    balancesOf,
    linkTransfer,
    linkStatus,
    holdStatus,
    eventTypes,
    runWorkflow,
  };
}

function linkOf(transfer: Transfer): PaymentLink {
  return {
    id: newId('paymentLink'),
    organizationId: transfer.organizationId,
    environment: transfer.environment,
    walletId: transfer.walletId,
    slug: 'a'.repeat(22),
    amount: transfer.amount,
    currency: 'USD',
    fee: transfer.fee,
    expiresAt: '2026-12-21T10:00:00.000Z',
    status: 'CLAIMED',
    holdId: transfer.holdId!,
    createdByKeyId: 'key_admin',
    createdAt: AT,
    updatedAt: AT,
  };
}

describe('a link transfer completes with its link', () => {
  it('captures the hold and commits the rider’s changes in the same commit (the transfer as completed)', async () => {
    const w = world();
    const t = await w.linkTransfer();
    expect(await w.balancesOf(t.walletId)).toEqual(['49.75', '50.25']);
    expect(await w.runWorkflow(t.transferId)).toMatchObject({ status: 'COMPLETED' });
    expect(await w.balancesOf(t.walletId)).toEqual(['49.75', '0.00']);
    expect(w.holdStatus(t.holdId)).toBe('CAPTURED');
    expect(w.linkStatus(t.linkId)).toBe('SETTLED');
    expect(w.calls.map((c) => c.hook)).toEqual(['onCompleted']);
    const [call] = w.calls;
    const stored = w.memory.table.items.transfers.get(t.transferId)!;
    expect(call!.transfer).toMatchObject({
      id: t.transferId,
      status: 'COMPLETED',
      paymentLinkId: t.linkId,
      transactionId: stored.transactionId,
      completedAt: call!.at,
    });
    expect(w.eventTypes()).toEqual(
      expect.arrayContaining(['withdrawal.initiated', 'withdrawal.completed', 'payment_link.fake_settle']),
    );
  });

  it('commits nothing when the link refuses its transition: the transfer stays PENDING, the hold HELD', async () => {
    const w = world();
    const t = await w.linkTransfer();
    expect(await w.service.runStep({ step: 'submit', transferId: t.transferId })).toMatchObject({ status: 'PENDING' });
    // The link is no longer CLAIMED (a state the seam forbids in practice): the capture must not happen without it.
    w.memory.table.items.paymentLinks.set(t.linkId, {
      ...w.memory.table.items.paymentLinks.get(t.linkId)!,
      status: 'ACTIVE',
    });
    w.clock.set(new Date(w.memory.table.items.transfers.get(t.transferId)!.settleAt!));
    expect(await refusalOf(w.service.runStep({ step: 'settle', transferId: t.transferId }))).toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(w.memory.table.items.transfers.get(t.transferId)!.status).toBe('PENDING');
    expect(w.holdStatus(t.holdId)).toBe('HELD');
    expect(await w.balancesOf(t.walletId)).toEqual(['49.75', '50.25']);
  });
});

describe('a link transfer that ends unpaid', () => {
  it.each([
    ['rejected at submission', '000000000003'],
    ['failed at settlement', '000000000002'],
  ])('%s: keeps the hold HELD for the link when the rider says so, and commits its changes', async (_c, account) => {
    const w = world({ voidHold: false });
    const t = await w.linkTransfer(account);
    expect(await w.runWorkflow(t.transferId)).toMatchObject({ status: 'FAILED' });
    expect(await w.balancesOf(t.walletId)).toEqual(['49.75', '50.25']);
    expect(w.holdStatus(t.holdId)).toBe('HELD');
    expect(w.linkStatus(t.linkId)).toBe('ACTIVE');
    expect(w.calls.map((c) => [c.hook, c.transfer.status, c.transfer.failureReason])).toEqual([
      ['onUnpaid', 'FAILED', expect.any(String)],
    ]);
    expect(w.memory.table.items.journal.size).toBe(1); // the hold only: no void posting
    expect(w.eventTypes()).toEqual(expect.arrayContaining(['withdrawal.failed', 'payment_link.fake_unclaim']));
  });

  it('voids the hold exactly once when the rider says so (amount and fee available again)', async () => {
    const w = world({ voidHold: true });
    const t = await w.linkTransfer('000000000002');
    expect(await w.runWorkflow(t.transferId)).toMatchObject({ status: 'FAILED' });
    expect(await w.balancesOf(t.walletId)).toEqual(['100.00', '0.00']);
    expect(w.holdStatus(t.holdId)).toBe('VOIDED');
    expect(w.linkStatus(t.linkId)).toBe('EXPIRED');
    expect([...w.memory.table.items.journal.values()].map((r) => r.type).sort()).toEqual(['HOLD', 'VOID']);
  });

  it('gives the voided hold back to the period spend of when the hold was taken (the link’s creation, not the claim)', async () => {
    const w = world({ voidHold: true, holdTakenAt: AT });
    const t = await w.linkTransfer('000000000002');
    const spend = () => w.memory.table.items.wallets.get(t.walletId)!.spend;
    expect(spend()).toMatchObject({ 'DAY#2026-11-21': expect.anything() });
    expect(spend()['DAY#2026-11-21']!.toFixed(2)).toBe('50.25');
    // The claim (its transfer) a day after the link was created.
    w.clock.set(new Date('2026-11-22T09:00:00.000Z'));
    const stored = w.memory.table.items.transfers.get(t.transferId)!;
    w.memory.table.items.transfers.set(t.transferId, { ...stored, createdAt: '2026-11-22T09:00:00.000Z' });
    expect(await w.runWorkflow(t.transferId)).toMatchObject({ status: 'FAILED' });
    expect(spend()['DAY#2026-11-21']!.toFixed(2)).toBe('0.00');
    expect(spend()['DAY#2026-11-22']).toBeUndefined();
  });

  it('an organization’s cancel of a PENDING link transfer asks the rider too (the hold stays the link’s)', async () => {
    const w = world({ voidHold: false });
    const t = await w.linkTransfer();
    expect(await w.service.runStep({ step: 'submit', transferId: t.transferId })).toMatchObject({ status: 'PENDING' });
    expect(await w.service.cancel(w.base.ctx, AUDIT.transfer.cancel, t.transferId)).toMatchObject({
      status: 'CANCELLED',
    });
    expect(w.calls.map((c) => [c.hook, c.transfer.status])).toEqual([['onUnpaid', 'CANCELLED']]);
    expect(w.linkStatus(t.linkId)).toBe('ACTIVE');
    expect(w.holdStatus(t.holdId)).toBe('HELD');
    expect(await w.balancesOf(t.walletId)).toEqual(['49.75', '50.25']);
    // The settle step that raced the cancel finds it done: the rider is not asked again.
    expect(await w.service.runStep({ step: 'settle', transferId: t.transferId })).toMatchObject({
      status: 'CANCELLED',
    });
    expect(w.calls).toHaveLength(1);
  });

  it('the sandbox helper’s forced failure goes through the rider as well', async () => {
    const w = world({ voidHold: false });
    const t = await w.linkTransfer();
    expect(await w.service.advance(w.base.ctx, AUDIT.transfer.advance, t.transferId, 'FAILED')).toMatchObject({
      status: 'FAILED',
    });
    expect(w.linkStatus(t.linkId)).toBe('ACTIVE');
    expect(w.holdStatus(t.holdId)).toBe('HELD');
  });
});

describe('without a link', () => {
  it('a withdrawal without paymentLinkId never asks the rider (the hold voided as always)', async () => {
    const w = world({ voidHold: false });
    const walletId = w.base.wallet('100.00');
    const answer = await w.service.withdraw(w.base.ctx, AUDIT.transfer.withdraw, {
      walletId,
      amount: '50.00',
      currency: 'USD',
      counterparty: { type: 'ACH', routingNumber: '021000021', accountNumber: '000000000002' },
    });
    expect(await w.runWorkflow((answer.body as { id: string }).id)).toMatchObject({ status: 'FAILED' });
    expect(await w.balancesOf(walletId)).toEqual(['100.00', '0.00']);
    expect(w.calls).toEqual([]);
  });

  it('a link transfer with no rider configured does not end (nothing committed, the hold HELD)', async () => {
    const w = world({ withRider: false });
    const t = await w.linkTransfer('000000000003');
    await expect(w.service.runStep({ step: 'submit', transferId: t.transferId })).rejects.toThrow(
      /no payment-link rider/,
    );
    expect(w.memory.table.items.transfers.get(t.transferId)!.status).toBe('INITIATED');
    expect(w.holdStatus(t.holdId)).toBe('HELD');
  });
});
