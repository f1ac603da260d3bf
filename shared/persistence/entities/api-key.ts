import type { Environment, KeyPermission } from '../../domain/tenancy.js';
import type { ApiKey } from '../../domain/types.js';
import { readOptionalString } from '../client.js';
import { str, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const API_KEY_ENTITY = 'API_KEY';
export const API_KEY_POINTER_ENTITY = 'API_KEY_POINTER';

/** A key item is found by the SHA-256 hash of the raw key (authentication); a pointer finds it by id. */
export const apiKeyKeys = {
  byHash: (hash: string): ItemKey => ({ PK: `KEYHASH#${hash}`, SK: 'KEY' }),
  /** The pointer item: a consistent read from a key id to its hash (revocation, rotation). */
  pointer: (keyId: string): ItemKey => ({ PK: `KEY#${keyId}`, SK: 'KEY' }),
  /** GSI1: the keys of an organization (both environments, agent keys included), newest first. */
  ofOrganization: (organizationId: string) => ({ GSI1PK: `ORG#${organizationId}#KEYS` }),
  listSort: (createdAt: string, keyId: string) => ({ GSI1SK: `${createdAt}#${keyId}` }),
};

export const apiKeyCodec = {
  toItem(apiKey: ApiKey): Item {
    return {
      ...apiKeyKeys.byHash(apiKey.hash),
      ...(apiKey.organizationId
        ? { ...apiKeyKeys.ofOrganization(apiKey.organizationId), ...apiKeyKeys.listSort(apiKey.createdAt, apiKey.id) }
        : {}),
      entityType: API_KEY_ENTITY,
      ...apiKey,
    };
  },
  fromItem(item: Item): ApiKey {
    return {
      id: str(item.id),
      hash: str(item.hash),
      name: str(item.name),
      prefix: str(item.prefix),
      last4: str(item.last4),
      organizationId: readOptionalString(item.organizationId) ?? null,
      environment: (readOptionalString(item.environment) as Environment | undefined) ?? null,
      // A key stored without permissions reads as none (and the compliance check reports it).
      permissions: Array.isArray(item.permissions) ? (item.permissions as KeyPermission[]) : [],
      walletId: readOptionalString(item.walletId) ?? null,
      status: item.status as ApiKey['status'],
      createdAt: str(item.createdAt),
      ...(typeof item.expiresAt === 'string' ? { expiresAt: item.expiresAt } : {}),
      ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
      ...(typeof item.lastUsedAt === 'string' ? { lastUsedAt: item.lastUsedAt } : {}),
      ...(typeof item.createdByUserRole === 'string' ? { createdByUserRole: item.createdByUserRole } : {}),
    };
  },
};

export const apiKeyPointerCodec = {
  toItem(apiKey: Pick<ApiKey, 'id' | 'hash'>): Item {
    return {
      ...apiKeyKeys.pointer(apiKey.id),
      entityType: API_KEY_POINTER_ENTITY,
      keyId: apiKey.id,
      hash: apiKey.hash,
    };
  },
  /** The hash of the key the pointer names, if the item is a pointer. */
  hashOf(item: Item | undefined): string | undefined {
    return typeof item?.hash === 'string' ? item.hash : undefined;
  },
};

/** What each index of API_KEY items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const API_KEY_INDEXES = {
  API_KEY: { GSI1: 'keys of an organization (both environments, agent keys included)' },
} as const satisfies IndexUsage;
