import type { AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import type { Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import { DASHBOARD_ENTRY_PATHS, type HostedUrl } from '../hosted-urls.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import type { RequestContext } from '../tenancy.js';
import type { UserChange } from './changes.js';
import { MAX_USERS_PER_ORGANIZATION, type SessionRevoker } from './ports.js';
import type { UserStore } from './user-store.js';
import {
  emailOf,
  INVITATION_TOKEN_LENGTH,
  invitationExpiry,
  invitationHashOf,
  OPERATOR_AUDIT_ORGANIZATION,
  requireAnotherOwner,
  requireGrantable,
  requireOwnerAuthority,
} from './user-rules.js';
import { OPERATOR_ROLE, type AnyUserRole, type User, type UserRole } from './types.js';

export interface UserServiceDeps {
  store: UserStore;
  clock: Clock;
  ids: IdGenerator;
  /** A dashboard path -> the absolute URL (PUBLIC_BASE_URL). */
  publicUrl: HostedUrl;
  /** Absent until sign-in provides it (then removing a user or changing a role signs them out everywhere). */
  sessions?: SessionRevoker | undefined;
}

/** A new or renewed invitation: the user and the URL carrying the raw token (answered once, never stored). */
export interface Invitation {
  user: User;
  inviteUrl: string;
}

/** Rounds of a change lost to a concurrent one on the same roster (each reads again). */
const MAX_ROUNDS = 3;
const RESOURCE = 'user';

/**
 * The people of an organization and the operator's own (decisions.md section 12; docs/api.md
 * "Users and roles"): invite, list, get, change a role, remove, renew an invitation. Every change
 * is decided over the roster as read and commits with `lockRoster` (so "the last owner" holds under
 * concurrent changes). Another organization's user answers USER_NOT_FOUND, as a removed one does.
 */
export function createUserService(deps: UserServiceDeps) {
  const { store, clock, ids } = deps;

  const audit = (ctx: RequestContext, action: AuditAction, user: User, at: string, metadata = {}): AuditChange =>
    auditChange(
      {
        organizationId: user.organizationId ?? OPERATOR_AUDIT_ORGANIZATION,
        environment: ctx.principal.environment ?? 'SANDBOX',
        actor: ctx.actor,
        action,
        resource: RESOURCE,
        resourceId: user.id,
        metadata: { ...metadata, ...(ctx.userAgent ? { userAgent: ctx.userAgent } : {}) },
        createdAt: at,
      },
      ids,
    );

  /** The calling organization (kind ORGANIZATION; the catalog refuses agent keys first). */
  function organizationOf(ctx: RequestContext): string {
    const { principal } = ctx;
    if (principal.kind !== 'ORGANIZATION' || principal.walletId !== null || principal.organizationId === null)
      throw new ApiError('PERMISSION_DENIED', 'People are managed with an organization-level key or in the dashboard.');
    return principal.organizationId;
  }

  /** The calling person's role (a dashboard user), undefined for keys and the operator. */
  async function callerRole(ctx: RequestContext): Promise<AnyUserRole | undefined> {
    if (ctx.actor.actorType !== 'USER') return undefined;
    const caller = await store.getUser(ctx.actor.actorId);
    if (!caller || caller.status !== 'ACTIVE') throw new ApiError('PERMISSION_DENIED', 'Your access was removed.');
    return caller.role;
  }

  /** Decides over the roster as read and commits with its lock; a concurrent change: read and decide again. */
  async function onRoster<T>(
    organizationId: string | null,
    decide: (users: User[]) => Promise<{ changes: (UserChange | AuditChange)[]; result: T }>,
  ): Promise<T> {
    for (let round = 1; ; round += 1) {
      const version = await store.rosterVersion(organizationId);
      const users = await store.listUsers(organizationId);
      const { changes, result } = await decide(users);
      try {
        await store.commit([...changes, { type: 'lockRoster', organizationId, version }]);
        return result;
      } catch (error) {
        if (round < MAX_ROUNDS && error instanceof ApiError && error.code === 'CONCURRENT_UPDATE') continue;
        throw error;
      }
    }
  }

  /** The user as stored (a consistent read; the roster list comes from an index), if a member. */
  async function memberOf(organizationId: string | null, id: string): Promise<User> {
    const user = await store.getUser(id);
    if (!user || user.organizationId !== organizationId || user.status === 'REMOVED')
      throw notFound('USER_NOT_FOUND', id);
    return user;
  }

  async function newInvitation(): Promise<{ token: string; hash: string }> {
    const token = randomBase62(INVITATION_TOKEN_LENGTH);
    return { token, hash: await invitationHashOf(token) };
  }

  const inviteUrlOf = (token: string) => deps.publicUrl(DASHBOARD_ENTRY_PATHS.invitation(token));

  async function invite(
    ctx: RequestContext,
    action: AuditAction,
    organizationId: string | null,
    input: { email: string; role: AnyUserRole },
  ): Promise<Invitation> {
    requireGrantable(ctx.principal, input.role);
    requireOwnerAuthority(await callerRole(ctx), input.role === 'owner');
    const email = emailOf(input.email);
    return onRoster(organizationId, async (users) => {
      if (users.some((user) => user.email === email)) throw new ApiError('USER_EXISTS', undefined, { field: 'email' });
      if (users.length >= MAX_USERS_PER_ORGANIZATION)
        throw new ApiError('INVALID_STATE', `An organization has at most ${MAX_USERS_PER_ORGANIZATION} users.`, {
          reason: 'too_many_users',
        });
      const now = clock.now();
      const at = now.toISOString();
      const { token, hash } = await newInvitation();
      const user: User = {
        id: ids('user'),
        organizationId,
        email,
        role: input.role,
        status: 'INVITED',
        createdAt: at,
        invitedBy: ctx.principal.kind === 'OPERATOR' ? 'operator' : ctx.principal.keyId,
        invitationHash: hash,
        invitationExpiresAt: invitationExpiry(now),
      };
      return {
        changes: [{ type: 'putUser', user }, audit(ctx, action, user, at, { email, role: user.role })],
        result: { user, inviteUrl: inviteUrlOf(token) },
      };
    });
  }

  return {
    /** POST /v1/users: an organization-level key or a dashboard user invites into its own organization. */
    invite: (ctx: RequestContext, action: AuditAction, input: { email: string; role: UserRole }) =>
      invite(ctx, action, organizationOf(ctx), input),

    /** The operator invites into an organization (ORGANIZATION_NOT_FOUND). */
    async inviteToOrganization(
      ctx: RequestContext,
      action: AuditAction,
      organizationId: string,
      input: { email: string; role: UserRole },
    ): Promise<Invitation> {
      if (!(await store.organizationExists(organizationId))) throw notFound('ORGANIZATION_NOT_FOUND', organizationId);
      return invite(ctx, action, organizationId, input);
    },

    /** The operator invites one of its own people (role operator, no organization). */
    inviteOperator: (ctx: RequestContext, action: AuditAction, input: { email: string }) =>
      invite(ctx, action, null, { email: input.email, role: OPERATOR_ROLE }),

    async list(ctx: RequestContext): Promise<User[]> {
      return store.listUsers(organizationOf(ctx));
    },

    get: (ctx: RequestContext, id: string): Promise<User> => memberOf(organizationOf(ctx), id),

    async changeRole(ctx: RequestContext, action: AuditAction, id: string, role: UserRole): Promise<User> {
      const organizationId = organizationOf(ctx);
      const caller = await callerRole(ctx);
      const changed = await onRoster(organizationId, async (users) => {
        const user = await memberOf(organizationId, id);
        if (user.role === role) return { changes: [], result: { user, changed: false } };
        requireGrantable(ctx.principal, user.role);
        requireGrantable(ctx.principal, role);
        requireOwnerAuthority(caller, user.role === 'owner' || role === 'owner');
        requireAnotherOwner(users, user);
        const at = clock.now().toISOString();
        const next: User = { ...user, role };
        return {
          changes: [
            { type: 'updateUser', user: next, expect: user.status },
            audit(ctx, action, next, at, { from: user.role, to: role }),
          ],
          result: { user: next, changed: true },
        };
      });
      if (changed.changed) await deps.sessions?.revokeAllSessions(id);
      return changed.user;
    },

    async remove(ctx: RequestContext, action: AuditAction, id: string): Promise<User> {
      const organizationId = organizationOf(ctx);
      const caller = await callerRole(ctx);
      const removed = await onRoster(organizationId, async (users) => {
        const user = await memberOf(organizationId, id);
        requireGrantable(ctx.principal, user.role);
        requireOwnerAuthority(caller, user.role === 'owner');
        requireAnotherOwner(users, user);
        const at = clock.now().toISOString();
        const { invitationHash: _hash, invitationExpiresAt: _expires, ...rest } = user;
        const next: User = { ...rest, status: 'REMOVED', removedAt: at };
        return {
          changes: [
            {
              type: 'updateUser',
              user: next,
              expect: user.status,
              ...(user.invitationHash ? { invitationHash: user.invitationHash } : {}),
            },
            audit(ctx, action, next, at, { role: user.role }),
          ],
          result: next,
        };
      });
      await deps.sessions?.revokeAllSessions(id);
      return removed;
    },

    /** A new invitation for an INVITED user (the old link stops working); INVALID_STATE once accepted. */
    async reinvite(ctx: RequestContext, action: AuditAction, id: string): Promise<Invitation> {
      // The operator renews any invitation (npm start renews the demo people's at each start).
      const organizationId =
        ctx.principal.kind === 'OPERATOR' ? ((await store.getUser(id))?.organizationId ?? null) : organizationOf(ctx);
      const caller = await callerRole(ctx);
      return onRoster(organizationId, async (users) => {
        const user = await memberOf(organizationId, id);
        requireGrantable(ctx.principal, user.role);
        requireOwnerAuthority(caller, user.role === 'owner');
        if (user.status !== 'INVITED')
          throw new ApiError('INVALID_STATE', 'This user accepted their invitation already.', { status: user.status });
        const now = clock.now();
        const at = now.toISOString();
        const { token, hash } = await newInvitation();
        const next: User = { ...user, invitationHash: hash, invitationExpiresAt: invitationExpiry(now) };
        return {
          changes: [
            {
              type: 'updateUser',
              user: next,
              expect: 'INVITED',
              ...(user.invitationHash ? { invitationHash: user.invitationHash } : {}),
            },
            audit(ctx, action, next, at, { email: user.email, role: user.role, renewed: true }),
          ],
          result: { user: next, inviteUrl: inviteUrlOf(token) },
        };
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
