import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { OrganizationChange } from '../organizations/ports.js';
import type { WalletChange } from '../wallets/ports.js';
import type { OrganizationReader } from '../organizations/ports.js';

/** Activation reads the organization and writes its steps (organization updates, the production environment). */
export interface ActivationStore
  extends OrganizationReader, ChangeCommitter<OrganizationChange | WalletChange | AuditChange> {}
