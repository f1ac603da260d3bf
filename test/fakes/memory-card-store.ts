import Big from 'big.js';
import { AUTHORIZATION_STATES, CARD_STATES } from '../../shared/domain/cards/card-states.js';
import type { CardChange, CardStore } from '../../shared/domain/cards/ports.js';
import type { Authorization, Card, Cardholder, CountedInterval } from '../../shared/domain/cards/types.js';
import { ApiError } from '../../shared/domain/errors.js';
import { formatAmount } from '../../shared/domain/money.js';
import { fromStatesOf, targetOf } from '../../shared/domain/state-table.js';
import { codeUnitOrder, createMemoryMoneyTable, newestFirst, pageOf } from './memory-money-table.js';

/** A card and its spend counters (`interval#key` -> spent), as the card item carries them. */
interface CardRow {
  card: Card;
  spend: Record<string, Big>;
}

/** An authorization and, while it is APPROVED, when it is due for expiry (the GSI4 sort of card-authorization.ts). */
interface AuthorizationRow {
  authorization: Authorization;
  dueAt?: string;
}

const CARD_CHANGES: readonly string[] = [
  'putCardholder',
  'putCard',
  'updateCard',
  'countCardSpend',
  'settleCard',
  'putAuthorization',
  'transitionAuthorization',
  'deferAuthorizationExpiry',
  'refundAuthorization',
] satisfies CardChange['type'][];

const concurrentCardChange = () =>
  new ApiError('CONCURRENT_UPDATE', 'The card changed meanwhile; retry.', { retryAfter: 1 });
const counterName = (interval: string, key: string) => `${interval}#${key}`;
const inFrom = (states: readonly string[], status: string) => states.includes(status);

/**
 * An in-memory CardStore over the shared money table (memory-money-table.ts), with the conditions
 * of card-writers.ts; test/contracts/card-store-contract.ts holds it to the DynamoDB store.
 */
