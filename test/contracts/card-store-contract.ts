import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import type { CardStore } from '../../shared/domain/cards/ports.js';
import type { Authorization, Card, Cardholder } from '../../shared/domain/cards/types.js';
import { newId } from '../../shared/domain/ids.js';
import type { Wallet } from '../../shared/domain/types.js';
import { at, collectIds, organizationScope, refusal, walletOf } from './money-fixtures.js';

/** A store under the contract, and how the test seeds what other areas write (wallets). */
export interface CardStoreHarness {
  store: CardStore;
  addWallet(wallet: Wallet): Promise<void>;
}

function cardOf(wallet: Wallet, minutes: number, overrides: Partial<Card> = {}): Card {
  return {
    id: newId('card'),
    organizationId: wallet.organizationId,
    environment: wallet.environment,
    walletId: wallet.id,
    type: 'PERSISTENT',
    status: 'ACTIVE',
    brand: 'visa',
    last4: '4242',
    expMonth: 11,
    expYear: 2029,
    spendingLimits: [{ amount: '100.00', interval: 'daily' }],
    version: 1,
    createdAt: at(minutes),
    updatedAt: at(minutes),
    ...overrides,
  };
}

function authorizationOf(card: Card, minutes: number, overrides: Partial<Authorization> = {}): Authorization {
  return {
    id: newId('authorization'),
    organizationId: card.organizationId,
    environment: card.environment,
    cardId: card.id,
    walletId: card.walletId,
    amount: '10.00',
    capturedAmount: '0.00',
    refundedAmount: '0',
    status: 'APPROVED',
    merchant: { name: 'Contract Coffee', category: '5814' },
    createdAt: at(minutes),
    ...overrides,
  };
}

const DAY = { interval: 'daily' as const, key: '2026-11-21' };
const spendOf = (card: Card, amount: string, limit?: string, version = card.version) => ({
  cardId: card.id,
  version,
  amount: new Big(amount),
  intervals: [{ ...DAY, ...(limit ? { limit: new Big(limit) } : {}) }],
  stale: [],
});
const countersOf = async (store: CardStore, cardId: string) =>
  (await store.getCard(cardId))?.counters?.map((c) => [c.interval, c.key, new Big(c.spent).toFixed(2)]);

/**
 * What the card services rely on from their store (shared/domain/cards/ports.ts), run against the
 * in-memory fake (test/unit) and the DynamoDB store (test/integration).
 */
