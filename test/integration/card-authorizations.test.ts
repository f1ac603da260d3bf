import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../shared/auth/authenticate.js';
import { loadConfig } from '../../shared/config/config.js';
import { presentAuthorization, type AuthorizationView } from '../../shared/domain/cards/card-view.js';
import type { CardStore } from '../../shared/domain/cards/ports.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { OPERATOR_PERMISSION, type RequestContext } from '../../shared/domain/tenancy.js';
import { createCardStore } from '../../shared/persistence/card-store.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import type { TransactOptions } from '../../shared/persistence/transact.js';
import { createContainer, type StoreOverrides } from '../../shared/runtime/container.js';
import { LostResponse } from '../fixtures/in-memory-ledger.js';
import { createTestTable } from '../fixtures/table.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * The authorization engine against DynamoDB Local: real conditional transactions decide what
 * concurrent authorizations may take, and the ledger invariants, the balances and the card's and
 * wallet's spend counters follow a model after random runs of authorize (sandbox helper and
 * network request, persistent and single-use cards), capture, reverse and refund with injected
 * TransactionConflicts and lost answers (the commit applied, the caller retries).
 */
const MERCHANT = { name: 'OpenAI', category: '5734', country: 'US' };
const NUM_RUNS = Number(process.env.CARD_PROPERTY_RUNS ?? 25);
const MAX_STEPS = Number(process.env.CARD_PROPERTY_STEPS ?? 30);

