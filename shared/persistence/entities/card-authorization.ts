import type { Authorization } from '../../domain/cards/types.js';
import { readBig, toNumberAttribute } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import Big from 'big.js';

export const CARD_AUTHORIZATION_ENTITY = 'CARD_AUTHORIZATION';

/** Partitions of the open-authorizations index (GSI4). */
const OPEN_SHARDS = 8;
const shardOf = (authorizationId: string): number => [...authorizationId].reduce((sum, character) => (sum * 31 + character.charCodeAt(0)) % 1_000_003, 7) % OPEN_SHARDS;

/**
 * A card authorization, approved or declined (`CARD_AUTHORIZATION#id`); GSI1 the authorizations of
 * a card, newest first; GSI4 (sparse) the APPROVED ones, by `expiresAt` (capture and reversal
 * remove the entry in their own write; a declined one never has it). `refundedAmount` is a Number
 * (refunds add to it under a condition); the other amounts are decimal strings.
 */
export const cardAuthorizationKeys = {
  primary: (authorizationId: string): ItemKey => ({ PK: `CARD_AUTHORIZATION#${authorizationId}`, SK: 'CARD_AUTHORIZATION' }),
  ofCard: (cardId: string) => `CARD#${cardId}#AUTHORIZATIONS`,
  /** GSI4 (sparse): APPROVED authorizations, spread over OPEN_SHARDS partitions by id so no single index partition takes every write. */
  open: (authorizationId: string) => ({ GSI4PK: `AUTHORIZATIONS#OPEN#${shardOf(authorizationId)}` }),
  openShards: (): string[] => Array.from({ length: OPEN_SHARDS }, (_, shard) => `AUTHORIZATIONS#OPEN#${shard}`),
  openSort: (expiresAt: string, authorizationId: string) => ({ GSI4SK: `${expiresAt}#${authorizationId}` }),
  /** Everything expiring before `now` sorts below this. */
  dueBefore: (now: Date) => `${now.toISOString()}#`,
};

export const cardAuthorizationCodec = {
  toItem(authorization: Authorization): Item {
    return {
      ...cardAuthorizationKeys.primary(authorization.id),
      entityType: CARD_AUTHORIZATION_ENTITY,
      GSI1PK: cardAuthorizationKeys.ofCard(authorization.cardId),
      GSI1SK: `${authorization.createdAt}#${authorization.id}`,
      ...(authorization.status === 'APPROVED' && authorization.expiresAt ? { ...cardAuthorizationKeys.open(authorization.id), ...cardAuthorizationKeys.openSort(authorization.expiresAt, authorization.id) } : {}),
      ...authorization,
      refundedAmount: toNumberAttribute(new Big(authorization.refundedAmount)),
    };
  },
  fromItem(item: Item): Authorization {
    const record = recordOf(item) as unknown as Authorization;
    return { ...record, refundedAmount: item.refundedAmount === undefined ? '0' : readBig(item.refundedAmount).toFixed() };
  },
};
