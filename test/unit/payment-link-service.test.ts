import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import type { ExpiryMessage } from '../../shared/domain/expiries/ports.js';
import { createPaymentLinkService } from '../../shared/domain/payment-links/payment-link-service.js';
import type { PaymentLinkStore } from '../../shared/domain/payment-links/ports.js';
import type { RailClaimRequest } from '../../shared/domain/payment-links/rail-claim-port.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { Wallet } from '../../shared/domain/types.js';
import { createMemoryPaymentLinkStore } from '../fakes/memory-payment-link-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

const AT = '2026-11-27T10:00:00.000Z';
const publicCtx = (ctx: RequestContext): RequestContext => ({
  ...ctx,
  principal: { ...ctx.principal, organizationId: null, environment: null, keyId: 'anonymous', walletId: null },
  actor: { actorType: 'SYSTEM', actorId: 'anonymous', ipAddress: '203.0.113.9' },
});

function linkWorld(
  options: {
    claimByRail?: (request: RailClaimRequest) => Promise<PaymentLink>;
    /** The store as the service sees it (e.g. a read that is stale by the time of the commit). */
    storeOf?: (store: PaymentLinkStore) => PaymentLinkStore;
  } = {},
) {
  const clock = fixedClock(new Date(AT));
  const memory = createMemoryPaymentLinkStore();
  const world = serviceWorld(clock, memory.table);
  const schedules: { message: ExpiryMessage; at: string }[] = [];
  const service = createPaymentLinkService({
    ...world.deps,
    store: options.storeOf ? options.storeOf(memory.store) : memory.store,
    hostedUrl: (path) => `https://pay.example${path}`,
    expiries: { schedule: async (message, at) => void schedules.push({ message, at }) },
    claimByRail: options.claimByRail,
    log: { error: () => undefined },
  });
  const balances = async (walletId: string) => {
    const wallet = (await memory.store.getWallet(walletId))!;
    return { balance: wallet.balance.toFixed(2), held: wallet.heldBalance.toFixed(2) };
  };
  const create = async (body: Record<string, unknown>, ctx = world.ctx, key?: string) =>
    service.create(ctx, AUDIT.paymentLink.create, body as never, key);
  const eventTypes = () => memory.table.events.map((event) => event.type);
  return { clock, memory, world, schedules, service, balances, create, eventTypes };
}