export function createMemoryCardStore() {
  const table = createMemoryMoneyTable({
    cards: new Map<string, CardRow>(),
    cardholders: new Map<string, Cardholder>(),
    authorizations: new Map<string, AuthorizationRow>(),
  });
  type Items = typeof table.items;

  function apply(items: Items, change: CardChange): void {
    switch (change.type) {
      case 'putCardholder':
        if (items.cardholders.has(change.cardholder.id))
          throw new Error(`CARDHOLDER#${change.cardholder.id} already exists (id collision)`);
        items.cardholders.set(change.cardholder.id, change.cardholder);
        return;
      case 'putCard':
        if (items.cards.has(change.card.id)) throw new Error(`CARD#${change.card.id} already exists (id collision)`);
        items.cards.set(change.card.id, { card: change.card, spend: {} });
        return;
      case 'updateCard': {
        const row = items.cards.get(change.cardId);
        if (!row) throw new ApiError('CARD_NOT_FOUND');
        const { card } = row;
        if (change.trigger && !inFrom(fromStatesOf(CARD_STATES, change.trigger), card.status))
          throw new ApiError('INVALID_STATE', `The card is ${card.status}.`, { status: card.status });
        if (card.version !== change.expectedVersion) throw concurrentCardChange();
        items.cards.set(card.id, {
          ...row,
          card: {
            ...card,
            ...change.set,
            ...(change.trigger ? { status: targetOf(CARD_STATES, change.trigger) } : {}),
            version: card.version + 1,
          },
        });
        return;
      }
      case 'countCardSpend': {
        const { spend, usedBy } = change;
        const row = items.cards.get(spend.cardId);
        const card = row?.card;
        if (!row || !card || card.status === 'CANCELLED')
          throw new ApiError('INVALID_STATE', 'The card is cancelled.', { declineReason: 'card_cancelled' });
        if (card.status !== 'ACTIVE')
          throw new ApiError('INVALID_STATE', 'The card is inactive.', { declineReason: 'card_inactive' });
        if (usedBy !== undefined && card.usedBy !== undefined)
          throw new ApiError('INVALID_STATE', 'The single-use card has a live authorization.', {
            declineReason: 'card_used',
          });
        if (card.version !== spend.version) throw concurrentCardChange();
        const counters = { ...row.spend };
        for (const interval of spend.intervals) {
          const name = counterName(interval.interval, interval.key);
          const spent = (counters[name] ?? new Big(0)).plus(spend.amount);
          if (interval.limit && spent.gt(interval.limit))
            throw new ApiError('POLICY_DENIED', 'A spending limit of the card would be exceeded.', {
              declineReason: 'spending_limit_exceeded',
            });
          counters[name] = spent;
        }
        for (const stale of spend.stale) delete counters[counterName(stale.interval, stale.key)];
        items.cards.set(card.id, { card: { ...card, ...(usedBy !== undefined ? { usedBy } : {}) }, spend: counters });
        return;
      }
      case 'settleCard': {
        const row = items.cards.get(change.cardId);
        if (!row) throw new ApiError('CARD_NOT_FOUND');
        if (change.free !== undefined && row.card.usedBy !== change.free)
          throw new ApiError('INVALID_STATE', 'The card is not held by this authorization.');
        const counters = { ...row.spend };
        for (const key of change.release?.keys ?? []) {
          const name = counterName(key.interval, key.key);
          counters[name] = (counters[name] ?? new Big(0)).minus(change.release!.amount);
        }
        const card: Card = { ...row.card };
        if (change.closeAt)
          Object.assign(card, {
            status: targetOf(CARD_STATES, 'cancel'),
            cancelledAt: card.cancelledAt ?? change.closeAt,
            updatedAt: change.closeAt,
            version: card.version + 1,
          });
        if (change.free !== undefined) delete card.usedBy;
        items.cards.set(card.id, { card, spend: counters });
        return;
      }
      case 'putAuthorization': {
        const { authorization } = change;
        if (items.authorizations.has(authorization.id))
          throw new Error(`AUTHORIZATION#${authorization.id} already exists (id collision)`);
        items.authorizations.set(authorization.id, {
          authorization,
          ...(authorization.status === 'APPROVED' && authorization.expiresAt ? { dueAt: authorization.expiresAt } : {}),
        });
        return;
      }
      case 'transitionAuthorization': {
        const row = items.authorizations.get(change.authorizationId);
        if (!row) throw new ApiError('AUTHORIZATION_NOT_FOUND');
        const { status } = row.authorization;
        if (!inFrom(AUTHORIZATION_STATES[change.trigger].from, status))
          throw new ApiError('INVALID_STATE', `The authorization is ${status}.`, { status });
        items.authorizations.set(change.authorizationId, {
          authorization: { ...row.authorization, ...change.set, status: AUTHORIZATION_STATES[change.trigger].to },
        });
        return;
      }
      case 'deferAuthorizationExpiry': {
        const row = items.authorizations.get(change.authorizationId);
        if (!row?.dueAt || row.authorization.status !== 'APPROVED')
          throw new ApiError('INVALID_STATE', 'The authorization was settled meanwhile.');
        items.authorizations.set(change.authorizationId, { ...row, dueAt: change.retryAt });
        return;
      }
      case 'refundAuthorization': {
        const row = items.authorizations.get(change.authorizationId);
        if (!row) throw new ApiError('AUTHORIZATION_NOT_FOUND');
        const { authorization } = row;
        if (authorization.status !== 'CAPTURED')
          throw new ApiError('INVALID_STATE', `The authorization is ${authorization.status}.`, {
            status: authorization.status,
          });
        const refunded = new Big(authorization.refundedAmount);
        if (refunded.gt(new Big(change.capturedAmount).minus(change.amount))) {
          const left = new Big(change.capturedAmount).minus(refunded);
          throw new ApiError('INVALID_AMOUNT', `amount: at most ${formatAmount(left)} is left to refund`, {
            field: 'amount',
            max: formatAmount(left),
          });
        }
        items.authorizations.set(authorization.id, {
          ...row,
          authorization: { ...authorization, refundedAmount: refunded.plus(change.amount).toFixed() },
        });
        return;
      }
    }
  }

  const cardOf = (row: CardRow): Card => ({
    ...row.card,
    counters: Object.entries(row.spend).map(([name, spent]) => {
      const [interval, ...key] = name.split('#');
      return { interval: interval as CountedInterval, key: key.join('#'), spent: spent.toFixed() };
    }),
  });
  const inScope =
    (scope: { organizationId: string; environment: string }) =>
    (item: { organizationId: string; environment: string }) =>
      item.organizationId === scope.organizationId && item.environment === scope.environment;

  const store: CardStore = {
    getWallet: table.getWallet,
    getWalletSnapshot: async (walletId) => {
      const row = table.items.wallets.get(walletId);
      return row ? { wallet: row.wallet, policies: [], counters: [] } : undefined;
    },
    getIdempotencySlot: table.getIdempotencySlot,
    commit: (changes) =>
      table.commit(changes, (next, change) => {
        if (!CARD_CHANGES.includes(change.type)) return false;
        apply(next, change as CardChange);
        return true;
      }),
    getCard: async (cardId) => {
      const row = table.items.cards.get(cardId);
      return row ? cardOf(row) : undefined;
    },
    listCards: async (scope, filter, page) =>
      pageOf(
        [...table.items.cards.values()]
          .map(cardOf)
          .filter(inScope(scope))
          .filter((card) => filter.walletId === undefined || card.walletId === filter.walletId)
          .sort(newestFirst),
        page,
      ),
    getCardholder: async (cardholderId) => table.items.cardholders.get(cardholderId),
    listCardholders: async (scope, page) =>
      pageOf([...table.items.cardholders.values()].filter(inScope(scope)).sort(newestFirst), page),
    getAuthorization: async (authorizationId) => table.items.authorizations.get(authorizationId)?.authorization,
    listAuthorizations: async (cardId, page) =>
      pageOf(
        [...table.items.authorizations.values()]
          .map((row) => row.authorization)
          .filter((a) => a.cardId === cardId)
          .sort(newestFirst),
        page,
      ),
    async listDueAuthorizations(now, limit) {
      const sortOf = (row: AuthorizationRow) => `${row.dueAt}#${row.authorization.id}`;
      return [...table.items.authorizations.values()]
        .filter((row) => row.dueAt !== undefined && row.dueAt < now.toISOString())
        .sort((a, b) => codeUnitOrder(sortOf(a), sortOf(b)))
        .slice(0, limit)
        .map((row) => row.authorization);
    },
  };
  return { store, table };
}
