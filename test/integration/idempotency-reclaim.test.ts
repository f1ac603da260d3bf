import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizationView } from '../../shared/domain/cards/card-view.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { answerChange, claimOf, type IdempotentResponse } from '../../shared/domain/idempotency/idempotency.js';
import { idempotencyCodec, idempotencyKeys } from '../../shared/persistence/entities/idempotency.js';
import { startTestApp, type TestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

const START = new Date('2026-11-25T10:00:00.000Z');
const MERCHANT = { name: 'OpenAI', category: '5734', country: 'US' };

type Item = Record<string, unknown>;

/**
 * A key's window is 24 hours (decisions.md section 3): after it the key starts anew, whatever the
 * parameters. Its last claim may be an answer (a stored refusal, a batch's claim, a card or
 * transfer answer) that DynamoDB's TTL has not deleted yet; the key's next claim takes that
 * answer's own slot (shared/domain/idempotency searchSlots), so every write that takes a key's slot
 * goes through one reclaim-aware write (persistence writers slotClaimWrite).
 */
describe('a key whose last answer expired (DynamoDB Local)', () => {
  let t: TestApp;
  const clock = fixedClock(START);
  let org: Awaited<ReturnType<TestApp['createOrganization']>>;

  const slotItem = async (slotId: string) =>
    (await t.table.client.send(new GetCommand({ TableName: t.table.tableName, Key: idempotencyKeys.slot(slotId) })))
      .Item as Item | undefined;

  /** The key's slot 0 holds an answer of other parameters whose window ended two days ago (its TTL passed, not acted on yet). */
  async function expiredAnswer(key: string): Promise<string> {
    const claim = await claimOf({ organizationId: org.organizationId, environment: 'SANDBOX' }, key, 'old parameters');
    const old = answerChange(
      await claim.slotId(0),
      claim,
      402,
      { error: { code: 'INSUFFICIENT_FUNDS' } },
      new Date(START.getTime() - 3 * 24 * 3600_000),
    );
    await t.table.client.send(
      new PutCommand({ TableName: t.table.tableName, Item: idempotencyCodec.toItem(old.slotId, old.record) }),
    );
    return old.slotId;
  }

  beforeAll(async () => {
    t = await startTestApp({ DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') }, { clock });
    org = await t.createOrganization('Reclaim Org');
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '500.00');
  });

  /**
   * Every operation that takes a key's slot, by the write it makes there: a movement's journal
   * record (postings: payments, reversals, fundings, budget adjustments; a payment queued for
   * approval), or an answer (stored refusals, batch claims, card and transfer answers).
   */
  const operations: {
    name: string;
    writes: 'journal record' | 'answer';
    run: (key: string) => Promise<IdempotentResponse | unknown>;
  }[] = [
    {
      name: 'a posted payment',
      writes: 'journal record',
      run: async (key) =>
        t.app.services.payments.create(org.ctx, AUDIT.payment.create, {
          from: org.mainWalletId,
          to: (await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payee' })).id,
          amount: '1.00',
          idempotencyKey: key,
        }),
    },
    {
      name: 'a payment queued for approval',
      writes: 'journal record',
      run: async (key) => {
        const payee = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Approved payee' });
        const policy = await t.app.services.policies.create(org.ctx, AUDIT.policy.create, {
          walletId: org.mainWalletId,
          name: 'Approve all',
          maxTransactionAmount: '1000',
          requireHumanApproval: true,
        });
        try {
          const queued = await t.app.services.payments.create(org.ctx, AUDIT.payment.create, {
            from: org.mainWalletId,
            to: payee.id,
            amount: '1.00',
            idempotencyKey: key,
          });
          expect(queued.status).toBe(202);
          return queued;
        } finally {
          await t.app.services.policies.remove(org.ctx, AUDIT.policy.delete, policy.id);
        }
      },
    },
    {
      name: 'a stored refusal',
      writes: 'answer',
      run: async (key) =>
        t.app.services.payments.create(org.ctx, AUDIT.payment.create, {
          from: (await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Empty' })).id,
          to: org.mainWalletId,
          amount: '1.00',
          idempotencyKey: key,
        }),
    },
    {
      name: "a batch's claim",
      writes: 'answer',
      run: async (key) =>
        t.app.services.payments.batch(
          org.ctx,
          AUDIT.payment.create,
          [
            {
              from: org.mainWalletId,
              to: (await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Batch payee' })).id,
              amount: '1.00',
            },
          ],
          key,
        ),
    },
    {
      name: 'a reversal',
      writes: 'journal record',
      run: async (key) => {
        const payment = await t.app.services.payments.create(org.ctx, AUDIT.payment.create, {
          from: org.mainWalletId,
          to: (await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Reversed payee' })).id,
          amount: '1.00',
        });
        return t.app.services.payments.reverse(
          org.ctx,
          AUDIT.payment.reverse,
          (payment.body as { id: string }).id,
          key,
        );
      },
    },
    {
      name: 'a funding',
      writes: 'journal record',
      run: async (key) => t.app.services.wallets.fundWithKey(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '5.00', key),
    },
    {
      name: 'a budget adjustment',
      writes: 'journal record',
      run: async (key) =>
        t.app.services.agents.adjustBudget(
          org.ctx,
          AUDIT.wallet.adjustBudget,
          (await t.app.services.agents.create(org.ctx, AUDIT.wallet.create, { name: `Agent ${key}` })).wallet.id,
          '5.00',
          key,
        ),
    },
    {
      name: 'an internal transfer',
      writes: 'answer',
      run: async (key) =>
        t.app.services.transfers.internal(
          org.ctx,
          AUDIT.transfer.internal,
          {
            fromWalletId: org.mainWalletId,
            toWalletId: (await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Transfer payee' }))
              .id,
            amount: '1.00',
          },
          key,
        ),
    },
    {
      name: 'a card authorization and its capture',
      writes: 'answer',
      run: async (key) => {
        const card = await t.app.services.cards.create(org.ctx, AUDIT.card.create, {
          walletId: org.mainWalletId,
          type: 'PERSISTENT',
        });
        const authorization = await t.app.services.cards.authorize(org.ctx, AUDIT.card.authorize, card.id, {
          amount: '2.00',
          merchant: MERCHANT,
        });
        return t.app.services.cards.capture(
          org.ctx,
          AUDIT.card.capture,
          (authorization.body as AuthorizationView).id,
          undefined,
          key,
        );
      },
    },
  ];

  it.each(operations)(
    "lets $name ($writes) take the slot of the key's expired answer, as with a fresh key",
    async ({ run, writes }) => {
      clock.set(START);
      const key = `reclaim-${Math.random().toString(36).slice(2)}`;
      const slotId = await expiredAnswer(key);

      const outcome = await run(key).catch((error: unknown) => error);

      expect(outcome instanceof ApiError ? `${outcome.code}: ${outcome.message}` : 'answered').toBe('answered');
      expect((outcome as IdempotentResponse).replayed ?? false).toBe(false);
      const item = await slotItem(slotId);
      expect(item?.createdAt).toBe(START.toISOString());
      expect(item?.entityType).toBe(writes === 'answer' ? 'IDEMPOTENCY' : 'TRANSACTION');
    },
  );

  it('lets exactly one of concurrent requests reclaiming the same expired slot win: the others replay its answer', async () => {
    clock.set(START);
    const key = 'reclaim-race';
    const slotId = await expiredAnswer(key);
    const payee = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Race payee' });
    const before = (await t.app.services.wallets.get(org.ctx, payee.id)).balance.toFixed(2);

    const body = { from: org.mainWalletId, to: payee.id, amount: '2.00', idempotencyKey: key };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.app.services.payments.create(org.ctx, AUDIT.payment.create, body)),
    );

    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    expect(new Set(answers.map((answer) => (answer.body as { id: string }).id))).toEqual(new Set([slotId]));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect((await t.app.services.wallets.get(org.ctx, payee.id)).balance.toFixed(2)).toBe(
      (Number(before) + 2).toFixed(2),
    );
    expect(await slotItem(slotId)).toMatchObject({ entityType: 'TRANSACTION', status: 'POSTED' });
  });

  it('refuses a concurrent request with other parameters once the slot is reclaimed: IDEMPOTENCY_KEY_REUSE, nothing moved twice', async () => {
    clock.set(START);
    const key = 'reclaim-race-other';
    const slotId = await expiredAnswer(key);
    const payee = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Other race payee' });

    const outcomes = await Promise.all(
      ['2.00', '3.00'].map((amount) =>
        t.app.services.payments
          .create(org.ctx, AUDIT.payment.create, { from: org.mainWalletId, to: payee.id, amount, idempotencyKey: key })
          .catch((error: unknown) => error),
      ),
    );

    const answered = outcomes.filter((outcome): outcome is IdempotentResponse => !(outcome instanceof ApiError));
    const refused = outcomes.filter((outcome): outcome is ApiError => outcome instanceof ApiError);
    expect(answered).toHaveLength(1);
    expect(refused.map((error) => error.code)).toEqual(['IDEMPOTENCY_KEY_REUSE']);
    expect((await t.app.services.wallets.get(org.ctx, payee.id)).balance.toFixed(2)).toBe(
      (answered[0]!.body as { amount: string }).amount,
    );
    expect(await slotItem(slotId)).toMatchObject({ entityType: 'TRANSACTION' });
  });
});
