import type { Cardholder } from '../../domain/cards/types.js';
import type { Environment } from '../../domain/tenancy.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const CARDHOLDER_ENTITY = 'CARDHOLDER';

/** A cardholder (`CARDHOLDER#id`); GSI1 the cardholders of an organization environment, newest first. */
export const cardholderKeys = {
  primary: (cardholderId: string): ItemKey => ({ PK: `CARDHOLDER#${cardholderId}`, SK: 'CARDHOLDER' }),
  ofOrganization: (organizationId: string, environment: Environment) => `CARDHOLDERS#${organizationId}#${environment}`,
};

export const cardholderCodec = {
  toItem(cardholder: Cardholder): Item {
    return {
      ...cardholderKeys.primary(cardholder.id),
      entityType: CARDHOLDER_ENTITY,
      GSI1PK: cardholderKeys.ofOrganization(cardholder.organizationId, cardholder.environment),
      GSI1SK: `${cardholder.createdAt}#${cardholder.id}`,
      ...cardholder,
    };
  },
  fromItem(item: Item): Cardholder {
    return recordOf(item) as unknown as Cardholder;
  },
};

/** What each index of CARDHOLDER items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const CARDHOLDER_INDEXES = {
  CARDHOLDER: { GSI1: 'cardholders of an organization environment' },
} as const satisfies IndexUsage;
