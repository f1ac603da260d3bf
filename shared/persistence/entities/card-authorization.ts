import type { Authorization } from '../../domain/cards/types.js';
import { readBig, toNumberAttribute } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import Big from 'big.js';

export const CARD_AUTHORIZATION_ENTITY = 'CARD_AUTHORIZATION';

/**
 * A card authorization, approved or declined (`CARD_AUTHORIZATION#id`); GSI1 the authorizations of
 * a card, newest first. `refundedAmount` is a Number (refunds add to it under a condition); the
 * other amounts are decimal strings.
 */
export const cardAuthorizationKeys = {
  primary: (authorizationId: string): ItemKey => ({ PK: `CARD_AUTHORIZATION#${authorizationId}`, SK: 'CARD_AUTHORIZATION' }),
  ofCard: (cardId: string) => `CARD#${cardId}#AUTHORIZATIONS`,
};

export const cardAuthorizationCodec = {
  toItem(authorization: Authorization): Item {
    return {
      ...cardAuthorizationKeys.primary(authorization.id),
      entityType: CARD_AUTHORIZATION_ENTITY,
      GSI1PK: cardAuthorizationKeys.ofCard(authorization.cardId),
      GSI1SK: `${authorization.createdAt}#${authorization.id}`,
      ...authorization,
      refundedAmount: toNumberAttribute(new Big(authorization.refundedAmount)),
    };
  },
  fromItem(item: Item): Authorization {
    const record = recordOf(item) as unknown as Authorization;
    return { ...record, refundedAmount: item.refundedAmount === undefined ? '0' : readBig(item.refundedAmount).toFixed() };
  },
};
