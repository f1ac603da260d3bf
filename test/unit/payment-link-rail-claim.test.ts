import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { spendOf } from '../../shared/domain/policies/spend.js';
import { createRailClaim } from '../../shared/domain/payment-links/payment-link-rail-claim.js';
import type { RailClaimDestination } from '../../shared/domain/payment-links/rail-claim-port.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import { createTransferCounterparties } from '../../shared/domain/transfers/transfer-counterparties.js';
import { withdrawalHold } from '../../shared/domain/transfers/transfer-postings.js';
import type { Transfer } from '../../shared/domain/transfers/types.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { createMemoryTransferStore } from '../fakes/memory-transfer-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';
import { fixedClock } from '../../shared/domain/clock.js';

/**
 * The ach/usdc claim of a payment link (payment-link-rail-claim.ts) over the memory transfer
 * store: the transfer adopts the link's hold, and the claim commits with the link's transition
 * and the claim service's changes, or not at all.
 */
const AT = '2026-11-27T10:00:00.000Z';
const ACH: RailClaimDestination = {
  type: 'ACH',
  routingNumber: '021000021',
  accountNumber: '000123456789',
  accountName: 'Jane Doe',
};
const USDC: RailClaimDestination = {
  type: 'USDC',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  chain: 'Ethereum',
};

function world() {
  const memory = createMemoryTransferStore();
  const clock = fixedClock(new Date(AT));
  const base = serviceWorld(clock, memory.table);
  const sealer = localSealer(randomBytes(32).toString('hex'));
  const started: string[] = [];
  const claimByRail = createRailClaim({
    store: memory.store,
    counterparties: createTransferCounterparties(memory.store, sealer),
    workflows: { start: async (transfer) => void started.push(transfer.id) },
    ids: newId,
    timeScale: 1,
    log: { error: () => undefined },
  });
  /** An ACTIVE link of 50.00 (fee 0.25) and its hold of 50.25 on a wallet of 100.00. */
  const activeLink = async (currency: PaymentLink['currency'] = 'USD'): Promise<PaymentLink> => {
    const walletId = base.wallet('100.00');
    const holdId = newId('transaction');
    const link: PaymentLink = {
      id: newId('paymentLink'),
      ...base.scope,
      walletId,
      slug: 'b'.repeat(22),
      amount: '50.00',
      currency,
      fee: '0.25',
      expiresAt: '2026-12-27T10:00:00.000Z',
      status: 'ACTIVE',
      holdId,
      createdByKeyId: 'key_admin',
      createdAt: AT,
      updatedAt: AT,
    };
    const asTransfer = { ...link, id: link.id, amount: '50.00', fee: '0.25', currency: 'USD' } as unknown as Transfer;
    await memory.store.commit([
      withdrawalHold(asTransfer, holdId, AT, spendOf(walletId, new Big('50.25'), new Date(AT), [], [])),
    ]);
    memory.addPaymentLink(link);
    return link;
  };
  /** What the claim service hands over: its changes, as an audit entry naming the claimed link. */
  const request = (link: PaymentLink, destination: RailClaimDestination, recipientEmail?: string) => ({
    link,
    destination,
    recipientEmail,
    now: clock.now(),
    claimChanges: (claimed: PaymentLink) => [
      {
        type: 'audit' as const,
        entry: {
          id: newId('auditLog'),
          organizationId: claimed.organizationId,
          environment: claimed.environment,
          actorType: 'SYSTEM' as const,
          actorId: 'payment-link-claimant',
          ipAddress: '198.51.100.7',
          action: 'payment-link.claim',
          resource: 'payment_link',
          resourceId: claimed.id,
          metadata: { status: claimed.status, transferId: claimed.claim?.transferId, recipientEmail },
          createdAt: claimed.updatedAt,
        },
      },
    ],
  });
  const balancesOf = async (walletId: string) => {
    const w = (await memory.store.getWallet(walletId))!;
    return [w.balance.toFixed(2), w.heldBalance.toFixed(2)];
  };
  return { memory, sealer, started, claimByRail, activeLink, request, balancesOf };
}

