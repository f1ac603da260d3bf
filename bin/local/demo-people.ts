import { AUDIT } from '../../shared/domain/audit/actions.js';
import { OPERATOR_PERMISSION, type RequestContext } from '../../shared/domain/tenancy.js';
import { emailOf } from '../../shared/domain/users/user-rules.js';
import { createUserReader } from '../../shared/persistence/user-store.js';
import type { Container } from '../../shared/runtime/container.js';

export const DEMO_OWNER_EMAIL = 'owner@demo.allowance.test';
export const DEMO_OPERATOR_EMAIL = 'operator@allowance.test';

const BOOTSTRAP: RequestContext = {
  principal: {
    kind: 'OPERATOR',
    keyId: 'local-bootstrap',
    organizationId: null,
    environment: null,
    permissions: [OPERATOR_PERMISSION],
    walletId: null,
  },
  actor: { actorType: 'SYSTEM', actorId: 'local-bootstrap', ipAddress: '127.0.0.1' },
  requestId: 'bootstrap',
};

/**
 * A person of the demo (the organization's owner, or the operator's person): a fresh invitation URL
 * while they have not accepted (the previous link stops working), null once they have (they sign in).
 */
async function invitationFor(
  app: Container,
  organizationId: string | null,
  email: string,
  invite: () => Promise<{ inviteUrl: string }>,
): Promise<string | null> {
  const existing = (await createUserReader(app.core.table).listUsers(organizationId)).find(
    (user) => user.email === emailOf(email),
  );
  if (existing?.status === 'ACTIVE') return null;
  if (existing) return (await app.services.users.reinvite(BOOTSTRAP, AUDIT.user.invite, existing.id)).inviteUrl;
  return (await invite()).inviteUrl;
}

export interface DemoPeople {
  /** The demo owner's invitation URL; null once accepted. */
  ownerInviteUrl: string | null;
  /** The operator person's invitation URL; null once accepted. */
  operatorInviteUrl: string | null;
}

/** The demo organization's owner and the operator's person, each invited (again) until they accept. */
export async function ensureDemoPeople(app: Container, organizationId: string): Promise<DemoPeople> {
  const users = app.services.users;
  return {
    ownerInviteUrl: await invitationFor(app, organizationId, DEMO_OWNER_EMAIL, () =>
      users.inviteToOrganization(BOOTSTRAP, AUDIT.user.invite, organizationId, {
        email: DEMO_OWNER_EMAIL,
        role: 'owner',
      }),
    ),
    operatorInviteUrl: await invitationFor(app, null, DEMO_OPERATOR_EMAIL, () =>
      users.inviteOperator(BOOTSTRAP, AUDIT.user.invite, { email: DEMO_OPERATOR_EMAIL }),
    ),
  };
}
