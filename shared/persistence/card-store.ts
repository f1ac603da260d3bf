import type { CardStore } from '../domain/cards/ports.js';
import { createCommitter } from './change-writer.js';
import {
  CARD_AUTHORIZATION_ENTITY,
  cardAuthorizationCodec,
  cardAuthorizationKeys,
  OPEN_AUTHORIZATIONS,
} from './entities/card-authorization.js';
import { cardCodec, cardKeys } from './entities/card.js';
import { cardholderCodec, cardholderKeys } from './entities/cardholder.js';
import { createIdempotencyStore } from './idempotency-store.js';
import { createQueries } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { createWalletReader, createWalletSnapshotReader } from './wallet-store.js';
import { auditWriters } from './writers/audit-writers.js';
import { cardWriters } from './writers/card-writers.js';
import { idempotencyWriters } from './writers/idempotency-writers.js';
import { postingWriters } from './writers/posting-writers.js';

/** The card area's store: cards, cardholders, authorizations, the funding wallets, and one commit. */
export function createCardStore(table: TableContext): CardStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createWalletReader(table),
    ...createWalletSnapshotReader(table),
    ...createIdempotencyStore(table),
    ...createCommitter(table, { ...cardWriters, ...postingWriters, ...idempotencyWriters, ...auditWriters }),
    async getCard(cardId) {
      const item = await getItem(table, cardKeys.primary(cardId));
      return item ? cardCodec.fromItem(item) : undefined;
    },
    listCards(scope, filter, page) {
      if (filter.walletId !== undefined)
        return queryIndex(
          GSI.GSI2,
          cardKeys.ofWallet(scope.organizationId, scope.environment, filter.walletId),
          page,
          cardCodec.fromItem,
        );
      return queryIndex(
        GSI.GSI1,
        cardKeys.ofOrganization(scope.organizationId, scope.environment),
        page,
        cardCodec.fromItem,
      );
    },
    async getCardholder(cardholderId) {
      const item = await getItem(table, cardholderKeys.primary(cardholderId));
      return item ? cardholderCodec.fromItem(item) : undefined;
    },
    listCardholders(scope, page) {
      return queryIndex(
        GSI.GSI1,
        cardholderKeys.ofOrganization(scope.organizationId, scope.environment),
        page,
        cardholderCodec.fromItem,
      );
    },
    async getAuthorization(authorizationId) {
      const item = await getItem(table, cardAuthorizationKeys.primary(authorizationId));
      return item ? cardAuthorizationCodec.fromItem(item) : undefined;
    },
    listAuthorizations(cardId, page) {
      return queryIndex(GSI.GSI1, cardAuthorizationKeys.ofCard(cardId), page, cardAuthorizationCodec.fromItem);
    },
    async listDueAuthorizations(now, limit) {
      return (await OPEN_AUTHORIZATIONS.listDue(table, now, limit, CARD_AUTHORIZATION_ENTITY)).map(
        cardAuthorizationCodec.fromItem,
      );
    },
  };
}
