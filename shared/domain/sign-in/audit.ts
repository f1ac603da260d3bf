import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import type { IdGenerator } from '../ids.js';
import type { Environment } from '../tenancy.js';
import { OPERATOR_AUDIT_ORGANIZATION } from '../users/user-rules.js';

/** Where and from what a sign-in event came (every user.* entry carries both: decisions.md section 12). */
export interface ClientMeta {
  ipAddress: string;
  userAgent: string;
}

/** A user agent is the client's text: kept to this length in audit entries and sessions. */
export const MAX_USER_AGENT_LENGTH = 256;
export const boundedUserAgent = (value: string | undefined): string =>
  (value ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, MAX_USER_AGENT_LENGTH);

/** Whose event: the user and the organization and environment their entry goes to. */
export interface AuditSubject {
  userId: string;
  organizationId: string | null;
  environment: Environment;
}

/**
 * The audit entry of a sign-in event: actor USER (the user themself), resource `user`, the IP and
 * `metadata.userAgent`, in the organization's log of the session's environment. The operator's
 * people belong to no organization: their entries go to the audit partition of organization id
 * `operator` (SANDBOX), as the users area writes theirs (docs/api.md "Users and roles").
 */
export function userAudit(
  subject: AuditSubject,
  action: AuditAction,
  meta: ClientMeta,
  at: Date,
  ids: IdGenerator,
  details: Record<string, unknown> = {},
): AuditChange[] {
  const metadata = { ...details, userAgent: boundedUserAgent(meta.userAgent) };
  const operator = subject.organizationId === null;
  return [
    auditChange(
      {
        organizationId: subject.organizationId ?? OPERATOR_AUDIT_ORGANIZATION,
        environment: operator ? 'SANDBOX' : subject.environment,
        actor: { actorType: 'USER', actorId: subject.userId, ipAddress: meta.ipAddress },
        action,
        resource: 'user',
        resourceId: subject.userId,
        metadata,
        createdAt: at.toISOString(),
      },
      ids,
    ),
  ];
}
