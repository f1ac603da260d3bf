import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import type { Principal, RequestContext } from '../../shared/domain/tenancy.js';
import { ORGANIZATION_PERMISSIONS } from '../../shared/domain/tenancy.js';
import { ROLE_PERMISSIONS } from '../../shared/domain/users/roles.js';
import type { User, UserRole } from '../../shared/domain/users/types.js';
import { invitationHashOf } from '../../shared/domain/users/user-rules.js';
import { createUserService } from '../../shared/domain/users/user-service.js';
import { memoryUserStore } from '../fakes/memory-user-store.js';

const ORG = 'org_users1';
const clock = fixedClock(new Date('2026-11-27T10:00:00.000Z'));

function world() {
  const memory = memoryUserStore(new Set([ORG]));
  const revoked: string[] = [];
  const service = createUserService({
    store: memory.store,
    clock,
    ids: newId,
    publicUrl: (path) => `http://localhost:3000${path}`,
    sessions: { revokeAllSessions: async (userId) => void revoked.push(userId) },
  });
  return { ...memory, service, revoked };
}

const keyContext = (permissions: Principal['permissions'] = [...ORGANIZATION_PERMISSIONS, 'approvals:decide']) =>
  ({
    principal: {
      kind: 'ORGANIZATION',
      keyId: 'key_1',
      organizationId: ORG,
      environment: 'SANDBOX',
      permissions,
      walletId: null,
    },
    actor: { actorType: 'API_KEY', actorId: 'key_1', ipAddress: '203.0.113.9' },
    requestId: 'req_1',
    userAgent: 'test-agent/1',
  }) satisfies RequestContext;

const userContext = (user: User): RequestContext => ({
  principal: {
    kind: 'ORGANIZATION',
    keyId: user.id,
    organizationId: ORG,
    environment: 'SANDBOX',
    permissions: [...ROLE_PERMISSIONS[user.role]],
    walletId: null,
  },
  actor: { actorType: 'USER', actorId: user.id, ipAddress: '203.0.113.9' },
  requestId: 'req_2',
});

/** A user invited by the organization key and made ACTIVE (as sign-in does on acceptance). */
async function activeUser(
  w: ReturnType<typeof world>,
  role: UserRole,
  email = `${role}-${newId('user').slice(-6)}@x.test`,
) {
  const { user } = await w.service.invite(keyContext(), AUDIT.user.invite, { email, role });
  const { invitationHash, invitationExpiresAt: _e, ...rest } = user;
  const active: User = { ...rest, status: 'ACTIVE', acceptedAt: clock.now().toISOString() };
  await w.store.commit([{ type: 'updateUser', user: active, expect: 'INVITED', invitationHash: invitationHash! }]);
  return active;
}

