import type { Card, CardSpendCounter, CountedInterval, SpendingLimit } from '../../domain/cards/types.js';
import { COUNTED_INTERVALS } from '../../domain/cards/types.js';
import type { Environment } from '../../domain/tenancy.js';
import { readBig, readInt } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const CARD_ENTITY = 'CARD';

/**
 * A card, in its own partition (`CARD#id`). The item carries the card's spend of the current
 * intervals (`spend#<interval>#<key>`, counted in each authorization's transaction) and, for the
 * sandbox issuer, the sealed number and CVC. Index entries, newest first by `${createdAt}#${id}`:
 * GSI1 the cards of an organization environment, GSI2 the cards of a wallet.
 */
export const cardKeys = {
  primary: (cardId: string): ItemKey => ({ PK: `CARD#${cardId}`, SK: 'CARD' }),
  ofOrganization: (organizationId: string, environment: Environment) => `CARDS#${organizationId}#${environment}`,
  /** GSI2: a wallet's cards, within the card's organization environment (never keyed by the wallet alone). */
  ofWallet: (organizationId: string, environment: Environment, walletId: string) =>
    `CARDS#${organizationId}#${environment}#WALLET#${walletId}`,
  sort: (card: Pick<Card, 'createdAt' | 'id'>) => `${card.createdAt}#${card.id}`,
};

const SPEND_PREFIX = 'spend#';

/** The spend of one interval key, an attribute of the card item (e.g. `spend#daily#2026-11-21`). */
export const cardSpendAttribute = (interval: CountedInterval, key: string) => `${SPEND_PREFIX}${interval}#${key}`;

function countersOf(item: Item): CardSpendCounter[] {
  const counters: CardSpendCounter[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(SPEND_PREFIX)) continue;
    const [interval, ...key] = name.slice(SPEND_PREFIX.length).split('#');
    if (!COUNTED_INTERVALS.includes(interval as CountedInterval)) continue;
    counters.push({ interval: interval as CountedInterval, key: key.join('#'), spent: readBig(value).toFixed() });
  }
  return counters;
}

export const cardCodec = {
  toItem(card: Card): Item {
    const { counters: _counters, ...record } = card;
    const sort = cardKeys.sort(card);
    return {
      ...cardKeys.primary(card.id),
      entityType: CARD_ENTITY,
      GSI1PK: cardKeys.ofOrganization(card.organizationId, card.environment),
      GSI1SK: sort,
      GSI2PK: cardKeys.ofWallet(card.organizationId, card.environment, card.walletId),
      GSI2SK: sort,
      ...record,
    };
  },
  fromItem(item: Item): Card {
    const record = Object.fromEntries(
      Object.entries(recordOf(item)).filter(([name]) => !name.startsWith(SPEND_PREFIX)),
    ) as unknown as Card;
    return {
      ...record,
      expMonth: readInt(item.expMonth),
      expYear: readInt(item.expYear),
      version: readInt(item.version),
      spendingLimits: (item.spendingLimits as SpendingLimit[] | undefined) ?? [],
      counters: countersOf(item),
    };
  },
};

/** What each index of CARD items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const CARD_INDEXES = {
  CARD: {
    GSI1: 'cards of an organization environment',
    GSI2: 'cards of a wallet, within the organization environment',
  },
} as const satisfies IndexUsage;
