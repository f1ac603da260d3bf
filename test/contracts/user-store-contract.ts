import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { User } from '../../shared/domain/users/types.js';
import type { UserStore } from '../../shared/domain/users/user-store.js';
import { at, refusal } from './money-fixtures.js';

/** A store under the contract, and how the test seeds an organization (another area writes it). */
export interface UserStoreHarness {
  store: UserStore;
  addOrganization(organizationId: string): Promise<void>;
}

function userOf(organizationId: string | null, minutes: number, overrides: Partial<User> = {}): User {
  const id = newId('user');
  return {
    id,
    organizationId,
    email: `u${minutes}-${id.slice(-8).toLowerCase()}@example.com`,
    role: 'viewer',
    status: 'INVITED',
    createdAt: at(minutes),
    invitedBy: 'key_1',
    invitationHash: `hash-${id}`,
    invitationExpiresAt: at(minutes + 72 * 60),
    ...overrides,
  };
}

const activated = (user: User, minutes: number): User => {
  const { invitationHash: _h, invitationExpiresAt: _e, ...rest } = user;
  return { ...rest, status: 'ACTIVE', acceptedAt: at(minutes) };
};

export function describeUserStoreContract(name: string, makeStore: () => Promise<UserStoreHarness>) {
  describe(`UserStore contract: ${name}`, () => {
    it('holds an email once per organization; another organization (or the operator) may hold it', async () => {
      const { store } = await makeStore();
      const org = newId('organization');
      const user = userOf(org, 1);
      await store.commit([{ type: 'putUser', user }]);
      expect(await store.getUser(user.id)).toEqual(user);

      const twin = userOf(org, 2, { email: user.email });
      await expect(store.commit([{ type: 'putUser', user: twin }])).rejects.toMatchObject(refusal('USER_EXISTS'));
      expect(await store.getUser(twin.id)).toBeUndefined();
      await store.commit([{ type: 'putUser', user: userOf(newId('organization'), 2, { email: user.email }) }]);
      await store.commit([{ type: 'putUser', user: userOf(null, 2, { email: user.email }) }]);
    });

    it('lists an organization INVITED and ACTIVE users oldest first, never a REMOVED one or another organization', async () => {
      const { store } = await makeStore();
      const org = newId('organization');
      const [a, b, c] = [userOf(org, 3), userOf(org, 1), userOf(org, 2)];
      for (const user of [a, b, c, userOf(newId('organization'), 0)]) await store.commit([{ type: 'putUser', user }]);
      expect((await store.listUsers(org)).map((u) => u.id)).toEqual([b.id, c.id, a.id]);

      const removed: User = { ...c, status: 'REMOVED', removedAt: at(9) };
      await store.commit([{ type: 'updateUser', user: removed, expect: 'INVITED' }]);
      expect((await store.listUsers(org)).map((u) => u.id)).toEqual([b.id, a.id]);
      expect(await store.getUser(c.id)).toMatchObject({ status: 'REMOVED' });
      // The email's slot is free again: the person can be invited anew.
      await store.commit([{ type: 'putUser', user: userOf(org, 10, { email: c.email }) }]);
    });

    it('finds an INVITED user by the hash of its current invitation only', async () => {
      const { store } = await makeStore();
      const user = userOf(newId('organization'), 1);
      await store.commit([{ type: 'putUser', user }]);
      expect(await store.getUserByInvitationHash(user.invitationHash!)).toEqual(user);

      const renewed: User = { ...user, invitationHash: `renewed-${user.id}` };
      await store.commit([
        { type: 'updateUser', user: renewed, expect: 'INVITED', invitationHash: user.invitationHash! },
      ]);
      expect(await store.getUserByInvitationHash(user.invitationHash!)).toBeUndefined();
      expect(await store.getUserByInvitationHash(renewed.invitationHash!)).toEqual(renewed);

      // The old invitation can not be accepted any more (single use, one wins).
      await expect(
        store.commit([
          { type: 'updateUser', user: activated(user, 5), expect: 'INVITED', invitationHash: user.invitationHash! },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      await store.commit([
        { type: 'updateUser', user: activated(renewed, 5), expect: 'INVITED', invitationHash: renewed.invitationHash! },
      ]);
      expect(await store.getUserByInvitationHash(renewed.invitationHash!)).toBeUndefined();
      expect(await store.getUser(user.id)).toMatchObject({ status: 'ACTIVE' });
    });

    it('updates only over the stored status; an unknown user is USER_NOT_FOUND', async () => {
      const { store } = await makeStore();
      const user = userOf(newId('organization'), 1);
      await store.commit([{ type: 'putUser', user }]);
      await expect(
        store.commit([{ type: 'updateUser', user: { ...user, role: 'admin' }, expect: 'ACTIVE' }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      expect(await store.getUser(user.id)).toEqual(user);
      await expect(
        store.commit([{ type: 'updateUser', user: userOf(null, 1), expect: 'INVITED' }]),
      ).rejects.toMatchObject(refusal('USER_NOT_FOUND'));
    });

    it('finds ACTIVE users by email across organizations', async () => {
      const { store } = await makeStore();
      const email = `same-${newId('user').slice(-8).toLowerCase()}@example.com`;
      const one = userOf(newId('organization'), 1, { email });
      const two = userOf(newId('organization'), 2, { email });
      const invited = userOf(newId('organization'), 3, { email });
      for (const user of [one, two, invited]) await store.commit([{ type: 'putUser', user }]);
      expect(await store.findActiveUsersByEmail(email)).toEqual([]);
      for (const user of [one, two])
        await store.commit([
          { type: 'updateUser', user: activated(user, 4), expect: 'INVITED', invitationHash: user.invitationHash! },
        ]);
      expect((await store.findActiveUsersByEmail(email)).map((u) => u.id).sort()).toEqual([one.id, two.id].sort());
    });

    it('writes over the roster version read: a change decided over a stale roster is CONCURRENT_UPDATE', async () => {
      const { store } = await makeStore();
      const org = newId('organization');
      expect(await store.rosterVersion(org)).toBe(0);
      const first = userOf(org, 1);
      await store.commit([
        { type: 'putUser', user: first },
        { type: 'lockRoster', organizationId: org, version: 0 },
      ]);
      expect(await store.rosterVersion(org)).toBe(1);
      const stale = userOf(org, 2);
      await expect(
        store.commit([
          { type: 'putUser', user: stale },
          { type: 'lockRoster', organizationId: org, version: 0 },
        ]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect(await store.getUser(stale.id)).toBeUndefined();
      expect(await store.rosterVersion(null)).toBeGreaterThanOrEqual(0);
    });

    it('knows which organizations exist', async () => {
      const { store, addOrganization } = await makeStore();
      const org = newId('organization');
      expect(await store.organizationExists(org)).toBe(false);
      await addOrganization(org);
      expect(await store.organizationExists(org)).toBe(true);
    });
  });
}