async function startCards(
  options: {
    transact?: TransactOptions;
    stores?: (table: Awaited<ReturnType<typeof createTestTable>>) => StoreOverrides;
  } = {},
) {
  const table = await createTestTable(options.transact ? { transact: options.transact } : {});
  const clock = fixedClock(new Date('2026-11-25T10:00:00.000Z'));
  const config = loadConfig({
    TABLE_NAME: table.tableName,
    DYNAMODB_ENDPOINT: table.endpoint,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
  const app = createContainer(config, { table, clock, ...(options.stores ? { stores: options.stores(table) } : {}) });
  const operator: RequestContext = {
    principal: {
      kind: 'OPERATOR',
      keyId: 'key_operator_test',
      organizationId: null,
      environment: null,
      permissions: [OPERATOR_PERMISSION],
      walletId: null,
    },
    actor: { actorType: 'API_KEY', actorId: 'key_operator_test', ipAddress: '203.0.113.1' },
    requestId: 'test-operator',
  };
  const created = await app.services.organizations.create(operator, AUDIT.organization.create, { name: 'Cards Org' });
  const { principal } = await authenticate(app.core.authKeys, `Bearer ${created.sandboxKey}`, clock.now());
  const ctx: RequestContext = {
    principal,
    actor: { actorType: 'API_KEY', actorId: principal.keyId, ipAddress: '203.0.113.7' },
    requestId: 'test',
  };
  const walletId = created.mainWalletId;
  const balances = async () => {
    const wallet = await app.services.wallets.get(ctx, walletId);
    return { balance: wallet.balance.toFixed(2), held: wallet.heldBalance.toFixed(2) };
  };
  const problems = async () => (await checkLedger(table.client, table.tableName)).problems;
  return { app, table, clock, ctx, walletId, balances, problems, cards: app.services.cards };
}

const statusOf = (response: { body: unknown }) => (response.body as AuthorizationView).status;
const reasonOf = (response: { body: unknown }) => (response.body as AuthorizationView).reason;

describe('card authorizations against DynamoDB Local', () => {
  it('50 concurrent authorizations against a daily limit admit exactly as many as fit', async () => {
    const t = await startCards();
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '1000.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, {
      walletId: t.walletId,
      type: 'PERSISTENT',
      spendingLimits: [{ amount: '200.00', interval: 'daily' }],
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, { amount: '10.00', merchant: MERCHANT }),
      ),
    );
    const approved = results.filter((r) => statusOf(r) === 'APPROVED');
    const declined = results.filter((r) => statusOf(r) === 'DECLINED');
    expect(approved).toHaveLength(20);
    expect(declined).toHaveLength(30);
    expect(new Set(declined.map(reasonOf))).toEqual(new Set(['spending_limit_exceeded']));
    expect(await t.balances()).toEqual({ balance: '800.00', held: '200.00' });
    const stored = await t.cards.get(t.ctx, card.id);
    expect(stored.counters?.find((c) => c.interval === 'daily')?.spent).toBe('200');
    // Every decision is stored, declines included.
    expect((await t.cards.listAuthorizations(t.ctx, card.id, { limit: 100 })).items).toHaveLength(50);
    expect(await t.problems()).toEqual([]);
  });

  it('50 concurrent authorizations against the balance admit exactly as many as it holds', async () => {
    const t = await startCards();
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '95.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: t.walletId, type: 'PERSISTENT' });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, { amount: '10.00', merchant: MERCHANT }),
      ),
    );
    expect(results.filter((r) => statusOf(r) === 'APPROVED')).toHaveLength(9);
    expect(new Set(results.filter((r) => statusOf(r) === 'DECLINED').map(reasonOf))).toEqual(
      new Set(['insufficient_funds']),
    );
    expect(await t.balances()).toEqual({ balance: '5.00', held: '90.00' });
    expect(await t.problems()).toEqual([]);
  });

  it('records a decline when a condition fails at commit (the card frozen, the funds spent after the read)', async () => {
    const stale: { card?: unknown; snapshot?: unknown } = {};
    const t = await startCards({
      stores: (table) => {
        const real = createCardStore(table);
        const store: CardStore = {
          ...real,
          getCard: async (id) => (stale.card as Awaited<ReturnType<CardStore['getCard']>>) ?? real.getCard(id),
          getWalletSnapshot: async (id) =>
            (stale.snapshot as Awaited<ReturnType<CardStore['getWalletSnapshot']>>) ?? real.getWalletSnapshot(id),
        };
        return { cards: store };
      },
    });
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '50.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: t.walletId, type: 'PERSISTENT' });
    stale.card = card;
    await t.cards.freeze(t.ctx, AUDIT.card.freeze, card.id);
    const frozen = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
      amount: '10.00',
      merchant: MERCHANT,
    });
    expect(frozen).toMatchObject({ status: 201, body: { status: 'DECLINED', reason: 'card_inactive' } });
    stale.card = undefined;
    await t.cards.unfreeze(t.ctx, AUDIT.card.unfreeze, card.id);
    stale.snapshot = await createCardStore(t.table).getWalletSnapshot(t.walletId);
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '1.00');
    const payment = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
      amount: '45.00',
      merchant: MERCHANT,
    });
    expect(statusOf(payment)).toBe('APPROVED');
    const late = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, { amount: '45.00', merchant: MERCHANT });
    expect(late.body).toMatchObject({ status: 'DECLINED', reason: 'insufficient_funds' });
    expect(await t.balances()).toEqual({ balance: '6.00', held: '45.00' });
    expect(await t.problems()).toEqual([]);
  });

  it('keeps the number and CVC only sealed, and a single-use card ends with its capture', async () => {
    const t = await startCards();
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '100.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, {
      walletId: t.walletId,
      type: 'SINGLE_USE',
      spendingLimits: [{ amount: '30.00', interval: 'per_authorization' }],
    });
    const details = await t.cards.details(t.ctx, card.id);
    expect(details.number).toMatch(/^400000\d{10}$/);
    expect(details.number.endsWith(card.last4)).toBe(true);
    const items = (await t.table.client.send(new ScanCommand({ TableName: t.table.tableName }))).Items ?? [];
    const everything = JSON.stringify(items);
    expect(everything).not.toContain(details.number);
    expect(everything).not.toMatch(new RegExp(`"cvc"\\s*:\\s*"${details.cvc}"`));
    const auth = (
      await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, { amount: '25.00', merchant: MERCHANT })
    ).body as AuthorizationView;
    const captured = await t.cards.capture(t.ctx, AUDIT.card.capture, auth.id, '20.00');
    expect(captured.body).toMatchObject({ status: 'CAPTURED', capturedAmount: '20.00' });
    expect((await t.cards.get(t.ctx, card.id)).status).toBe('CANCELLED');
    expect(await t.balances()).toEqual({ balance: '80.00', held: '0.00' });
    const again = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, { amount: '1.00', merchant: MERCHANT });
    expect(again.body).toMatchObject({ status: 'DECLINED', reason: 'card_cancelled' });
    expect(await t.problems()).toEqual([]);
  });

  it('a single-use card admits one live authorization, also under concurrency; its reversal frees the card', async () => {
    const t = await startCards();
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '500.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: t.walletId, type: 'SINGLE_USE' });
    const first = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
      amount: '10.00',
      merchant: MERCHANT,
    });
    expect(statusOf(first)).toBe('APPROVED');
    const second = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
      amount: '20.00',
      merchant: MERCHANT,
    });
    expect(second.body).toMatchObject({ status: 'DECLINED', reason: 'card_used' });
    expect(await t.balances()).toEqual({ balance: '490.00', held: '10.00' });
    // Reversed, it paid nothing: the card may be used again, once.
    await t.cards.reverse(t.ctx, AUDIT.card.reverse, (first.body as AuthorizationView).id);
    const again = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
      amount: '20.00',
      merchant: MERCHANT,
    });
    expect(statusOf(again)).toBe('APPROVED');
    expect(
      (await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, { amount: '1.00', merchant: MERCHANT })).body,
    ).toMatchObject({ status: 'DECLINED', reason: 'card_used' });
    await t.cards.capture(t.ctx, AUDIT.card.capture, (again.body as AuthorizationView).id, '20.00');
    expect((await t.cards.get(t.ctx, card.id)).status).toBe('CANCELLED');

    // 20 at once on a fresh single-use card: exactly one approved, the others card_used.
    const fresh = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: t.walletId, type: 'SINGLE_USE' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.cards.authorize(t.ctx, AUDIT.card.authorize, fresh.id, { amount: `${i + 1}.00`, merchant: MERCHANT }),
      ),
    );
    expect(results.filter((r) => statusOf(r) === 'APPROVED')).toHaveLength(1);
    expect(new Set(results.filter((r) => statusOf(r) === 'DECLINED').map(reasonOf))).toEqual(new Set(['card_used']));
    const held = (results.find((r) => statusOf(r) === 'APPROVED')!.body as AuthorizationView).amount;
    expect(await t.balances()).toEqual({ balance: (480 - Number(held)).toFixed(2), held: Number(held).toFixed(2) });
    expect(await t.problems()).toEqual([]);
  });

  it("gives the wallet's period spend back on a reversal and on the uncaptured part of a capture", async () => {
    const t = await startCards();
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '500.00');
    await t.app.services.policies.create(t.ctx, AUDIT.policy.create, {
      walletId: t.walletId,
      name: 'Daily 50',
      maxTransactionAmount: '1000',
      requireHumanApproval: false,
      dailyLimit: '50',
    });
    const card = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: t.walletId, type: 'PERSISTENT' });
    const first = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
      amount: '40.00',
      merchant: MERCHANT,
    });
    expect(statusOf(first)).toBe('APPROVED');
    expect(
      (await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, { amount: '40.00', merchant: MERCHANT })).body,
    ).toMatchObject({ status: 'DECLINED', reason: 'policy_denied' });
    await t.cards.reverse(t.ctx, AUDIT.card.reverse, (first.body as AuthorizationView).id);
    const second = await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
      amount: '40.00',
      merchant: MERCHANT,
    });
    expect(statusOf(second)).toBe('APPROVED');
    // Captured for 10: 10 of the daily 50 spent, so a payment of 35 passes and one more of 10 does not.
    await t.cards.capture(t.ctx, AUDIT.card.capture, (second.body as AuthorizationView).id, '10.00');
    const payee = await t.app.services.wallets.create(t.ctx, AUDIT.wallet.create, { name: 'Payee' });
    expect(
      (
        await t.app.services.payments.create(t.ctx, AUDIT.payment.create, {
          from: t.walletId,
          to: payee.id,
          amount: '35.00',
        })
      ).status,
    ).toBe(200);
    await expect(
      t.app.services.payments.create(t.ctx, AUDIT.payment.create, { from: t.walletId, to: payee.id, amount: '10.00' }),
    ).rejects.toMatchObject({ code: 'POLICY_DENIED', details: { rule: 'dailyLimit', spent: '45.00' } });
    const snapshot = await createCardStore(t.table).getWalletSnapshot(t.walletId);
    expect(snapshot!.counters.map((c) => `${c.period}:${c.spent.toFixed(2)}`).sort()).toEqual([
      'DAY:45.00',
      'MONTH:45.00',
      'WEEK:45.00',
    ]);
    expect(await t.problems()).toEqual([]);
  });

  it('matches card merchants against policy lists by their normalized names', async () => {
    const t = await startCards();
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '500.00');
    await t.app.services.policies.create(t.ctx, AUDIT.policy.create, {
      walletId: t.walletId,
      name: 'No OpenAI',
      maxTransactionAmount: '1000',
      requireHumanApproval: false,
      blockedRecipients: ['merchant:openai', 'merchant:lucky-casino'],
    });
    const card = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: t.walletId, type: 'PERSISTENT' });
    for (const name of ['OpenAI', 'OPENAI', 'Open AI', 'open-ai', 'Lucky Casino', 'LUCKY CASINO']) {
      expect(
        (
          await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
            amount: '1.00',
            merchant: { ...MERCHANT, name },
          })
        ).body,
        name,
      ).toMatchObject({ status: 'DECLINED', reason: 'policy_denied' });
    }
    expect(
      statusOf(
        await t.cards.authorize(t.ctx, AUDIT.card.authorize, card.id, {
          amount: '1.00',
          merchant: { ...MERCHANT, name: 'Anthropic' },
        }),
      ),
    ).toBe('APPROVED');
    expect(await t.balances()).toEqual({ balance: '499.00', held: '1.00' });
  });

  it('keeps the ledger invariant and the spend counters over random runs with injected conflicts and lost answers', async () => {
    const faults = { conflicts: 0, lostAnswers: 0, retries: 0 };
    let inject = false;
    const t = await startCards({
      transact: {
        sleep: async () => {},
        injectConflict: (attempt) => {
          if (!inject || attempt > 2 || Math.random() >= 0.4) return false;
          faults.conflicts++;
          return true;
        },
      },
      // 8 % of the commits that applied lose their answer: the caller retries (the same idempotency key or network id).
      stores: (table) => {
        const real = createCardStore(table);
        const store: CardStore = {
          ...real,
          commit: async (changes) => {
            await real.commit(changes);
            if (inject && Math.random() < 0.08) {
              faults.lostAnswers++;
              throw new LostResponse();
            }
          },
        };
        return { cards: store };
      },
    });
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.walletId, '10000.00');
    const limits = [{ amount: '60.00', interval: 'per_authorization' as const }];
    const card = await t.cards.create(t.ctx, AUDIT.card.create, {
      walletId: t.walletId,
      type: 'PERSISTENT',
      spendingLimits: limits,
    });
    let single = await t.cards.create(t.ctx, AUDIT.card.create, {
      walletId: t.walletId,
      type: 'SINGLE_USE',
      spendingLimits: limits,
    });
    const counts: Record<string, number> = {};
    const count = (name: string) => void (counts[name] = (counts[name] ?? 0) + 1);
    type Step =
      | { kind: 'authorize'; cents: number; single: boolean; network: boolean }
      | { kind: 'capture'; pick: number; percent: number }
      | { kind: 'reverse'; pick: number }
      | { kind: 'refund'; pick: number; cents: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constant('authorize' as const),
        cents: fc.integer({ min: 1, max: 8000 }),
        single: fc.boolean(),
        network: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('capture' as const), pick: fc.nat(), percent: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), cents: fc.integer({ min: 1, max: 3000 }) }),
    );
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    const amountOf = (value: number) => (value / 100).toFixed(2);

    /** A call whose answer may be lost after its commit applied: asked again as the same request. */
    async function retried<T>(call: () => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await call();
        } catch (error) {
          if (!(error instanceof LostResponse) || attempt >= 5) throw error;
          faults.retries++;
        }
      }
    }
    /** A reversal takes no key: after a lost answer the retry finds it REVERSED (409), nothing moved twice. */
    async function reverse(id: string): Promise<void> {
      try {
        await t.cards.reverse(t.ctx, AUDIT.card.reverse, id);
      } catch (error) {
        if (!(error instanceof LostResponse)) throw error;
        faults.retries++;
        await expect(t.cards.reverse(t.ctx, AUDIT.card.reverse, id)).rejects.toMatchObject({
          code: 'INVALID_STATE',
          details: { status: 'REVERSED' },
        });
      }
    }

    // The model: each card's spend of today and the wallet's (every authorization is of the same day).
    const spent = { card: 0, single: 0, wallet: 0 };
    const cardSpent = async (id: string) =>
      cents((await t.cards.get(t.ctx, id)).counters?.find((c) => c.interval === 'daily')?.spent ?? '0');
    const walletSpent = async () => {
      const counters = (await createCardStore(t.table).getWalletSnapshot(t.walletId))!.counters;
      const periods = ['DAY', 'WEEK', 'MONTH'].map((period) =>
        cents(counters.find((c) => c.period === period)?.spent.toFixed(2) ?? '0'),
      );
      expect(new Set(periods).size, JSON.stringify(periods)).toBe(1);
      return periods[0]!;
    };
    let run = 0;

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: MAX_STEPS / 2, maxLength: MAX_STEPS }), async (steps) => {
        run++;
        inject = true;
        const before = await t.balances();
        let expected = { available: cents(before.balance), held: cents(before.held) };
        const approved: (AuthorizationView & { single: boolean })[] = [];
        const capturedOnes: AuthorizationView[] = [];
        for (const [n, s] of steps.entries()) {
          const key = `run-${run}-${n}`;
          if (s.kind === 'authorize') {
            const target = s.single ? single : card;
            const live = approved.some((a) => a.cardId === single.id);
            const merchant = MERCHANT;
            let view: AuthorizationView;
            if (s.network) {
              const decision = await retried(() =>
                t.cards.authorizeForNetwork(
                  AUDIT.card.authorize,
                  { cardId: target.id, networkId: key, amount: amountOf(s.cents), merchant },
                  'SANDBOX',
                ),
              );
              view = presentAuthorization(await t.cards.getAuthorization(t.ctx, decision.authorizationId!));
            } else {
              view = (
                await retried(() =>
                  t.cards.authorize(
                    t.ctx,
                    AUDIT.card.authorize,
                    target.id,
                    { amount: amountOf(s.cents), merchant },
                    key,
                  ),
                )
              ).body as AuthorizationView;
            }
            count(`authorize${s.single ? ':single' : ''}:${view.status}${view.reason ? `:${view.reason}` : ''}`);
            if (view.status === 'APPROVED') {
              expect(s.single && live).toBe(false);
              approved.push({ ...view, single: s.single });
              expected = { available: expected.available - s.cents, held: expected.held + s.cents };
              spent[s.single ? 'single' : 'card'] += s.cents;
              spent.wallet += s.cents;
            } else if (view.reason === 'card_used') expect(s.single && live).toBe(true);
            else expect(s.cents > 6000 || s.cents > expected.available).toBe(true);
          } else if (s.kind === 'capture' || s.kind === 'reverse') {
            const target = approved.splice(s.pick % Math.max(approved.length, 1), 1)[0];
            if (!target) continue;
            const held = cents(target.amount);
            const which = target.cardId === card.id ? 'card' : target.cardId === single.id ? 'single' : undefined;
            if (s.kind === 'capture') {
              const take = Math.max(1, Math.floor((held * s.percent) / 100));
              const view = (
                await retried(() => t.cards.capture(t.ctx, AUDIT.card.capture, target.id, amountOf(take), key))
              ).body as AuthorizationView;
              expect(view).toMatchObject({ status: 'CAPTURED', capturedAmount: amountOf(take) });
              capturedOnes.push(view);
              expected = { available: expected.available + held - take, held: expected.held - held };
              if (which) spent[which] -= held - take;
              spent.wallet -= held - take;
              if (target.single) {
                // Captured, the single-use card is over: the next single-use authorizations go to a new one.
                expect((await t.cards.get(t.ctx, target.cardId)).status).toBe('CANCELLED');
                // (Card creation takes no key: made without faults.)
                inject = false;
                single = await t.cards.create(t.ctx, AUDIT.card.create, {
                  walletId: t.walletId,
                  type: 'SINGLE_USE',
                  spendingLimits: limits,
                });
                inject = true;
                spent.single = 0;
              }
            } else {
              await reverse(target.id);
              expected = { available: expected.available + held, held: expected.held - held };
              if (which) spent[which] -= held;
              spent.wallet -= held;
            }
            count(s.kind);
          } else {
            const target = capturedOnes[s.pick % Math.max(capturedOnes.length, 1)];
            if (!target) continue;
            const current = await t.cards.getAuthorization(t.ctx, target.id);
            const left = cents(current.capturedAmount) - cents(current.refundedAmount);
            try {
              const answer = await retried(() =>
                t.cards.refund(t.ctx, AUDIT.card.refund, target.id, amountOf(s.cents), key),
              );
              // A refusal kept under the key is answered (a retry after a lost answer), not thrown.
              if (answer.status >= 400)
                throw new ApiError((answer.body as { error: { code: 'INVALID_AMOUNT' } }).error.code);
              expect(s.cents).toBeLessThanOrEqual(left);
              expected = { ...expected, available: expected.available + s.cents };
              count('refund');
            } catch (error) {
              expect((error as ApiError).code).toBe('INVALID_AMOUNT');
              expect(s.cents).toBeGreaterThan(left);
              count('refund:over');
            }
          }
          const now = await t.balances();
          expect({ available: cents(now.balance), held: cents(now.held) }).toEqual(expected);
          expect(cents(now.balance)).toBeGreaterThanOrEqual(0);
        }
        expect(await cardSpent(card.id)).toBe(spent.card);
        expect(await cardSpent(single.id)).toBe(spent.single);
        expect(await walletSpent()).toBe(spent.wallet);
        // Release what is still held, so each run starts clean.
        for (const view of approved) {
          await reverse(view.id);
          if (view.cardId === card.id) spent.card -= cents(view.amount);
          if (view.cardId === single.id) spent.single -= cents(view.amount);
          spent.wallet -= cents(view.amount);
        }
        inject = false;
        expect(await cardSpent(card.id)).toBe(spent.card);
        expect(await walletSpent()).toBe(spent.wallet);
        expect(await t.problems()).toEqual([]);
      }),
      { numRuns: NUM_RUNS, endOnFailure: true },
    );
    console.log(
      `card property: ${NUM_RUNS} runs, up to ${MAX_STEPS} steps, faults ${JSON.stringify(faults)}, outcomes ${JSON.stringify(counts)}`,
    );
    expect(faults.conflicts).toBeGreaterThan(0);
    expect(faults.lostAnswers).toBeGreaterThan(0);
  }, 240_000);
});
