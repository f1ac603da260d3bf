import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { ledgerInvariants } from '../../shared/domain/ledger/ledger-invariants.js';
import { createPaymentLinkService } from '../../shared/domain/payment-links/payment-link-service.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import { createMemoryPaymentLinkStore } from '../fakes/memory-payment-link-store.js';
import { serviceWorld } from '../fakes/service-world.js';

/**
 * Random sequences of link creations, wallet claims, cancels, expiries and time passing over the
 * payment-link service and its memory fake: after every step the ledger invariants hold (each
 * movement balanced, every environment summing to zero, every wallet's balances the sum of its
 * legs and never negative), and each funding wallet's held balance is exactly the amount + fee of
 * its links still holding money (ACTIVE or PENDING_APPROVAL): a hold is released or captured once.
 */
const RUNS = Number(process.env.PAYMENT_LINK_PROPERTY_RUNS ?? 150);
const STEPS = 30;
/** Refusals a client can cause (the property is that they change nothing). */
const EXPECTED = new Set(['INVALID_STATE', 'INSUFFICIENT_FUNDS', 'SELF_PAYMENT', 'RECIPIENT_NOT_ALLOWED']);
const AT = '2026-11-27T10:00:00.000Z';

type Step =
  | { kind: 'create'; wallet: number; cents: number; lifeS: number; restricted: boolean }
  | { kind: 'claim'; link: number; to: number }
  | { kind: 'cancel'; link: number }
  | { kind: 'expire'; link: number }
  | { kind: 'wait'; seconds: number };

const index = fc.nat({ max: 9 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    wallet: fc.nat({ max: 1 }),
    cents: fc.integer({ min: 1, max: 40_000 }),
    lifeS: fc.integer({ min: 5, max: 600 }),
    restricted: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('claim' as const), link: index, to: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant('cancel' as const), link: index }),
  fc.record({ kind: fc.constant('expire' as const), link: index }),
  fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 1, max: 300 }) }),
);

async function run(steps: Step[]): Promise<void> {
  const clock = fixedClock(new Date(AT));
  const memory = createMemoryPaymentLinkStore();
  const world = serviceWorld(clock, memory.table);
  const service = createPaymentLinkService({
    ...world.deps,
    store: memory.store,
    hostedUrl: (path) => `https://pay.example${path}`,
    expiries: { schedule: async () => undefined },
    claimByRail: undefined,
    log: { error: () => undefined },
  });
  const anonymous: RequestContext = {
    ...world.ctx,
    principal: { ...world.ctx.principal, organizationId: null, environment: null, keyId: 'anonymous', walletId: null },
    actor: { actorType: 'SYSTEM', actorId: 'anonymous', ipAddress: '203.0.113.9' },
  };
  const funding = [world.wallet('0.00'), world.wallet('0.00')];
  // Funded as the sandbox does it, through a balanced posting from acc_SANDBOX_FUNDING.
  for (const [walletId, amount] of [
    [funding[0]!, '300.00'],
    [funding[1]!, '50.00'],
  ] as const) {
    await memory.store.commit([
      {
        type: 'posting',
        posting: {
          transactionId: world.deps.ids('transaction'),
          type: 'FUNDING',
          organizationId: world.scope.organizationId,
          environment: 'SANDBOX',
          currency: 'USD',
          legs: [
            { account: { kind: 'SYSTEM', accountId: 'acc_SANDBOX_FUNDING' }, amount: new Big(amount).times(-1) },
            { account: { kind: 'WALLET', walletId }, amount: new Big(amount) },
          ],
          createdAt: AT,
          attributes: {
            status: 'POSTED',
            postedAt: AT,
            from: 'acc_SANDBOX_FUNDING',
            to: walletId,
            amount,
            fee: '0.00',
          },
          record: 'create',
        },
      },
    ]);
  }
  const claimants = [
    world.wallet('0.00', {}, { organizationId: 'org_claimant', environment: 'SANDBOX' }),
    world.wallet('0.00'),
    funding[0]!,
  ];
  const links: { id: string; slug: string }[] = [];
  const pick = (i: number) => links[i % Math.max(links.length, 1)];

  for (const s of steps) {
    try {
      switch (s.kind) {
        case 'create': {
          const expiresAt = new Date(clock.now().getTime() + s.lifeS * 1000).toISOString();
          const answer = await service.create(world.ctx, AUDIT.paymentLink.create, {
            walletId: funding[s.wallet]!,
            amount: (s.cents / 100).toFixed(2),
            expiresAt,
            ...(s.restricted ? { recipientRestrictions: { walletIds: [claimants[0]!] } } : {}),
          } as never);
          const body = answer.body as { id: string; slug: string };
          links.push({ id: body.id, slug: body.slug });
          break;
        }
        case 'claim': {
          const link = pick(s.link);
          if (link)
            await service.claim(anonymous, AUDIT.paymentLink.claim, link.slug, {
              method: 'wallet',
              destination: { type: 'WALLET', walletId: claimants[s.to]! },
            } as never);
          break;
        }
        case 'cancel': {
          const link = pick(s.link);
          if (link) await service.cancel(world.ctx, AUDIT.paymentLink.cancel, link.id);
          break;
        }
        case 'expire': {
          const link = pick(s.link);
          if (link) await service.expire(AUDIT.paymentLink.expire, link.id);
          break;
        }
        case 'wait':
          clock.advance(s.seconds * 1000);
          break;
      }
    } catch (error) {
      if (!(error instanceof ApiError) || !EXPECTED.has(error.code)) throw error;
    }

    const wallets = [...memory.table.items.wallets.values()].map((row) => row.wallet);
    const report = ledgerInvariants(wallets, [...memory.table.items.journal.values()]);
    expect(report.problems, JSON.stringify(s)).toEqual([]);
    for (const environment of Object.values(report.environments)) expect(environment.sum).toMatch(/^-?0(\.0+)?$/);
    for (const wallet of wallets) {
      expect(wallet.balance.gte(0)).toBe(true);
      expect(wallet.heldBalance.gte(0)).toBe(true);
    }
    // Held money is exactly what the links still holding it reserve.
    for (const walletId of funding) {
      const holding = await Promise.all(links.map((link) => memory.store.getPaymentLink(link.id)));
      const reserved = holding
        .filter((link) => link?.walletId === walletId && ['ACTIVE', 'PENDING_APPROVAL'].includes(link.status))
        .reduce((sum, link) => sum + Math.round((Number(link!.amount) + Number(link!.fee)) * 100), 0);
      const wallet = wallets.find((w) => w.id === walletId)!;
      expect(wallet.heldBalance.times(100).toNumber(), JSON.stringify(s)).toBe(reserved);
    }
  }
}

describe('payment links keep the ledger balanced (property)', () => {
  it('holds the invariants after every step of random creates, claims, cancels and expiries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: STEPS }), (steps) => run(steps)),
      { numRuns: RUNS },
    );
  });
});
