import type { Environment } from '../../domain/tenancy.js';
import { readInt } from '../client.js';
import { str, type Item, type ItemKey } from '../item.js';

export const ORGANIZATION_ENVIRONMENT_ENTITY = 'ORGANIZATION_ENVIRONMENT';

/** One per organization and environment, beside the organization item: its main wallet and wallet counter. */
export interface OrganizationEnvironment {
  organizationId: string;
  environment: Environment;
  mainWalletId: string;
  /** Wallets created in the environment, counted against its limit. */
  walletCount: number;
}

export const organizationEnvironmentKeys = {
  primary: (organizationId: string, environment: Environment): ItemKey => ({
    PK: `ORG#${organizationId}`,
    SK: `ENV#${environment}`,
  }),
};

export const organizationEnvironmentCodec = {
  toItem(record: OrganizationEnvironment): Item {
    return {
      ...organizationEnvironmentKeys.primary(record.organizationId, record.environment),
      entityType: ORGANIZATION_ENVIRONMENT_ENTITY,
      ...record,
    };
  },
  fromItem(item: Item): OrganizationEnvironment {
    return {
      organizationId: str(item.organizationId),
      environment: item.environment as Environment,
      mainWalletId: str(item.mainWalletId),
      walletCount: readInt(item.walletCount),
    };
  },
};