describe('the rail claim of a payment link', () => {
  it('ach: a WITHDRAWAL adopting the link’s hold (no new hold), the link CLAIMED with the last 4 digits only, in one commit', async () => {
    const w = world();
    const link = await w.activeLink();
    const claimed = await w.claimByRail(w.request(link, ACH, 'jane@example.com'));
    const [transfer] = [...w.memory.table.items.transfers.values()];
    expect(transfer).toMatchObject({
      organizationId: link.organizationId,
      environment: 'SANDBOX',
      walletId: link.walletId,
      direction: 'WITHDRAWAL',
      rail: 'ACH',
      currency: 'USD',
      amount: '50.00',
      fee: '0.25',
      status: 'INITIATED',
      holdId: link.holdId,
      paymentLinkId: link.id,
      destination: { type: 'ACH', routingNumber: '021000021', last4: '6789' },
      createdAt: AT,
    });
    expect(transfer!.reconcileAt! > AT).toBe(true);
    // The account number only sealed, bound to the transfer.
    const sealed = (transfer!.destination as { accountNumberSealed: string }).accountNumberSealed;
    expect(sealed).not.toContain('000123456789');
    expect(await w.sealer.open(sealed, transfer!.id)).toBe('000123456789');
    await expect(w.sealer.open(sealed, newId('transfer'))).rejects.toThrow();

    const stored = w.memory.table.items.paymentLinks.get(link.id)!;
    expect(stored).toMatchObject({ status: 'CLAIMED', updatedAt: AT });
    expect(stored.claim).toEqual({
      method: 'ach',
      destination: { type: 'ACH', routingNumber: '021000021', last4: '6789', accountName: 'Jane Doe' },
      recipientEmail: 'jane@example.com',
      transferId: transfer!.id,
      claimedAt: AT,
    });
    expect(claimed).toEqual(stored);
    expect(JSON.stringify(stored)).not.toContain('000123456789');
    // The claim service's changes, given the claimed link, in the same commit.
    expect(w.memory.table.audit).toHaveLength(1);
    expect(w.memory.table.audit[0]).toMatchObject({ resourceId: link.id, metadata: { transferId: transfer!.id } });
    // No money moved: still the one hold.
    expect(w.memory.table.items.journal.size).toBe(1);
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '50.25']);
    expect(w.started).toEqual([transfer!.id]);
  });

  it('usdc: rail USDC in USDC to the address and chain, no recipient email when none was given', async () => {
    const w = world();
    const link = await w.activeLink();
    const claimed = await w.claimByRail(w.request(link, USDC));
    const [transfer] = [...w.memory.table.items.transfers.values()];
    expect(transfer).toMatchObject({
      rail: 'USDC',
      currency: 'USDC',
      amount: '50.00',
      fee: '0.25',
      holdId: link.holdId,
      destination: { type: 'USDC', address: USDC.type === 'USDC' ? USDC.address : '' },
    });
    expect(claimed.claim).toMatchObject({ method: 'usdc', destination: { type: 'USDC' }, transferId: transfer!.id });
    expect(claimed.claim).not.toHaveProperty('recipientEmail');
  });

  it('pays either currency by any rail, 1:1: an ach claim of a USDC link is a USD withdrawal of the amount', async () => {
    const w = world();
    const link = await w.activeLink('USDC');
    await w.claimByRail(w.request(link, ACH));
    const [transfer] = [...w.memory.table.items.transfers.values()];
    expect(transfer).toMatchObject({ rail: 'ACH', currency: 'USD', amount: '50.00', fee: '0.25', holdId: link.holdId });
    expect(await w.balancesOf(link.walletId)).toEqual(['49.75', '50.25']);
  });

  it('a second claim of the same link (lost race: no longer ACTIVE) fails INVALID_STATE and creates nothing', async () => {
    const w = world();
    const link = await w.activeLink();
    const outcomes = await Promise.allSettled([
      w.claimByRail(w.request(link, ACH)),
      w.claimByRail(w.request(link, USDC)),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled') as PromiseFulfilledResult<PaymentLink>[];
    expect(won).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'INVALID_STATE' } });
    expect(w.memory.table.items.transfers.size).toBe(1);
    expect(w.memory.table.audit).toHaveLength(1);
    expect(w.started).toHaveLength(1);
    const stored = w.memory.table.items.paymentLinks.get(link.id)!;
    expect(stored.claim).toEqual(won[0]!.value.claim);
    expect(w.memory.table.items.transfers.has(stored.claim!.transferId!)).toBe(true);
  });

  it('commits nothing when the claim service’s changes are refused (an idempotency slot in use)', async () => {
    const w = world();
    const link = await w.activeLink();
    const slotId = newId('transaction');
    const answer = (createdAt: string) => ({
      type: 'idempotency' as const,
      slotId,
      record: { createdAt, expiresAtEpochS: Math.floor(Date.parse(AT) / 1000) + 3600 } as never,
    });
    await w.memory.store.commit([answer(AT)]);
    const refused = w.request(link, ACH);
    expect(
      await refusalOf(w.claimByRail({ ...refused, claimChanges: (c) => [...refused.claimChanges(c), answer(AT)] })),
    ).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect(w.memory.table.items.transfers.size).toBe(0);
    expect(w.memory.table.items.paymentLinks.get(link.id)!.status).toBe('ACTIVE');
    expect(w.started).toEqual([]);
  });
});
