import type { ApiKeyChange } from '../api-keys/changes.js';
import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { WalletChange } from '../wallets/ports.js';
import type { Environment } from '../tenancy.js';
import type { Organization } from '../types.js';

export type OrganizationUpdate = Partial<
  Pick<Organization, 'kybStatus' | 'kyb' | 'tosAcceptance' | 'billingMethod' | 'productionActivatedAt'>
>;

export type OrganizationChange =
  | { type: 'createOrganization'; organization: Organization }
  /**
   * Sets only the named fields, so concurrent activation steps and the operator's KYB decision
   * never overwrite each other; `unless` names a field whose presence (or value) refuses the write.
   */
  | {
      type: 'updateOrganization';
      organizationId: string;
      set: OrganizationUpdate;
      unless?: { field: 'productionActivatedAt' } | { field: 'kybStatus'; equals: Organization['kybStatus'] };
    }
  /** An environment of an organization: its main wallet and the wallet counter. */
  | { type: 'createEnvironment'; organizationId: string; environment: Environment; mainWalletId: string };

export interface OrganizationReader {
  getOrganization(organizationId: string): Promise<Organization | undefined>;
}

export interface MainWalletReader {
  getMainWalletId(organizationId: string, environment: Environment): Promise<string | undefined>;
}

export interface OrganizationStore
  extends OrganizationReader, ChangeCommitter<OrganizationChange | WalletChange | ApiKeyChange | AuditChange> {}
