import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import type { ExpiryMessage } from '../../shared/domain/expiries/ports.js';
import { newId } from '../../shared/domain/ids.js';
import { linkHold } from '../../shared/domain/payment-links/payment-link-postings.js';
import { createRailClaim } from '../../shared/domain/payment-links/payment-link-rail-claim.js';
import { paymentLinkTransfers } from '../../shared/domain/payment-links/payment-link-transfers.js';
import type { RailClaimDestination } from '../../shared/domain/payment-links/rail-claim-port.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import { spendOf } from '../../shared/domain/policies/spend.js';
import { sandboxRail, unconfiguredRail } from '../../shared/domain/transfers/sandbox-rail.js';
import { createTransferCounterparties } from '../../shared/domain/transfers/transfer-counterparties.js';
import { createTransferService } from '../../shared/domain/transfers/transfer-service.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { createMemoryTransferStore } from '../fakes/memory-transfer-store.js';
import { serviceWorld } from '../fakes/service-world.js';

/**
 * The end of an ach/usdc claim (payment-link-transfers.ts, the transfers' link rider) over the
 * memory transfer store, with the real transitions, the rail claim and the sandbox rail: settle,
 * back to ACTIVE with the hold intact, or (past `expiresAt`) EXPIRED with the hold voided once.
 */
const CREATED = '2026-11-27T10:00:00.000Z';
const EXPIRES = '2026-11-28T10:00:00.000Z';
const achTo = (accountNumber: string): RailClaimDestination => ({
  type: 'ACH',
  routingNumber: '021000021',
  accountNumber,
});
const GOOD = achTo('000123456789');

function world() {
  const memory = createMemoryTransferStore();
  const clock = fixedClock(new Date(CREATED));
  const base = serviceWorld(clock, memory.table);
  const sealer = localSealer(randomBytes(32).toString('hex'));
  const scheduled: [ExpiryMessage, string][] = [];
  const rider = paymentLinkTransfers({
    links: { getPaymentLink: async (id) => memory.table.items.paymentLinks.get(id) },
    ids: newId,
    hostedUrl: (path) => `https://pay.example.test${path}`,
    expiries: { schedule: async (message, at) => void scheduled.push([message, at]) },
    log: { error: () => undefined },
  });
  const transfers = createTransferService(
    { ...base.deps, store: memory.store },
    {
      rails: { SANDBOX: sandboxRail(clock, 1), PRODUCTION: unconfiguredRail },
      sealer,
      workflows: { start: async () => undefined },
      log: { error: () => undefined },
      linkRider: rider,
    },
  );
  const claimByRail = createRailClaim({
    store: memory.store,
    counterparties: createTransferCounterparties(memory.store, sealer),
    ids: newId,
    timeScale: 1,
    log: { error: () => undefined },
  });
  /** An ACTIVE link of 50.00 (fee 0.25) on a wallet of 100.00: its hold of 50.25 taken at CREATED. */
  const activeLink = async (): Promise<PaymentLink> => {
    const walletId = base.wallet('100.00');
    const link: PaymentLink = {
      id: newId('paymentLink'),
      ...base.scope,
      walletId,
      slug: randomBytes(11).toString('hex'),
      amount: '50.00',
      currency: 'USD',
      fee: '0.25',
      expiresAt: EXPIRES,
      status: 'ACTIVE',
      holdId: newId('transaction'),
      createdByKeyId: 'key_admin',
      createdAt: CREATED,
      updatedAt: CREATED,
    };
    await memory.store.commit([
      linkHold(link, CREATED, spendOf(walletId, new Big('50.25'), new Date(CREATED), [], [])),
    ]);
    memory.addPaymentLink(link);
    return link;
  };
  const linkOf = (id: string) => memory.table.items.paymentLinks.get(id)!;
  /** The claim, as the claim service hands it over (no changes of its own here). */
  const claim = async (link: PaymentLink, destination: RailClaimDestination) => {
    const claimed = await claimByRail({
      link: linkOf(link.id),
      destination,
      now: clock.now(),
      claimChanges: () => [],
    });
    return claimed.claim!.transferId!;
  };
  /** The transfer's workflow, as Step Functions runs it. */
  const runWorkflow = async (transferId: string) => {
    const submitted = await transfers.runStep({ step: 'submit', transferId });
    if (submitted.status !== 'PENDING') return submitted.status;
    clock.set(new Date(submitted.settleAt!));
    return (await transfers.runStep({ step: 'settle', transferId })).status;
  };
  const balancesOf = async (walletId: string) => {
    const w = (await memory.store.getWallet(walletId))!;
    return [w.balance.toFixed(2), w.heldBalance.toFixed(2)];
  };
  const journalTypes = () => [...memory.table.items.journal.values()].map((r) => r.type).sort();
  const linkEvents = () => memory.table.events.filter((e) => e.type.startsWith('payment_link.'));
  const linkAudit = () => memory.table.audit.filter((e) => e.resource === 'payment_link');
  return {
    memory,
    clock,
    transfers,
    scheduled,
    activeLink,
    linkOf,
    claim,
    runWorkflow,
    balancesOf,
    journalTypes,
    linkEvents,
    linkAudit,
    base,
  };
}

