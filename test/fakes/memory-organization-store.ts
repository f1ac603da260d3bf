import type { ActivationStore } from '../../shared/domain/activation/ports.js';
import type { AuditChange } from '../../shared/domain/audit/ports.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { ApiKeyChange } from '../../shared/domain/api-keys/changes.js';
import type { OrganizationChange, OrganizationStore } from '../../shared/domain/organizations/ports.js';
import type { Environment } from '../../shared/domain/tenancy.js';
import type { ApiKey, AuditEntry, Organization, OutboxEvent, Wallet } from '../../shared/domain/types.js';
import type { WalletChange } from '../../shared/domain/wallets/ports.js';

type Change = OrganizationChange | WalletChange | ApiKeyChange | AuditChange;

/**
 * An in-memory OrganizationStore and ActivationStore for unit tests of the services: the same
 * conditions as the DynamoDB writers (an environment is created once; `unless` refuses an update),
 * all-or-nothing commits, and every written record kept for assertions.
 */
export function createMemoryOrganizationStore() {
  const organizations = new Map<string, Organization>();
  const environments = new Map<string, { mainWalletId: string; walletCount: number }>();
  const wallets = new Map<string, Wallet>();
  const apiKeys = new Map<string, ApiKey>();
  const audit: AuditEntry[] = [];
  const events: OutboxEvent[] = [];
  const envKey = (organizationId: string, environment: Environment) => `${organizationId}#${environment}`;

  function check(change: Change): void {
    if (change.type === 'createEnvironment' && environments.has(envKey(change.organizationId, change.environment))) {
      throw new ApiError('INVALID_STATE', `The ${change.environment.toLowerCase()} environment already exists.`);
    }
    if (change.type === 'updateOrganization') {
      const current = organizations.get(change.organizationId);
      if (!current) throw new ApiError('ORGANIZATION_NOT_FOUND');
      const refused =
        change.unless?.field === 'productionActivatedAt'
          ? current.productionActivatedAt !== undefined
          : change.unless?.field === 'kybStatus' && current.kybStatus === change.unless.equals;
      if (refused)
        throw new ApiError('INVALID_STATE', 'The organization changed meanwhile (already activated or verified).');
    }
  }

  function apply(change: Change): void {
    switch (change.type) {
      case 'createOrganization':
        organizations.set(change.organization.id, change.organization);
        return;
      case 'updateOrganization':
        organizations.set(change.organizationId, { ...organizations.get(change.organizationId)!, ...change.set });
        return;
      case 'createEnvironment':
        environments.set(envKey(change.organizationId, change.environment), {
          mainWalletId: change.mainWalletId,
          walletCount: 1,
        });
        return;
      case 'createWallet':
        wallets.set(change.wallet.id, change.wallet);
        return;
      case 'createApiKey':
        apiKeys.set(change.apiKey.id, change.apiKey);
        return;
      case 'audit':
        audit.push(change.entry);
        return;
      case 'event':
        events.push(change.event);
        return;
      default:
        throw new Error(`the memory organization store does not write ${change.type}`);
    }
  }

  const store: OrganizationStore & ActivationStore = {
    getOrganization: async (organizationId) => organizations.get(organizationId),
    commit: async (changes) => {
      for (const change of changes) check(change);
      for (const change of changes) apply(change);
    },
  };
  return { store, organizations, environments, wallets, apiKeys, audit, events };
}
