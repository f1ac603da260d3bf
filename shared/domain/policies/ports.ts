import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../changes.js';
import type { Environment } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { WalletReader } from '../wallets/ports.js';
import type { Policy } from './policy-types.js';

export type PolicyChange = { type: 'putPolicy'; policy: Policy; isNew: boolean };

export interface PolicyStore extends WalletReader, ChangeCommitter<PolicyChange | AuditChange> {
  getPolicy(policyId: string): Promise<Policy | undefined>;
  /** ACTIVE policies of one wallet, or of the organization's environment, newest first. */
  listPolicies(organizationId: string, environment: Environment, walletId: string | undefined, page: PageRequest): Promise<Page<Policy>>;
}
