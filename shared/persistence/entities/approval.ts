import type { Environment } from '../../domain/tenancy.js';
import type { Approval } from '../../domain/types.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import { GSI, type IndexUsage } from '../table-schema.js';

export const APPROVAL_ENTITY = 'APPROVAL';

/** GSI2 holds only PENDING approvals, by expiry: a decision removes these attributes. */
export const PENDING_APPROVALS_INDEX = GSI.GSI2;

export const approvalKeys = {
  primary: (approvalId: string): ItemKey => ({ PK: `APPROVAL#${approvalId}`, SK: 'APPROVAL' }),
  /** GSI1: the approvals of an organization's environment, newest first. */
  ofOrganization: (organizationId: string, environment: Environment) => ({
    GSI1PK: `ORG#${organizationId}#${environment}#APPROVALS`,
  }),
  listSort: (createdAt: string, approvalId: string) => ({ GSI1SK: `${createdAt}#${approvalId}` }),
  /** GSI2 (sparse): every pending approval, sorted by expiry. */
  pending: () => ({ GSI2PK: 'APPROVALS#PENDING' }),
  pendingSort: (expiresAt: string, approvalId: string) => ({ GSI2SK: `${expiresAt}#${approvalId}` }),
  /** Pending sort keys below this bound expired before `now`. */
  expiredBefore: (now: Date) => now.toISOString(),
};

export const approvalCodec = {
  toItem(approval: Approval): Item {
    return {
      ...approvalKeys.primary(approval.id),
      ...approvalKeys.ofOrganization(approval.organizationId, approval.environment),
      ...approvalKeys.listSort(approval.createdAt, approval.id),
      ...(approval.status === 'PENDING'
        ? { ...approvalKeys.pending(), ...approvalKeys.pendingSort(approval.expiresAt, approval.id) }
        : {}),
      entityType: APPROVAL_ENTITY,
      ...approval,
    };
  },
  fromItem(item: Item): Approval {
    return recordOf(item) as unknown as Approval;
  },
};

/** What each index of APPROVAL items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const APPROVAL_INDEXES = {
  APPROVAL: {
    GSI1: 'approvals of an organization environment',
    GSI2: 'pending approvals by expiry (sparse: a decision removes the attributes)',
  },
} as const satisfies IndexUsage;
