import Big from 'big.js';
import type { ApiKey, AuditEntry, Organization, OutboxEvent, Wallet } from '../../domain/types.js';
import type { Environment, Permission } from '../../domain/tenancy.js';
import { readBig, readOptionalString, toNumberAttribute } from '../client.js';
import { keys } from '../keys.js';
import { TTL_ATTRIBUTE } from '../table-schema.js';

/** toItem/fromItem per entity: the only code that knows item attribute names. */
export type Item = Record<string, unknown>;

export const ENTITY = {
  organization: 'ORGANIZATION',
  environment: 'ORGANIZATION_ENVIRONMENT',
  wallet: 'WALLET',
  apiKey: 'API_KEY',
  apiKeyPointer: 'API_KEY_POINTER',
  transaction: 'TRANSACTION',
  ledgerEntry: 'LEDGER_ENTRY',
  audit: 'AUDIT_ENTRY',
  outbox: 'OUTBOX_EVENT',
  idempotency: 'IDEMPOTENCY',
  config: 'CONFIG',
} as const;

const str = (value: unknown): string => (typeof value === 'string' ? value : String(value));

export const organizationCodec = {
  toItem(organization: Organization): Item {
    return { ...keys.organization(organization.id), entityType: ENTITY.organization, ...organization };
  },
  fromItem(item: Item): Organization {
    return {
      id: str(item.id),
      name: str(item.name),
      createdAt: str(item.createdAt),
      kybStatus: item.kybStatus as Organization['kybStatus'],
      ...(item.kyb ? { kyb: item.kyb as NonNullable<Organization['kyb']> } : {}),
      ...(item.tosAcceptance ? { tosAcceptance: item.tosAcceptance as NonNullable<Organization['tosAcceptance']> } : {}),
      ...(item.billingMethod ? { billingMethod: item.billingMethod as NonNullable<Organization['billingMethod']> } : {}),
      ...(item.productionActivatedAt ? { productionActivatedAt: str(item.productionActivatedAt) } : {}),
    };
  },
};

export const walletCodec = {
  toItem(wallet: Wallet): Item {
    return {
      ...keys.wallet(wallet.id),
      ...keys.walletsOfOrganization(wallet.organizationId, wallet.environment),
      ...keys.walletListSort(wallet.createdAt, wallet.id),
      entityType: ENTITY.wallet,
      id: wallet.id,
      organizationId: wallet.organizationId,
      environment: wallet.environment,
      name: wallet.name,
      agentName: wallet.agentName,
      walletType: wallet.walletType,
      isMain: wallet.isMain,
      status: wallet.status,
      balance: toNumberAttribute(wallet.balance),
      pendingBalance: toNumberAttribute(wallet.pendingBalance),
      heldBalance: toNumberAttribute(wallet.heldBalance),
      currency: wallet.currency,
      createdAt: wallet.createdAt,
      deletedAt: wallet.deletedAt,
      activeKeyId: wallet.activeKeyId,
    };
  },
  fromItem(item: Item): Wallet {
    return {
      id: str(item.id),
      organizationId: str(item.organizationId),
      environment: item.environment as Environment,
      name: str(item.name),
      ...(typeof item.agentName === 'string' ? { agentName: item.agentName } : {}),
      walletType: item.walletType as Wallet['walletType'],
      isMain: item.isMain === true,
      status: item.status as Wallet['status'],
      balance: readBig(item.balance),
      pendingBalance: item.pendingBalance === undefined ? new Big(0) : readBig(item.pendingBalance),
      heldBalance: item.heldBalance === undefined ? new Big(0) : readBig(item.heldBalance),
      currency: 'USD',
      createdAt: str(item.createdAt),
      ...(typeof item.deletedAt === 'string' ? { deletedAt: item.deletedAt } : {}),
      ...(typeof item.activeKeyId === 'string' ? { activeKeyId: item.activeKeyId } : {}),
    };
  },
};

export const apiKeyCodec = {
  toItem(apiKey: ApiKey): Item {
    return {
      ...keys.apiKeyByHash(apiKey.hash),
      ...(apiKey.organizationId ? keys.apiKeysOfOrganization(apiKey.organizationId) : {}),
      ...(apiKey.organizationId ? keys.apiKeyListSort(apiKey.createdAt, apiKey.id) : {}),
      entityType: ENTITY.apiKey,
      ...apiKey,
    };
  },
  pointerItem(apiKey: ApiKey): Item {
    return { ...keys.apiKeyById(apiKey.id), entityType: ENTITY.apiKeyPointer, keyId: apiKey.id, hash: apiKey.hash };
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
      permissions: Array.isArray(item.permissions) ? (item.permissions as Permission[]) : [],
      walletId: readOptionalString(item.walletId) ?? null,
      status: item.status as ApiKey['status'],
      createdAt: str(item.createdAt),
      ...(typeof item.expiresAt === 'string' ? { expiresAt: item.expiresAt } : {}),
      ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
      ...(typeof item.lastUsedAt === 'string' ? { lastUsedAt: item.lastUsedAt } : {}),
    };
  },
};

export const auditCodec = {
  toItem(entry: AuditEntry): Item {
    const { organizationId: org, environment: env } = entry;
    const sort = `${entry.createdAt}#${entry.id}`;
    return {
      ...keys.auditEntry(org, env, entry.createdAt, entry.id),
      GSI1PK: keys.auditByAction(org, env, entry.action),
      GSI1SK: sort,
      GSI2PK: keys.auditByResource(org, env, entry.resourceId),
      GSI2SK: sort,
      GSI3PK: keys.auditByActor(org, env, entry.actorId),
      GSI3SK: sort,
      ...(entry.walletId ? { GSI4PK: keys.auditByWallet(org, env, entry.walletId), GSI4SK: sort } : {}),
      entityType: ENTITY.audit,
      ...entry,
    };
  },
  fromItem(item: Item): AuditEntry {
    const { PK: _pk, SK: _sk, GSI1PK: _a, GSI1SK: _b, GSI2PK: _c, GSI2SK: _d, GSI3PK: _e, GSI3SK: _f, GSI4PK: _g, GSI4SK: _h, entityType: _type, ...rest } = item;
    return rest as unknown as AuditEntry;
  },
};

export const OUTBOX_RETENTION_S = 7 * 24 * 3600;

export const outboxCodec = {
  toItem(event: OutboxEvent): Item {
    const ttl = Math.floor(new Date(event.createdAt).getTime() / 1000) + OUTBOX_RETENTION_S;
    return { ...keys.outboxEvent(event.id), entityType: ENTITY.outbox, ...event, [TTL_ATTRIBUTE]: ttl };
  },
  fromItem(item: Item): OutboxEvent {
    return {
      id: str(item.id),
      type: str(item.type),
      organizationId: str(item.organizationId),
      environment: item.environment as Environment,
      createdAt: str(item.createdAt),
      data: (item.data ?? {}) as Record<string, unknown>,
    };
  },
};