describe('users service', () => {
  it('invites with a single-use link whose token only the URL carries, audited with the user agent', async () => {
    const w = world();
    const { user, inviteUrl } = await w.service.invite(keyContext(), AUDIT.user.invite, {
      email: ' Ada@Example.COM ',
      role: 'approver',
    });
    expect(user).toMatchObject({ email: 'ada@example.com', role: 'approver', status: 'INVITED', organizationId: ORG });
    expect(user.invitationExpiresAt).toBe('2026-11-30T10:00:00.000Z');
    const token = inviteUrl.split('/').pop()!;
    expect(inviteUrl).toBe(`http://localhost:3000/dashboard/invitations/${token}`);
    expect(user.invitationHash).toBe(await invitationHashOf(token));
    expect(JSON.stringify(w.audit)).not.toContain(token);
    expect(w.audit.at(-1)).toMatchObject({
      action: 'user.invite',
      resourceId: user.id,
      ipAddress: '203.0.113.9',
      metadata: { userAgent: 'test-agent/1', role: 'approver' },
    });
    await expect(
      w.service.invite(keyContext(), AUDIT.user.invite, { email: 'ADA@example.com', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'USER_EXISTS' });
  });

  it('grants only roles whose permissions the caller holds (details.missing)', async () => {
    const w = world();
    const limited = keyContext(['admin', 'wallets:read', 'payments:read', 'invoices:read']);
    await expect(
      w.service.invite(limited, AUDIT.user.invite, { email: 'b@x.test', role: 'approver' }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED', details: { missing: ['approvals:decide'] } });
    await w.service.invite(limited, AUDIT.user.invite, { email: 'c@x.test', role: 'viewer' });
  });

  it('only an owner (or a key) invites, promotes, demotes or removes an owner', async () => {
    const w = world();
    const owner = await activeUser(w, 'owner');
    const admin = await activeUser(w, 'admin');
    await expect(
      w.service.invite(userContext(admin), AUDIT.user.invite, { email: 'o2@x.test', role: 'owner' }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(
      w.service.changeRole(userContext(admin), AUDIT.user.changeRole, owner.id, 'viewer'),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(w.service.remove(userContext(admin), AUDIT.user.remove, owner.id)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const second = await w.service.invite(userContext(owner), AUDIT.user.invite, { email: 'o3@x.test', role: 'owner' });
    expect(second.user.invitedBy).toBe(owner.id);
    expect(w.audit.at(-1)).toMatchObject({ actorType: 'USER', actorId: owner.id });
  });

  it('keeps the last ACTIVE owner (409 INVALID_STATE), also when two owners are demoted at once', async () => {
    const w = world();
    const owner = await activeUser(w, 'owner');
    await expect(w.service.remove(keyContext(), AUDIT.user.remove, owner.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { reason: 'last_owner' },
    });
    await expect(w.service.changeRole(keyContext(), AUDIT.user.changeRole, owner.id, 'admin')).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    const other = await activeUser(w, 'owner');
    // The other owner's demotion lands between this one's read and its commit: read again, refused.
    w.beforeNextCommit(async () => {
      await w.service.changeRole(keyContext(), AUDIT.user.changeRole, other.id, 'admin');
    });
    await expect(w.service.changeRole(keyContext(), AUDIT.user.changeRole, owner.id, 'admin')).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    expect((await w.store.getUser(owner.id))?.role).toBe('owner');
    expect((await w.store.getUser(other.id))?.role).toBe('admin');
  });

  it('changing a role or removing ends the user sessions; a removed user answers USER_NOT_FOUND', async () => {
    const w = world();
    await activeUser(w, 'owner');
    const viewer = await activeUser(w, 'viewer');
    expect(await w.service.changeRole(keyContext(), AUDIT.user.changeRole, viewer.id, 'approver')).toMatchObject({
      role: 'approver',
    });
    expect(w.revoked).toEqual([viewer.id]);
    await w.service.remove(keyContext(), AUDIT.user.remove, viewer.id);
    expect(w.revoked).toEqual([viewer.id, viewer.id]);
    await expect(w.service.get(keyContext(), viewer.id)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    await expect(w.service.remove(keyContext(), AUDIT.user.remove, viewer.id)).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    expect(w.audit.map((entry) => entry.action).slice(-2)).toEqual(['user.role.change', 'user.remove']);
  });

  it('renews an invitation (the old link dies) only while INVITED', async () => {
    const w = world();
    const { user } = await w.service.invite(keyContext(), AUDIT.user.invite, { email: 'r@x.test', role: 'viewer' });
    const renewed = await w.service.reinvite(keyContext(), AUDIT.user.invite, user.id);
    expect(await w.store.getUserByInvitationHash(user.invitationHash!)).toBeUndefined();
    expect(await w.store.getUserByInvitationHash(renewed.user.invitationHash!)).toMatchObject({ id: user.id });
    const active = await activeUser(w, 'viewer');
    await expect(w.service.reinvite(keyContext(), AUDIT.user.invite, active.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
  });

  it("hides another organization's users and refuses agent keys", async () => {
    const w = world();
    const { user } = await w.service.invite(keyContext(), AUDIT.user.invite, { email: 't@x.test', role: 'viewer' });
    const outsider = keyContext();
    const elsewhere = { ...outsider, principal: { ...outsider.principal, organizationId: 'org_other' } };
    await expect(w.service.get(elsewhere, user.id)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    await expect(w.service.remove(elsewhere, AUDIT.user.remove, user.id)).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    expect(await w.service.list(elsewhere)).toEqual([]);
    const agent = { ...outsider, principal: { ...outsider.principal, kind: 'AGENT' as const, walletId: 'wal_1' } };
    await expect(w.service.list(agent)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it("the operator invites into an existing organization and its own people (audited in the operator's partition)", async () => {
    const w = world();
    const operator: RequestContext = {
      principal: {
        kind: 'OPERATOR',
        keyId: 'key_op',
        organizationId: null,
        environment: null,
        permissions: ['service:admin'],
        walletId: null,
      },
      actor: { actorType: 'API_KEY', actorId: 'key_op', ipAddress: '127.0.0.1' },
      requestId: 'req_3',
    };
    await expect(
      w.service.inviteToOrganization(operator, AUDIT.user.invite, 'org_missing', { email: 'a@x.test', role: 'owner' }),
    ).rejects.toMatchObject({ code: 'ORGANIZATION_NOT_FOUND' });
    const first = await w.service.inviteToOrganization(operator, AUDIT.user.invite, ORG, {
      email: 'a@x.test',
      role: 'owner',
    });
    expect(first.user).toMatchObject({ organizationId: ORG, role: 'owner', invitedBy: 'operator' });
    const person = await w.service.inviteOperator(operator, AUDIT.user.invite, { email: 'ops@x.test' });
    expect(person.user).toMatchObject({ organizationId: null, role: 'operator' });
    expect(w.audit.at(-1)).toMatchObject({ organizationId: 'operator', environment: 'SANDBOX' });
  });
});

describe('users service: reach', () => {
  it('changes or removes only users whose role the caller could grant (a developer can not remove an admin)', async () => {
    const w = world();
    const developer = await activeUser(w, 'developer');
    const admin = await activeUser(w, 'admin');
    const viewer = await activeUser(w, 'viewer');
    await expect(w.service.remove(userContext(developer), AUDIT.user.remove, admin.id)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { role: 'admin' },
    });
    await expect(
      w.service.changeRole(userContext(developer), AUDIT.user.changeRole, admin.id, 'viewer'),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await w.service.remove(userContext(developer), AUDIT.user.remove, viewer.id);
  });
});
