import type { Authorization } from '../../domain/cards/types.js';
import { readBig, toNumberAttribute } from '../client.js';
import { dueQueue } from '../due-queue.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import Big from 'big.js';
import type { IndexUsage } from '../table-schema.js';

export const CARD_AUTHORIZATION_ENTITY = 'CARD_AUTHORIZATION';

/** GSI4 (sparse): APPROVED authorizations, by `expiresAt` (shared/persistence/due-queue.ts). */
export const OPEN_AUTHORIZATIONS = dueQueue('AUTHORIZATIONS');

/**
 * A card authorization, approved or declined (`CARD_AUTHORIZATION#id`); GSI1 the authorizations of
 * a card, newest first; GSI4 (sparse) the APPROVED ones, by `expiresAt` (capture and reversal
 * remove the entry in their own write; a declined one never has it). `refundedAmount` is a Number
 * (refunds add to it under a condition); the other amounts are decimal strings.
 */
export const cardAuthorizationKeys = {
  primary: (authorizationId: string): ItemKey => ({
    PK: `CARD_AUTHORIZATION#${authorizationId}`,
    SK: 'CARD_AUTHORIZATION',
  }),
  ofCard: (cardId: string) => `CARD#${cardId}#AUTHORIZATIONS`,
  /** GSI4 (sparse): APPROVED authorizations, by `expiresAt`. */
  open: (authorizationId: string) => OPEN_AUTHORIZATIONS.partitionOf(authorizationId),
  openShards: (): string[] => OPEN_AUTHORIZATIONS.shards(),
  openSort: (expiresAt: string, authorizationId: string) => OPEN_AUTHORIZATIONS.sort(authorizationId, expiresAt),
  /** Everything expiring before `now` sorts below this. */
  dueBefore: (now: Date) => OPEN_AUTHORIZATIONS.dueBefore(now),
};

export const cardAuthorizationCodec = {
  toItem(authorization: Authorization): Item {
    return {
      ...cardAuthorizationKeys.primary(authorization.id),
      entityType: CARD_AUTHORIZATION_ENTITY,
      GSI1PK: cardAuthorizationKeys.ofCard(authorization.cardId),
      GSI1SK: `${authorization.createdAt}#${authorization.id}`,
      ...(authorization.status === 'APPROVED' && authorization.expiresAt
        ? {
            ...cardAuthorizationKeys.open(authorization.id),
            ...cardAuthorizationKeys.openSort(authorization.expiresAt, authorization.id),
          }
        : {}),
      ...authorization,
      refundedAmount: toNumberAttribute(new Big(authorization.refundedAmount)),
    };
  },
  fromItem(item: Item): Authorization {
    const record = recordOf(item) as unknown as Authorization;
    return {
      ...record,
      refundedAmount: item.refundedAmount === undefined ? '0' : readBig(item.refundedAmount).toFixed(),
    };
  },
};

/** What each index of CARD_AUTHORIZATION items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const CARD_AUTHORIZATION_INDEXES = {
  CARD_AUTHORIZATION: {
    GSI1: 'authorizations of a card',
    GSI4: 'APPROVED authorizations, by expiresAt (sparse: removed by the capture or reversal)',
  },
} as const satisfies IndexUsage;