const policy = (walletId: string, scope: { organizationId: string }, overrides: Partial<Policy>): Policy => ({
  id: 'pol_1',
  walletId,
  organizationId: scope.organizationId,
  environment: 'SANDBOX',
  name: 'Agent policy',
  maxTransactionAmount: new Big('1000.00'),
  requireHumanApproval: false,
  status: 'ACTIVE',
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

describe('payment link service', () => {
  it('creates an ACTIVE link: the hold, its event and audit entry, and its expiry scheduled at expiresAt', async () => {
    const { world, create, balances, schedules, eventTypes, memory } = linkWorld();
    const walletId = world.wallet('100.00');

    const response = await create({ walletId, amount: '20.00', description: 'Thanks' });

    expect(response.status).toBe(201);
    const body = response.body as { id: string; url: string; slug: string; expiresAt: string; fee: string };
    expect(body).toMatchObject({ status: 'ACTIVE', fee: '0.25', amount: '20.00', walletId });
    expect(body.url).toBe(`https://pay.example/hosted/payment-links/${body.slug}`);
    expect(await balances(walletId)).toEqual({ balance: '79.75', held: '20.25' });
    expect(schedules).toEqual([{ message: { kind: 'paymentLink', id: body.id }, at: body.expiresAt }]);
    expect(eventTypes()).toEqual(['payment_link.created']);
    expect(memory.table.audit.map((entry) => [entry.action, entry.resource, entry.resourceId])).toEqual([
      [AUDIT.paymentLink.create, 'payment_link', body.id],
    ]);
  });

  it('answers the same key and body with the first answer (one hold), another body IDEMPOTENCY_KEY_REUSE', async () => {
    const { world, create, balances } = linkWorld();
    const walletId = world.wallet('100.00');
    const first = await create({ walletId, amount: '20.00' }, world.ctx, 'k1');
    const again = await create({ walletId, amount: '20.00' }, world.ctx, 'k1');
    expect(again).toEqual({ ...first, replayed: true });
    expect(await refusalOf(create({ walletId, amount: '21.00' }, world.ctx, 'k1'))).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSE',
    });
    expect(await balances(walletId)).toEqual({ balance: '79.75', held: '20.25' });
  });

  it('refuses a frozen wallet, another wallet for an agent key, and a hold the wallet can not take', async () => {
    const { world, create } = linkWorld();
    const frozen = world.wallet('100.00', { status: 'FROZEN' });
    const agentWallet = world.wallet('100.00');
    const other = world.wallet('100.00');
    expect(await refusalOf(create({ walletId: frozen, amount: '1.00' }))).toMatchObject({ code: 'WALLET_FROZEN' });
    expect(await refusalOf(create({ walletId: other, amount: '1.00' }, world.agentCtx(agentWallet)))).toMatchObject({
      code: 'WALLET_NOT_FOUND',
    });
    expect(await refusalOf(create({ walletId: other, amount: '99.80' }))).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
  });

  it('queues a link for approval: 202, PENDING_APPROVAL with its hold, the approval record and both events in one commit', async () => {
    const { world, create, balances, memory, schedules, eventTypes, service } = linkWorld();
    const walletId = world.wallet('100.00');
    memory.addPolicy(walletId, policy(walletId, world.scope, { requireHumanApproval: true }));

    const response = await create({ walletId, amount: '10.00' });

    expect(response.status).toBe(202);
    const details = (response.body as { error: { code: string; details: Record<string, string> } }).error;
    expect(details.code).toBe('APPROVAL_REQUIRED');
    const link = await memory.store.getPaymentLink(details.details.paymentLinkId!);
    expect(link).toMatchObject({ status: 'PENDING_APPROVAL', approvalId: details.details.approvalId });
    expect(memory.table.items.approvals.get(details.details.approvalId!)).toMatchObject({
      status: 'PENDING',
      paymentLinkId: link!.id,
      transactionId: link!.holdId,
      reason: 'requireHumanApproval',
    });
    expect(await balances(walletId)).toEqual({ balance: '89.75', held: '10.25' });
    expect(eventTypes()).toEqual(['payment_link.created', 'approval.requested']);
    expect(schedules.map((s) => s.message.kind).sort()).toEqual(['approval', 'paymentLink']);
    expect(
      await refusalOf(
        service.claim(publicCtx(world.ctx), AUDIT.paymentLink.claim, link!.slug, {
          method: 'wallet',
          destination: { type: 'WALLET', walletId: world.wallet('0.00') },
        }),
      ),
    ).toMatchObject({ code: 'INVALID_STATE', details: { status: 'PENDING_APPROVAL' } });
  });

  it('cancels an ACTIVE link (hold released, event), and refuses a second cancel', async () => {
    const { world, create, balances, service, eventTypes } = linkWorld();
    const walletId = world.wallet('100.00');
    const { id } = (await create({ walletId, amount: '10.00' })).body as { id: string };
    const cancelled = await service.cancel(world.ctx, AUDIT.paymentLink.cancel, id);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelledAt: AT });
    expect(await balances(walletId)).toEqual({ balance: '100.00', held: '0.00' });
    expect(await refusalOf(service.cancel(world.ctx, AUDIT.paymentLink.cancel, id))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'CANCELLED' },
    });
    expect(eventTypes()).toEqual(['payment_link.created', 'payment_link.cancelled']);
  });

  it('expires a link only once due: not-due before, expired (hold released) at expiresAt, ended after', async () => {
    const { world, create, balances, service, clock, eventTypes } = linkWorld();
    const walletId = world.wallet('100.00');
    const expiresAt = new Date(Date.parse(AT) + 60_000).toISOString();
    const { id } = (await create({ walletId, amount: '10.00', expiresAt })).body as { id: string };
    expect(await service.expire(AUDIT.paymentLink.expire, id)).toBe('not-due');
    clock.advance(60_000);
    expect(await service.expire(AUDIT.paymentLink.expire, id)).toBe('expired');
    expect(await service.expire(AUDIT.paymentLink.expire, id)).toBe('ended');
    expect(await service.expire(AUDIT.paymentLink.expire, 'lnk_unknown')).toBe('not-found');
    expect(await balances(walletId)).toEqual({ balance: '100.00', held: '0.00' });
    expect(eventTypes()).toEqual(['payment_link.created', 'payment_link.expired']);
    expect((await service.get(world.ctx, id)).status).toBe('EXPIRED');
  });

  it('the expiry sweep expires ACTIVE and PENDING_APPROVAL links past expiresAt (hold released), oldest first, in bounded batches, once', async () => {
    const { world, create, balances, service, clock, memory } = linkWorld();
    const walletId = world.wallet('1000.00');
    const soon = new Date(Date.parse(AT) + 60_000).toISOString();
    const ids: string[] = [];
    for (let n = 0; n < 26; n++)
      ids.push(((await create({ walletId, amount: '1.00', expiresAt: soon })).body as { id: string }).id);
    memory.addPolicy(walletId, policy(walletId, world.scope, { requireHumanApproval: true }));
    const queued = (await create({ walletId, amount: '1.00', expiresAt: soon })).body as {
      error: { details: { paymentLinkId: string } };
    };
    const later = (await create({ walletId, amount: '1.00' })).body as {
      error: { details: { paymentLinkId: string } };
    };
    expect(await service.expireDue(AUDIT.paymentLink.expire)).toBe(0);

    clock.advance(60_000 + 1);
    expect(await service.expireDue(AUDIT.paymentLink.expire)).toBe(25);
    expect(await service.expireDue(AUDIT.paymentLink.expire)).toBe(2);
    expect(await service.expireDue(AUDIT.paymentLink.expire)).toBe(0);

    for (const id of [...ids, queued.error.details.paymentLinkId])
      expect(memory.table.items.paymentLinks.get(id)?.status).toBe('EXPIRED');
    expect(memory.table.items.paymentLinks.get(later.error.details.paymentLinkId)?.status).toBe('PENDING_APPROVAL');
    expect(await balances(walletId)).toEqual({ balance: '998.75', held: '1.25' });
  });

  it('claims to a wallet: amount to the claimant, fee back, SETTLED with both events; refused once past expiresAt', async () => {
    const { world, create, balances, service, clock, eventTypes, memory } = linkWorld();
    const walletId = world.wallet('100.00');
    const claimant = world.wallet('0.00', {}, { organizationId: 'org_claimant', environment: 'SANDBOX' });
    const first = (await create({ walletId, amount: '10.00' })).body as { id: string; slug: string };
    const late = (await create({ walletId, amount: '5.00', expiresAt: new Date(Date.parse(AT) + 1000).toISOString() }))
      .body as { slug: string };

    const answer = await service.claim(publicCtx(world.ctx), AUDIT.paymentLink.claim, first.slug, {
      method: 'wallet',
      destination: { type: 'WALLET', walletId: claimant },
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'SETTLED', amount: '10.00', restricted: false });
    expect(await balances(claimant)).toEqual({ balance: '10.00', held: '0.00' });
    expect(await balances(walletId)).toEqual({ balance: '84.75', held: '5.25' });
    expect(eventTypes()).toEqual([
      'payment_link.created',
      'payment_link.created',
      'payment_link.claimed',
      'payment_link.settled',
    ]);
    expect(memory.table.audit.at(-1)).toMatchObject({
      action: AUDIT.paymentLink.claim,
      actorType: 'SYSTEM',
      actorId: 'payment-link-claimant',
      ipAddress: '203.0.113.9',
    });
    clock.advance(1000);
    expect(
      await refusalOf(
        service.claim(publicCtx(world.ctx), AUDIT.paymentLink.claim, late.slug, {
          method: 'wallet',
          destination: { type: 'WALLET', walletId: claimant },
        }),
      ),
    ).toMatchObject({ code: 'INVALID_STATE', details: { status: 'EXPIRED' } });
    expect((await service.getClaim(late.slug)).status).toBe('EXPIRED');
  });

  it('makes a USDC link (default USD) held 1:1 on the wallet, claimed 1:1 to a wallet; the currency is part of the key', async () => {
    const { world, create, balances, service } = linkWorld();
    const walletId = world.wallet('100.00');
    const claimant = world.wallet('0.00', {}, { organizationId: 'org_claimant', environment: 'SANDBOX' });
    const usd = (await create({ walletId, amount: '1.00' }, world.ctx, 'k-usd')).body as { currency: string };
    expect(usd.currency).toBe('USD');
    expect((await create({ walletId, amount: '1.00', currency: 'USD' }, world.ctx, 'k-usd')).replayed).toBe(true);
    expect(await refusalOf(create({ walletId, amount: '1.00', currency: 'USDC' }, world.ctx, 'k-usd'))).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSE',
    });
    const link = (await create({ walletId, amount: '20.00', currency: 'USDC' })).body as {
      slug: string;
      currency: string;
    };
    expect(link.currency).toBe('USDC');
    expect(await balances(walletId)).toEqual({ balance: '78.50', held: '21.50' });

    const answer = await service.claim(publicCtx(world.ctx), AUDIT.paymentLink.claim, link.slug, {
      method: 'wallet',
      destination: { type: 'WALLET', walletId: claimant },
    });

    expect(answer.body).toMatchObject({ status: 'SETTLED', amount: '20.00', currency: 'USDC' });
    expect(await balances(claimant)).toEqual({ balance: '20.00', held: '0.00' });
    expect(await balances(walletId)).toEqual({ balance: '78.75', held: '1.25' });
  });

  it("answers a claim's key reused with another body IDEMPOTENCY_KEY_REUSE naming the client's key only (never the link id)", async () => {
    const { world, create, service } = linkWorld();
    const walletId = world.wallet('100.00');
    const scope = { organizationId: 'org_claimant', environment: 'SANDBOX' as const };
    const [one, two] = [world.wallet('0.00', {}, scope), world.wallet('0.00', {}, scope)];
    const { id, slug } = (await create({ walletId, amount: '10.00' })).body as { id: string; slug: string };
    const claimTo = (target: string) =>
      service.claim(
        publicCtx(world.ctx),
        AUDIT.paymentLink.claim,
        slug,
        { method: 'wallet', destination: { type: 'WALLET', walletId: target } },
        'my-key',
      );
    expect((await claimTo(one)).status).toBe(200);
    const refusal = await refusalOf(claimTo(two));
    expect(refusal).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSE', details: { idempotencyKey: 'my-key' } });
    expect(JSON.stringify(refusal)).not.toContain(id);
  });

  it("refuses every claim of a frozen wallet's link (403 WALLET_FROZEN naming no wallet), nothing moves; it still cancels and expires", async () => {
    const rail: RailClaimRequest[] = [];
    const { world, create, balances, service, memory, clock } = linkWorld({
      claimByRail: async (request) => {
        rail.push(request);
        return { ...request.link, status: 'CLAIMED' };
      },
    });
    const walletId = world.wallet('100.00');
    const claimant = world.wallet('0.00', {}, { organizationId: 'org_claimant', environment: 'SANDBOX' });
    const expiresAt = new Date(Date.parse(AT) + 60_000).toISOString();
    const first = (await create({ walletId, amount: '10.00' })).body as { id: string; slug: string };
    const second = (await create({ walletId, amount: '20.00', expiresAt })).body as { id: string; slug: string };
    const row = memory.table.items.wallets.get(walletId)!;
    memory.table.items.wallets.set(walletId, { ...row, wallet: { ...row.wallet, status: 'FROZEN' } });
    const claimBy = (slug: string, input: Record<string, unknown>) =>
      refusalOf(service.claim(publicCtx(world.ctx), AUDIT.paymentLink.claim, slug, input as never));

    expect(
      await claimBy(first.slug, { method: 'wallet', destination: { type: 'WALLET', walletId: claimant } }),
    ).toEqual({ code: 'WALLET_FROZEN' });
    expect(
      await claimBy(second.slug, {
        method: 'ach',
        destination: { type: 'ACH', routingNumber: '021000021', accountNumber: '000123456789' },
      }),
    ).toEqual({ code: 'WALLET_FROZEN' });
    expect(rail).toHaveLength(0);
    expect(await balances(claimant)).toEqual({ balance: '0.00', held: '0.00' });
    expect(await balances(walletId)).toEqual({ balance: '69.50', held: '30.50' });
    expect((await service.get(world.ctx, first.id)).status).toBe('ACTIVE');

    expect((await service.cancel(world.ctx, AUDIT.paymentLink.cancel, first.id)).status).toBe('CANCELLED');
    clock.advance(60_000);
    expect(await service.expire(AUDIT.paymentLink.expire, second.id)).toBe('expired');
    expect(await balances(walletId)).toEqual({ balance: '100.00', held: '0.00' });
  });

  it('refuses a wallet claim whose link wallet is frozen between the read and the commit (the capture needs it ACTIVE)', async () => {
    let stale: Wallet | undefined;
    const { world, create, balances, service, memory } = linkWorld({
      storeOf: (store) => ({
        ...store,
        getWallet: async (id) => (stale?.id === id ? stale : store.getWallet(id)),
      }),
    });
    const walletId = world.wallet('100.00');
    const claimant = world.wallet('0.00', {}, { organizationId: 'org_claimant', environment: 'SANDBOX' });
    const { id, slug } = (await create({ walletId, amount: '10.00' })).body as { id: string; slug: string };
    const row = memory.table.items.wallets.get(walletId)!;
    stale = row.wallet;
    memory.table.items.wallets.set(walletId, { ...row, wallet: { ...row.wallet, status: 'FROZEN' } });

    const refusal = await refusalOf(
      service.claim(publicCtx(world.ctx), AUDIT.paymentLink.claim, slug, {
        method: 'wallet',
        destination: { type: 'WALLET', walletId: claimant },
      }),
    );

    expect(refusal).toEqual({ code: 'WALLET_FROZEN' });
    expect(await balances(claimant)).toEqual({ balance: '0.00', held: '0.00' });
    expect(await balances(walletId)).toEqual({ balance: '89.75', held: '10.25' });
    expect((await service.get(world.ctx, id)).status).toBe('ACTIVE');
  });

  it('hands an ach claim to the rail claim with the validated destination and the changes to commit', async () => {
    const requests: RailClaimRequest[] = [];
    const { world, create, service } = linkWorld({
      claimByRail: async (request) => {
        requests.push(request);
        return {
          ...request.link,
          status: 'CLAIMED',
          claim: {
            method: 'ach',
            destination: { type: 'ACH', routingNumber: '021000021', last4: '6789' },
            transferId: 'tr_1',
            claimedAt: AT,
          },
        };
      },
    });
    const walletId = world.wallet('100.00');
    const { slug } = (await create({ walletId, amount: '10.00', recipientRestrictions: { emails: ['a@b.co'] } }))
      .body as { slug: string };
    const answer = await service.claim(
      publicCtx(world.ctx),
      AUDIT.paymentLink.claim,
      slug,
      {
        method: 'ach',
        destination: { type: 'ACH', routingNumber: '021000021', accountNumber: '000123456789' },
        recipientEmail: 'A@B.co',
      },
      'claim-1',
    );
    expect(answer.body).toMatchObject({ status: 'CLAIMED', restricted: true });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      destination: { type: 'ACH', routingNumber: '021000021', accountNumber: '000123456789' },
      recipientEmail: 'a@b.co',
    });
    const changes = requests[0]!.claimChanges({ ...requests[0]!.link, status: 'CLAIMED' });
    expect(changes.map((change) => change.type)).toEqual(['audit', 'event', 'idempotency']);
    // The typed email is unverified: in the metadata, never the actor.
    expect(changes[0]).toMatchObject({
      entry: { actorType: 'SYSTEM', actorId: 'payment-link-claimant', metadata: { recipientEmail: 'a@b.co' } },
    });
    expect(JSON.stringify(changes)).not.toContain('000123456789');
  });

  it('answers ach and usdc claims INVALID_STATE while no rail claim is wired', async () => {
    const { world, create, service } = linkWorld();
    const walletId = world.wallet('100.00');
    const { slug } = (await create({ walletId, amount: '10.00' })).body as { slug: string };
    expect(
      await refusalOf(
        service.claim(publicCtx(world.ctx), AUDIT.paymentLink.claim, slug, {
          method: 'usdc',
          destination: { type: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
        }),
      ),
    ).toMatchObject({ code: 'INVALID_STATE' });
  });
});
