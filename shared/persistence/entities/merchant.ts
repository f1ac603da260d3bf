import type { Environment } from '../../domain/tenancy.js';
import type { MerchantProfile } from '../../domain/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';

export const MERCHANT_ENTITY = 'MERCHANT';

/** One profile per environment and domain: a domain belongs to one organization per environment. */
export const merchantKeys = {
  primary: (environment: Environment, domain: string): ItemKey => ({
    PK: `MERCHANT#${environment}#${domain}`,
    SK: 'MERCHANT',
  }),
};

export const merchantCodec = {
  toItem(merchant: MerchantProfile): Item {
    return { ...merchantKeys.primary(merchant.environment, merchant.domain), entityType: MERCHANT_ENTITY, ...merchant };
  },
  fromItem(item: Item): MerchantProfile {
    return recordOf(item) as unknown as MerchantProfile;
  },
};