describe('an ach/usdc claim that completes', () => {
  it('settles the link with the capture: amount to the rail, the fee to acc_FEES, SETTLED with the capture id', async () => {
    const w = world();
    const link = await w.activeLink();
    const transferId = await w.claim(link, GOOD);
    expect(w.linkOf(link.id).status).toBe('CLAIMED');
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '50.25']);

    expect(await w.runWorkflow(transferId)).toBe('COMPLETED');
    const transfer = w.memory.table.items.transfers.get(transferId)!;
    const settled = w.linkOf(link.id);
    expect(settled).toMatchObject({
      status: 'SETTLED',
      settledAt: transfer.completedAt,
      updatedAt: transfer.completedAt,
      transactionId: transfer.transactionId,
    });
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '0.00']);
    expect(w.journalTypes()).toEqual(['CAPTURE', 'HOLD']);
    const capture = w.memory.table.items.journal.get(transfer.transactionId!)!;
    expect(capture).toMatchObject({ holdId: link.holdId, fee: '0.25' });
    expect(w.memory.table.items.journal.get(link.holdId)!.status).toBe('CAPTURED');

    const [event] = w.linkEvents();
    expect(w.linkEvents()).toHaveLength(1);
    expect(event).toMatchObject({
      type: 'payment_link.settled',
      organizationId: link.organizationId,
      data: {
        id: link.id,
        status: 'SETTLED',
        feeCharged: '0.25',
        url: `https://pay.example.test/hosted/payment-links/${link.slug}`,
        claim: { method: 'ach', transferId, destination: { type: 'ACH', last4: '6789' } },
      },
    });
    expect(JSON.stringify(event)).not.toContain('000123456789');
    expect(w.linkAudit()).toEqual([
      expect.objectContaining({
        action: AUDIT.paymentLink.settle,
        actorType: 'SYSTEM',
        resourceId: link.id,
        metadata: expect.objectContaining({ transferId, status: 'SETTLED' }),
      }),
    ]);
  });

  it('usdc: the same, on the USDC rail in USDC', async () => {
    const w = world();
    const link = await w.activeLink();
    const transferId = await w.claim(link, {
      type: 'USDC',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      chain: 'Ethereum',
    });
    expect(await w.runWorkflow(transferId)).toBe('COMPLETED');
    expect(w.memory.table.items.transfers.get(transferId)).toMatchObject({ rail: 'USDC', currency: 'USDC' });
    expect(w.linkOf(link.id).status).toBe('SETTLED');
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '0.00']);
  });
});

