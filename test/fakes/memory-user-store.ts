import type { AuditChange } from '../../shared/domain/audit/ports.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { UserChange } from '../../shared/domain/users/changes.js';
import { MAX_USERS_PER_ORGANIZATION } from '../../shared/domain/users/ports.js';
import type { User } from '../../shared/domain/users/types.js';
import type { UserStore } from '../../shared/domain/users/user-store.js';
import type { AuditEntry } from '../../shared/domain/types.js';

/**
 * An in-memory UserStore with the writers' conditions (the email's slot per organization, the
 * stored status and invitation, the roster version), all changes of a commit applied or none.
 * Keeps the audit entries written. Sign-in's tests use it as its UserReader.
 */
export function memoryUserStore(organizations: Set<string> = new Set()) {
  let users = new Map<string, User>();
  let slots = new Map<string, string>();
  let rosters = new Map<string, number>();
  const audit: AuditEntry[] = [];
  let beforeCommit: (() => void | Promise<void>) | undefined;

  const scope = (organizationId: string | null) => organizationId ?? 'OPERATOR';
  const slotOf = (user: Pick<User, 'organizationId' | 'email'>) => `${scope(user.organizationId)}#${user.email}`;
  const oldestFirst = (a: User, b: User) => {
    const [x, y] = [`${a.createdAt}#${a.id}`, `${b.createdAt}#${b.id}`];
    return x === y ? 0 : x < y ? -1 : 1;
  };

  function apply(change: UserChange) {
    switch (change.type) {
      case 'putUser': {
        if (users.has(change.user.id)) throw new Error(`USER#${change.user.id} already exists (id collision)`);
        const slot = slotOf(change.user);
        if (slots.has(slot)) throw new ApiError('USER_EXISTS', undefined, { field: 'email' });
        slots.set(slot, change.user.id);
        users.set(change.user.id, structuredClone(change.user));
        return;
      }
      case 'updateUser': {
        const stored = users.get(change.user.id);
        if (!stored) throw new ApiError('USER_NOT_FOUND');
        if (
          stored.status !== change.expect ||
          (change.invitationHash !== undefined && stored.invitationHash !== change.invitationHash)
        )
          throw new ApiError('INVALID_STATE', undefined, { status: stored.status });
        if (change.user.status === 'REMOVED' && change.expect !== 'REMOVED') {
          const slot = slotOf(change.user);
          if (slots.get(slot) !== change.user.id) throw new ApiError('INVALID_STATE');
          slots.delete(slot);
        }
        users.set(change.user.id, structuredClone(change.user));
        return;
      }
      case 'lockRoster': {
        const key = scope(change.organizationId);
        if ((rosters.get(key) ?? 0) !== change.version) throw new ApiError('CONCURRENT_UPDATE');
        rosters.set(key, change.version + 1);
        return;
      }
    }
  }

  const store: UserStore = {
    async getUser(id) {
      const user = users.get(id);
      return user ? structuredClone(user) : undefined;
    },
    async getUserByInvitationHash(hash) {
      const user = [...users.values()].find((u) => u.status === 'INVITED' && u.invitationHash === hash);
      return user ? structuredClone(user) : undefined;
    },
    async listUsers(organizationId) {
      return [...users.values()]
        .filter((u) => u.organizationId === organizationId && u.status !== 'REMOVED')
        .sort(oldestFirst)
        .slice(0, MAX_USERS_PER_ORGANIZATION)
        .map((u) => structuredClone(u));
    },
    async findActiveUsersByEmail(email) {
      return [...users.values()]
        .filter((u) => u.status === 'ACTIVE' && u.email === email)
        .sort(oldestFirst)
        .slice(0, 10)
        .map((u) => structuredClone(u));
    },
    async rosterVersion(organizationId) {
      return rosters.get(scope(organizationId)) ?? 0;
    },
    async organizationExists(organizationId) {
      return organizations.has(organizationId);
    },
    commit: async (changes: (UserChange | AuditChange)[]) => {
      const hook = beforeCommit;
      beforeCommit = undefined;
      await hook?.();
      const saved = [new Map(users), new Map(slots), new Map(rosters)] as const;
      const entries: AuditEntry[] = [];
      try {
        for (const change of changes) {
          if (change.type === 'audit') entries.push(change.entry);
          else if (change.type !== 'event') apply(change);
        }
      } catch (error) {
        [users, slots, rosters] = saved;
        throw error;
      }
      audit.push(...entries);
    },
  };

  return {
    store,
    audit,
    organizations,
    /** Runs once, just before the next commit applies (a concurrent change lands in between). */
    beforeNextCommit(hook: () => void | Promise<void>) {
      beforeCommit = hook;
    },
  };
}