export function describeCardStoreContract(name: string, makeStore: () => Promise<CardStoreHarness>) {
  describe(`CardStore contract: ${name}`, () => {
    async function oneCard(overrides: Partial<Card> = {}) {
      const h = await makeStore();
      const scope = organizationScope();
      const wallet = walletOf(scope, '100.00');
      await h.addWallet(wallet);
      const card = cardOf(wallet, 1, overrides);
      await h.store.commit([{ type: 'putCard', card }]);
      return { ...h, scope, wallet, card };
    }

    it('reads a card back, and changes it only at the version read and from the states of its trigger', async () => {
      const { store, card } = await oneCard();
      expect(await store.getCard(card.id)).toMatchObject({ ...card, counters: [] });
      expect(await store.getCard(newId('card'))).toBeUndefined();

      await store.commit([
        { type: 'updateCard', cardId: card.id, expectedVersion: 1, trigger: 'freeze', set: { updatedAt: at(2) } },
      ]);
      expect(await store.getCard(card.id)).toMatchObject({ status: 'INACTIVE', version: 2, updatedAt: at(2) });
      await expect(
        store.commit([{ type: 'updateCard', cardId: card.id, expectedVersion: 1, set: { spendingLimits: [] } }]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      await expect(
        store.commit([{ type: 'updateCard', cardId: card.id, expectedVersion: 2, trigger: 'freeze', set: {} }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'INACTIVE' }));
      await expect(
        store.commit([{ type: 'updateCard', cardId: newId('card'), expectedVersion: 1, set: { updatedAt: at(9) } }]),
      ).rejects.toMatchObject(refusal('CARD_NOT_FOUND'));
      await store.commit([
        {
          type: 'updateCard',
          cardId: card.id,
          expectedVersion: 2,
          trigger: 'cancel',
          set: { cancelledAt: at(3), updatedAt: at(3) },
        },
      ]);
      expect(await store.getCard(card.id)).toMatchObject({ status: 'CANCELLED', version: 3, cancelledAt: at(3) });
      await expect(
        store.commit([{ type: 'updateCard', cardId: card.id, expectedVersion: 3, trigger: 'unfreeze', set: {} }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'CANCELLED' }));
    });

    it('counts spend within the limits of an ACTIVE card at the version read, with the decline reason otherwise', async () => {
      const { store, card } = await oneCard();
      await store.commit([{ type: 'countCardSpend', spend: spendOf(card, '60.00', '100.00') }]);
      expect(await countersOf(store, card.id)).toEqual([['daily', '2026-11-21', '60.00']]);
      await expect(
        store.commit([{ type: 'countCardSpend', spend: spendOf(card, '40.01', '100.00') }]),
      ).rejects.toMatchObject(refusal('POLICY_DENIED', { declineReason: 'spending_limit_exceeded' }));
      await expect(
        store.commit([{ type: 'countCardSpend', spend: spendOf(card, '1.00', '100.00', 7) }]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      await store.commit([{ type: 'countCardSpend', spend: spendOf(card, '40.00', '100.00') }]);
      expect(await countersOf(store, card.id)).toEqual([['daily', '2026-11-21', '100.00']]);
      // Given back (a reversal): counted again from there.
      await store.commit([{ type: 'settleCard', cardId: card.id, release: { amount: '30.00', keys: [DAY] } }]);
      expect(await countersOf(store, card.id)).toEqual([['daily', '2026-11-21', '70.00']]);

      await store.commit([{ type: 'updateCard', cardId: card.id, expectedVersion: 1, trigger: 'freeze', set: {} }]);
      await expect(
        store.commit([{ type: 'countCardSpend', spend: spendOf(card, '1.00', undefined, 2) }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { declineReason: 'card_inactive' }));
      await store.commit([{ type: 'updateCard', cardId: card.id, expectedVersion: 2, trigger: 'cancel', set: {} }]);
      await expect(
        store.commit([{ type: 'countCardSpend', spend: spendOf(card, '1.00', undefined, 3) }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { declineReason: 'card_cancelled' }));
    });

    it('lets one live authorization mark a single-use card; only that one frees it; a capture closes the card', async () => {
      const { store, card } = await oneCard({ type: 'SINGLE_USE', spendingLimits: [] });
      const first = authorizationOf(card, 2, { usesCard: true });
      await store.commit([
        { type: 'countCardSpend', spend: spendOf(card, '10.00'), usedBy: first.id },
        { type: 'putAuthorization', authorization: first },
      ]);
      expect(await store.getCard(card.id)).toMatchObject({ usedBy: first.id });
      const second = authorizationOf(card, 3, { usesCard: true });
      await expect(
        store.commit([
          { type: 'countCardSpend', spend: spendOf(card, '5.00'), usedBy: second.id },
          { type: 'putAuthorization', authorization: second },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { declineReason: 'card_used' }));
      expect(await store.getAuthorization(second.id)).toBeUndefined();
      await expect(store.commit([{ type: 'settleCard', cardId: card.id, free: second.id }])).rejects.toMatchObject(
        refusal('INVALID_STATE'),
      );
      await store.commit([
        { type: 'settleCard', cardId: card.id, free: first.id, release: { amount: '10.00', keys: [DAY] } },
      ]);
      expect((await store.getCard(card.id))?.usedBy).toBeUndefined();
      await store.commit([{ type: 'countCardSpend', spend: spendOf(card, '5.00'), usedBy: second.id }]);
      await store.commit([{ type: 'settleCard', cardId: card.id, closeAt: at(4) }]);
      expect(await store.getCard(card.id)).toMatchObject({ status: 'CANCELLED', cancelledAt: at(4), version: 2 });
      await expect(store.commit([{ type: 'settleCard', cardId: newId('card'), closeAt: at(4) }])).rejects.toMatchObject(
        refusal('CARD_NOT_FOUND'),
      );
    });

    it('settles an authorization once, refunds at most what was captured, and lists the due ones oldest first', async () => {
      const { store, card } = await oneCard();
      // Expiry times of their own (2020), before any other test's.
      const due = (minute: number) => new Date(Date.parse('2020-01-01T00:00:00.000Z') + minute * 60_000).toISOString();
      const [a, b, c] = [3, 1, 2].map((minute) => authorizationOf(card, minute, { expiresAt: due(minute) }));
      const declined = authorizationOf(card, 4, {
        status: 'DECLINED',
        reason: 'insufficient_funds',
        expiresAt: due(0),
      });
      for (const authorization of [a!, b!, c!, declined])
        await store.commit([{ type: 'putAuthorization', authorization }]);
      const now = new Date(due(10));
      expect((await store.listDueAuthorizations(now, 10)).map((x) => x.id)).toEqual([b!.id, c!.id, a!.id]);
      expect((await store.listDueAuthorizations(now, 1)).map((x) => x.id)).toEqual([b!.id]);

      await store.commit([{ type: 'deferAuthorizationExpiry', authorizationId: b!.id, retryAt: due(20) }]);
      expect((await store.listDueAuthorizations(now, 10)).map((x) => x.id)).toEqual([c!.id, a!.id]);

      await store.commit([
        {
          type: 'transitionAuthorization',
          authorizationId: a!.id,
          trigger: 'capture',
          set: { capturedAmount: '8.00', capturedAt: due(5) },
        },
      ]);
      expect(await store.getAuthorization(a!.id)).toMatchObject({
        status: 'CAPTURED',
        capturedAmount: '8.00',
        refundedAmount: '0',
      });
      expect((await store.listDueAuthorizations(now, 10)).map((x) => x.id)).toEqual([c!.id]);
      await expect(
        store.commit([{ type: 'transitionAuthorization', authorizationId: a!.id, trigger: 'reverse', set: {} }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'CAPTURED' }));
      await expect(
        store.commit([
          { type: 'transitionAuthorization', authorizationId: newId('authorization'), trigger: 'reverse', set: {} },
        ]),
      ).rejects.toMatchObject(refusal('AUTHORIZATION_NOT_FOUND'));
      await expect(
        store.commit([{ type: 'deferAuthorizationExpiry', authorizationId: a!.id, retryAt: due(30) }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));

      await store.commit([
        { type: 'refundAuthorization', authorizationId: a!.id, amount: '5.00', capturedAmount: '8.00' },
      ]);
      await expect(
        store.commit([{ type: 'refundAuthorization', authorizationId: a!.id, amount: '3.01', capturedAmount: '8.00' }]),
      ).rejects.toMatchObject(refusal('INVALID_AMOUNT', { max: '3.00' }));
      await store.commit([
        { type: 'refundAuthorization', authorizationId: a!.id, amount: '3.00', capturedAmount: '8.00' },
      ]);
      expect(await store.getAuthorization(a!.id)).toMatchObject({ refundedAmount: '8' });
      await expect(
        store.commit([{ type: 'refundAuthorization', authorizationId: c!.id, amount: '1.00', capturedAmount: '1.00' }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'APPROVED' }));
    });

    it("lists cards (of the organization, of a wallet), cardholders and a card's authorizations newest first, in pages", async () => {
      const { store, scope, wallet, card, addWallet } = await oneCard();
      const other = walletOf(scope, '0');
      await addWallet(other);
      const cards = [cardOf(other, 2), cardOf(wallet, 3)];
      for (const c of cards) await store.commit([{ type: 'putCard', card: c }]);
      await store.commit([{ type: 'putCard', card: cardOf(walletOf(organizationScope(), '0'), 4) }]);
      const holders: Cardholder[] = [1, 2, 3].map((minute) => ({
        id: newId('cardholder'),
        ...scope,
        name: `Holder ${minute}`,
        billingAddress: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
        createdAt: at(minute),
      }));
      for (const cardholder of holders) await store.commit([{ type: 'putCardholder', cardholder }]);
      const auths = [1, 2, 3].map((minute) => authorizationOf(card, minute));
      for (const authorization of auths) await store.commit([{ type: 'putAuthorization', authorization }]);

      expect(await collectIds((page) => store.listCards(scope, {}, page), 2)).toEqual([
        cards[1]!.id,
        cards[0]!.id,
        card.id,
      ]);
      expect(await collectIds((page) => store.listCards(scope, { walletId: wallet.id }, page), 1)).toEqual([
        cards[1]!.id,
        card.id,
      ]);
      expect(await collectIds((page) => store.listCardholders(scope, page), 2)).toEqual(
        holders.map((h) => h.id).reverse(),
      );
      expect(await store.getCardholder(holders[0]!.id)).toEqual(holders[0]);
      expect(await collectIds((page) => store.listAuthorizations(card.id, page), 2)).toEqual(
        auths.map((a) => a.id).reverse(),
      );
    });
  });
}
