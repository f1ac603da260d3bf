import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { Environment } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import type { WalletReader } from '../wallets/ports.js';
import type { Policy } from './policy-types.js';

/**
 * A new policy (written as version 1), or a change of one: written as `expectedVersion + 1` only if
 * the stored version is still `expectedVersion` (the version read; 0 for a policy written before
 * versioning), else CONCURRENT_UPDATE. So a concurrent change is never lost and a deleted policy
 * is never written back (decisions.md section 3).
 */
export type PolicyChange =
  /** `withNewWallet`: written in the transaction that creates its wallet (which starts at policyVersion 0, so no bump). */
  | { type: 'putPolicy'; policy: Policy; isNew: true; withNewWallet?: true }
  | { type: 'putPolicy'; policy: Policy; isNew: false; expectedVersion: number };

export interface PolicyStore extends WalletReader, ChangeCommitter<PolicyChange | AuditChange> {
  getPolicy(policyId: string): Promise<Policy | undefined>;
  /** ACTIVE policies of one wallet, or of the organization's environment, newest first. */
  listPolicies(
    organizationId: string,
    environment: Environment,
    walletId: string | undefined,
    page: PageRequest,
  ): Promise<Page<Policy>>;
}