describe('an ach/usdc claim that fails before expiresAt', () => {
  it.each([
    ['failed at settlement (0002)', '000000000002', 'R03_NO_ACCOUNT'],
    ['rejected at submission (0003)', '000000000003', 'SUBMISSION_REJECTED'],
  ])('%s: the link is ACTIVE again, its hold intact, and claimable anew', async (_case, account, reason) => {
    const w = world();
    const link = await w.activeLink();
    const failedId = await w.claim(link, achTo(account));
    expect(await w.runWorkflow(failedId)).toBe('FAILED');
    const back = w.linkOf(link.id);
    expect(back.status).toBe('ACTIVE');
    expect(back.lastClaimFailure).toEqual({ reason, at: w.clock.now().toISOString() });
    expect(w.memory.table.items.journal.get(link.holdId)!.status).toBe('HELD');
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '50.25']);
    expect(w.journalTypes()).toEqual(['HOLD']);
    // No link event (the transfer's withdrawal.failed says it); the failure audited by SYSTEM.
    expect(w.linkEvents()).toEqual([]);
    expect(w.memory.table.events.map((e) => e.type)).toContain('withdrawal.failed');
    expect(w.linkAudit()).toEqual([
      expect.objectContaining({
        action: AUDIT.paymentLink.claimFailed,
        actorType: 'SYSTEM',
        metadata: expect.objectContaining({ transferId: failedId, reason, status: 'ACTIVE' }),
      }),
    ]);
    // Its expiry scheduled again (the schedule may have fired while it was CLAIMED).
    expect(w.scheduled).toEqual([[{ kind: 'paymentLink', id: link.id }, EXPIRES]]);

    // Claimed again to a good account: settled, the one hold captured once.
    const goodId = await w.claim(link, GOOD);
    expect(await w.runWorkflow(goodId)).toBe('COMPLETED');
    expect(w.linkOf(link.id)).toMatchObject({ status: 'SETTLED', claim: { transferId: goodId } });
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '0.00']);
    expect(w.journalTypes()).toEqual(['CAPTURE', 'HOLD']);
  });

  it('an organization’s cancel of the PENDING transfer: the link ACTIVE again (reason TRANSFER_CANCELLED), hold intact', async () => {
    const w = world();
    const link = await w.activeLink();
    const transferId = await w.claim(link, GOOD);
    await w.transfers.runStep({ step: 'submit', transferId });
    expect(await w.transfers.cancel(w.base.ctx, AUDIT.transfer.cancel, transferId)).toMatchObject({
      status: 'CANCELLED',
    });
    expect(w.linkOf(link.id)).toMatchObject({ status: 'ACTIVE', lastClaimFailure: { reason: 'TRANSFER_CANCELLED' } });
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '50.25']);
  });
});

describe('an ach/usdc claim that fails after expiresAt', () => {
  it('lapses: EXPIRED, the hold voided once (spend back to the day of the link), payment_link.expired', async () => {
    const w = world();
    const link = await w.activeLink();
    const transferId = await w.claim(link, achTo('000000000002'));
    await w.transfers.runStep({ step: 'submit', transferId });
    // The settlement is looked at only after the link's expiry (a rail late, the reconciler).
    w.clock.set(new Date('2026-11-28T10:00:01.000Z'));
    expect((await w.transfers.runStep({ step: 'settle', transferId })).status).toBe('FAILED');
    expect(w.linkOf(link.id)).toMatchObject({
      status: 'EXPIRED',
      expiredAt: '2026-11-28T10:00:01.000Z',
      lastClaimFailure: { reason: 'R03_NO_ACCOUNT' },
    });
    expect(await w.balancesOf(link.walletId)).toEqual(['100.00', '0.00']);
    expect(w.journalTypes()).toEqual(['HOLD', 'VOID']);
    expect(w.memory.table.items.journal.get(link.holdId)!.status).toBe('VOIDED');
    expect(w.memory.table.items.wallets.get(link.walletId)!.spend['DAY#2026-11-27']!.toFixed(2)).toBe('0.00');
    expect(w.linkEvents().map((e) => [e.type, (e.data as { status: string }).status])).toEqual([
      ['payment_link.expired', 'EXPIRED'],
    ]);
    expect(w.linkAudit().map((e) => [e.action, e.actorType])).toEqual([
      [AUDIT.paymentLink.claimFailed, 'SYSTEM'],
      [AUDIT.paymentLink.expire, 'SYSTEM'],
    ]);
    expect(w.scheduled).toEqual([]);
    // The link's own expiry, arriving now, finds nothing to release (EXPIRED: not a from-state of expire).
  });
});

describe('the rider’s invariant', () => {
  it('a link not CLAIMED by this transfer refuses the transfer’s end: nothing committed', async () => {
    const w = world();
    const link = await w.activeLink();
    const transferId = await w.claim(link, GOOD);
    w.memory.table.items.paymentLinks.set(link.id, {
      ...w.linkOf(link.id),
      claim: { ...w.linkOf(link.id).claim!, transferId: newId('transfer') },
    });
    await w.transfers.runStep({ step: 'submit', transferId });
    w.clock.set(new Date(w.memory.table.items.transfers.get(transferId)!.settleAt!));
    await expect(w.transfers.runStep({ step: 'settle', transferId })).rejects.toThrow(/is not CLAIMED by/);
    expect(w.memory.table.items.transfers.get(transferId)!.status).toBe('PENDING');
    expect(w.journalTypes()).toEqual(['HOLD']);
  });
});
