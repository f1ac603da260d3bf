import type { Organization } from '../../domain/types.js';
import { str, type Item, type ItemKey } from '../item.js';

export const ORGANIZATION_ENTITY = 'ORGANIZATION';

export const organizationKeys = {
  primary: (organizationId: string): ItemKey => ({ PK: `ORG#${organizationId}`, SK: 'ORG' }),
};

export const organizationCodec = {
  toItem(organization: Organization): Item {
    return { ...organizationKeys.primary(organization.id), entityType: ORGANIZATION_ENTITY, ...organization };
  },
  fromItem(item: Item): Organization {
    return {
      id: str(item.id),
      name: str(item.name),
      createdAt: str(item.createdAt),
      kybStatus: item.kybStatus as Organization['kybStatus'],
      ...(item.kyb ? { kyb: item.kyb as NonNullable<Organization['kyb']> } : {}),
      ...(item.tosAcceptance
        ? { tosAcceptance: item.tosAcceptance as NonNullable<Organization['tosAcceptance']> }
        : {}),
      ...(item.billingMethod
        ? { billingMethod: item.billingMethod as NonNullable<Organization['billingMethod']> }
        : {}),
      ...(item.productionActivatedAt ? { productionActivatedAt: str(item.productionActivatedAt) } : {}),
    };
  },
};
