import type { AuditChange } from '../audit/ports.js';
import type { ChangeCommitter } from '../change-committer.js';
import type { UserChange } from './changes.js';
import type { UserReader } from './ports.js';

/** What the users service reads and writes (DynamoDB: shared/persistence/user-store.ts; memory: test/fakes). */
export interface UserStore extends UserReader, ChangeCommitter<UserChange | AuditChange> {
  /** The version of the organization's roster (0 before any change): `lockRoster` writes over it. */
  rosterVersion(organizationId: string | null): Promise<number>;
  /** Whether the organization exists (the operator's invitation answers ORGANIZATION_NOT_FOUND). */
  organizationExists(organizationId: string): Promise<boolean>;
}
