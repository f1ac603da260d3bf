import { describe, expect, it } from 'vitest';
import type { User } from '../../shared/domain/users/types.js';
import { invitationHashOf } from '../../shared/domain/users/user-rules.js';
import { createUserStore } from '../../shared/persistence/user-store.js';
import { auditPartition } from '../fixtures/audit-reads.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { createApiKey, expectError, expectValidationError } from '../fixtures/organizations.js';

interface InvitedUser {
  id: string;
  email: string;
  role: string;
  status: string;
  inviteUrl: string;
  createdAt: string;
  invitationExpiresAt: string | null;
}

/** Users and invitations over HTTP (docs/api.md "Users and roles"). */
describe('users and invitations', () => {
  const { service, agents, org, other } = setupE2e({ organizations: { org: 'People Co', other: 'Other Co' } });

  const invite = async (body: Record<string, unknown>, key = org.key) => {
    const response = await service.call('POST', '/v1/users', { key, body });
    expect(response.status, response.text).toBe(201);
    return response.body as InvitedUser;
  };
  const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
  /** What sign-in does on acceptance (password and factor set): the user becomes ACTIVE. */
  const accept = async (id: string) => {
    const store = createUserStore(service.table);
    const user = (await store.getUser(id))!;
    const { invitationHash, invitationExpiresAt: _e, ...rest } = user;
    const active: User = { ...rest, status: 'ACTIVE', acceptedAt: new Date().toISOString() };
    await store.commit([{ type: 'updateUser', user: active, expect: 'INVITED', invitationHash: invitationHash! }]);
  };

  it('invites with a link shown once (only its hash stored), lists and gets without it', async () => {
    const invited = await invite({ email: 'Ada@People.test', role: 'approver' });
    expect(invited).toMatchObject({ email: 'ada@people.test', role: 'approver', status: 'INVITED' });
    expect(invited.id).toMatch(/^usr_/);
    expect(invited.inviteUrl).toBe(`${service.baseUrl}/dashboard/invitations/${tokenOf(invited.inviteUrl)}`);
    expect(Date.parse(invited.invitationExpiresAt!) - Date.parse(invited.createdAt)).toBe(72 * 3600 * 1000);

    const stored = await createUserStore(service.table).getUser(invited.id);
    expect(stored?.invitationHash).toBe(await invitationHashOf(tokenOf(invited.inviteUrl)));
    expect(JSON.stringify(stored)).not.toContain(tokenOf(invited.inviteUrl));

    const list = await service.call('GET', '/v1/users', { key: org.key });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((u: { id: string }) => u.id)).toContain(invited.id);
    expect(list.text).not.toContain('inviteUrl');
    const one = await service.call('GET', `/v1/users/${invited.id}`, { key: org.key });
    expect(one.body).toMatchObject({ id: invited.id, status: 'INVITED', acceptedAt: null });
    expect(one.text).not.toContain(tokenOf(invited.inviteUrl));

    const twice = await service.call('POST', '/v1/users', {
      key: org.key,
      body: { email: 'ADA@people.test', role: 'viewer' },
    });
    expectError(twice, 409, 'USER_EXISTS');
  });

  it('validates the body strictly', async () => {
    expectValidationError(
      await service.call('POST', '/v1/users', { key: org.key, body: { email: 'nope', role: 'viewer' } }),
      'email',
    );
    expectValidationError(
      await service.call('POST', '/v1/users', { key: org.key, body: { email: 'a@b.test', role: 'operator' } }),
      'role',
    );
    const extra = await service.call('POST', '/v1/users', {
      key: org.key,
      body: { email: 'a@b.test', role: 'viewer', x: 1 },
    });
    expect(extra.status).toBe(400);
    expectValidationError(
      await service.call('POST', '/v1/users', {
        key: org.key,
        body: { email: `${'a'.repeat(250)}@b.test`, role: 'viewer' },
      }),
      'email',
    );
  });

  it("answers 404 USER_NOT_FOUND for another organization's user on every route, 403 to an agent key", async () => {
    const invited = await invite({ email: 'hidden@people.test', role: 'viewer' });
    for (const [method, path, body] of [
      ['GET', `/v1/users/${invited.id}`, undefined],
      ['PATCH', `/v1/users/${invited.id}`, { role: 'admin' }],
      ['DELETE', `/v1/users/${invited.id}`, undefined],
      ['POST', `/v1/users/${invited.id}/invitation`, undefined],
    ] as const) {
      expectError(
        await service.call(method, path, { key: other.key, ...(body ? { body } : {}) }),
        404,
        'USER_NOT_FOUND',
      );
    }
    const theirs = await service.call('GET', '/v1/users', { key: other.key });
    expect(theirs.body.data.map((u: { id: string }) => u.id)).not.toContain(invited.id);

    const agent = await agents.createAgent(org, { name: 'People agent' });
    expectError(await service.call('GET', '/v1/users', { key: agent.apiKey }), 403, 'PERMISSION_DENIED');
    expectError(
      await service.call('POST', '/v1/users', { key: agent.apiKey, body: { email: 'x@people.test', role: 'viewer' } }),
      403,
      'PERMISSION_DENIED',
    );
    const reader = await createApiKey(service, org, { permissions: ['wallets:read'] });
    expectError(await service.call('GET', '/v1/users', { key: reader.key }), 403, 'PERMISSION_DENIED');
    expectError(await service.call('GET', '/v1/users', { key: service.adminKey }), 403, 'PERMISSION_DENIED');
  });

  it('grants only roles whose permissions the key holds (details.missing)', async () => {
    const limited = await createApiKey(service, org, {
      permissions: ['admin', 'wallets:read', 'payments:read', 'invoices:read'],
    });
    const refused = await service.call('POST', '/v1/users', {
      key: limited.key,
      body: { email: 'developer@people.test', role: 'developer' },
    });
    expect(expectError(refused, 403, 'PERMISSION_DENIED').details).toEqual({
      missing: ['wallets:write', 'invoices:write'],
      role: 'developer',
    });
    // A key holding admin decides approvals (derived): it may grant the approver role.
    await invite({ email: 'approver@people.test', role: 'approver' }, limited.key);
    const viewer = await invite({ email: 'viewer@people.test', role: 'viewer' }, limited.key);
    expectError(
      await service.call('PATCH', `/v1/users/${viewer.id}`, { key: limited.key, body: { role: 'owner' } }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('keeps the last active owner, changes roles and removes (the link dies, the email is free again)', async () => {
    const owner = await invite({ email: 'owner@people.test', role: 'owner' });
    await accept(owner.id);
    expectError(await service.call('DELETE', `/v1/users/${owner.id}`, { key: org.key }), 409, 'INVALID_STATE');
    expectError(
      await service.call('PATCH', `/v1/users/${owner.id}`, { key: org.key, body: { role: 'admin' } }),
      409,
      'INVALID_STATE',
    );
    const second = await invite({ email: 'second@people.test', role: 'owner' });
    // An invited owner does not count: the active one is still the last.
    expectError(await service.call('DELETE', `/v1/users/${owner.id}`, { key: org.key }), 409, 'INVALID_STATE');
    await accept(second.id);
    const demoted = await service.call('PATCH', `/v1/users/${owner.id}`, { key: org.key, body: { role: 'admin' } });
    expect(demoted.status, demoted.text).toBe(200);
    expect(demoted.body).toMatchObject({ role: 'admin', status: 'ACTIVE' });

    const pending = await invite({ email: 'pending@people.test', role: 'developer' });
    const removed = await service.call('DELETE', `/v1/users/${pending.id}`, { key: org.key });
    expect(removed.body).toMatchObject({ status: 'REMOVED' });
    expect(
      await createUserStore(service.table).getUserByInvitationHash(await invitationHashOf(tokenOf(pending.inviteUrl))),
    ).toBeUndefined();
    expectError(await service.call('GET', `/v1/users/${pending.id}`, { key: org.key }), 404, 'USER_NOT_FOUND');
    expectError(await service.call('DELETE', `/v1/users/${pending.id}`, { key: org.key }), 404, 'USER_NOT_FOUND');
    await invite({ email: 'pending@people.test', role: 'viewer' });

    await service.projected();
    const actions = (await auditPartition(service.table, org.organizationId)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['user.invite', 'user.role.change', 'user.remove']));
  });

  it('renews an invitation while INVITED: a new link, the old one dead; INVALID_STATE once accepted', async () => {
    const invited = await invite({ email: 'renew@people.test', role: 'viewer' });
    const renewed = await service.call('POST', `/v1/users/${invited.id}/invitation`, { key: org.key });
    expect(renewed.status, renewed.text).toBe(201);
    expect(renewed.body.inviteUrl).not.toBe(invited.inviteUrl);
    const store = createUserStore(service.table);
    expect(await store.getUserByInvitationHash(await invitationHashOf(tokenOf(invited.inviteUrl)))).toBeUndefined();
    expect(await store.getUserByInvitationHash(await invitationHashOf(tokenOf(renewed.body.inviteUrl)))).toMatchObject({
      id: invited.id,
    });
    await accept(invited.id);
    expectError(
      await service.call('POST', `/v1/users/${invited.id}/invitation`, { key: org.key }),
      409,
      'INVALID_STATE',
    );
  });

  it('the operator invites into an organization (ORGANIZATION_NOT_FOUND otherwise) and its own people', async () => {
    const first = await service.call('POST', `/v1/internal/organizations/${other.organizationId}/users`, {
      key: service.adminKey,
      body: { email: 'founder@other.test', role: 'owner' },
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ role: 'owner', status: 'INVITED' });
    const listed = await service.call('GET', '/v1/users', { key: other.key });
    expect(listed.body.data.map((u: { id: string }) => u.id)).toContain(first.body.id);
    expectError(
      await service.call('POST', '/v1/internal/organizations/org_nosuchorganization000000/users', {
        key: service.adminKey,
        body: { email: 'x@other.test', role: 'owner' },
      }),
      404,
      'ORGANIZATION_NOT_FOUND',
    );
    expectError(
      await service.call('POST', `/v1/internal/organizations/${other.organizationId}/users`, {
        key: other.key,
        body: { email: 'y@other.test', role: 'owner' },
      }),
      403,
      'PERMISSION_DENIED',
    );
    const person = await service.call('POST', '/v1/internal/users', {
      key: service.adminKey,
      body: { email: 'ops-person@allowance.test' },
    });
    expect(person.status, person.text).toBe(201);
    expect(person.body).toMatchObject({ role: 'operator', status: 'INVITED' });
  });
});
