import { describe, expect, it } from 'vitest';
import type { User, UserRole } from '../../shared/domain/users/types.js';
import { createSignInStore } from '../../shared/persistence/sign-in-store.js';
import { createUserStore } from '../../shared/persistence/user-store.js';
import { core } from '../../shared/runtime/core.js';
import { sessionsOf } from '../../shared/runtime/services/sign-in.js';
import { DASHBOARD_ENV, dashboardFetch, SESSION_COOKIE, signInAs } from '../fixtures/dashboard-session.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { auditFactories } from '../fixtures/fresh-resources.js';

/**
 * Adversarial review of issue 24 (authority and tenancy of the dashboard's people). Each test
 * names the attack; each fails on main as reviewed and passes once the defect is fixed.
 */
describe('dashboard attacks: authority', () => {
  const { service, org } = setupE2e({ env: DASHBOARD_ENV, organizations: { org: 'Authority Org' } });

  /** A real user (invited over the API, then ACTIVE as acceptance makes it) with an open dashboard session. */
  async function activeUserWithSession(role: UserRole, key = org.key) {
    const email = `${role}-${Math.random().toString(36).slice(2, 10)}@authority.test`;
    const invited = await service.call('POST', '/v1/users', { key, body: { email, role } });
    expect(invited.status, invited.text).toBe(201);
    const id = invited.body.id as string;
    const users = createUserStore(service.table);
    const user = (await users.getUser(id))!;
    const { invitationHash, invitationExpiresAt: _e, ...rest } = user;
    const active: User = { ...rest, status: 'ACTIVE', acceptedAt: new Date().toISOString() };
    await users.commit([{ type: 'updateUser', user: active, expect: 'INVITED', invitationHash: invitationHash! }]);
    const opened = await sessionsOf(core()).opening(
      { id, email, role, organizationId: org.organizationId },
      { ipAddress: '127.0.0.1', userAgent: 'test' },
      true,
    );
    await createSignInStore(core().table).commit(opened.changes);
    return { id, email, cookie: `${SESSION_COOKIE}=${opened.secret}`, csrfToken: opened.session.csrfToken };
  }

  /** The raw key shown once on the dashboard's "key created" answer. */
  const rawKeyIn = (html: string) => /id="created-secret"[^>]*value="([^"]+)"/.exec(html)?.[1];

  // shared/runtime/services/users.ts builds the users service without `sessions` (functions/users/handler.ts
  // and the container both call userService(core)), so the SessionRevoker is never called.
  it('a removed user (DELETE /v1/users/:id) is signed out: the old session cookie no longer opens a page', async () => {
    const victim = await activeUserWithSession('admin');
    const before = await dashboardFetch(service, victim, '/dashboard/api-keys');
    expect(before.status).toBe(200);

    const removed = await service.call('DELETE', `/v1/users/${victim.id}`, { key: org.key });
    expect(removed.status, removed.text).toBe(200);

    const after = await dashboardFetch(service, victim, '/dashboard/api-keys');
    expect(after.status).toBe(303);
    expect(after.headers.get('location') ?? '').toMatch(/^\/dashboard\/sign-in/);
    // and a forged POST from the old session creates nothing
    const forged = await dashboardFetch(service, victim, '/dashboard/api-keys/new', {
      form: { name: 'after removal', 'permission.wallets:read': 'on' },
    });
    expect(forged.status).toBe(303);
    expect(rawKeyIn(await forged.text())).toBeUndefined();
  });

  it('a demoted user (PATCH role admin -> viewer) keeps no admin reach through the old session', async () => {
    const demoted = await activeUserWithSession('admin');
    const changed = await service.call('PATCH', `/v1/users/${demoted.id}`, {
      key: org.key,
      body: { role: 'viewer' },
    });
    expect(changed.status, changed.text).toBe(200);

    const created = await dashboardFetch(service, demoted, '/dashboard/api-keys/new', {
      form: { name: 'still admin?', 'permission.admin': 'on', 'permission.wallets:read': 'on' },
    });
    const key = rawKeyIn(await created.text());
    expect(key, 'a viewer (formerly admin) created an admin API key with its old session').toBeUndefined();
  });

  // shared/auth/authenticate.ts:61 derives approvals:decide from `admin`; roles.ts gives `developer`
  // `admin` but not approvals:decide; createApiKey lets a caller grant `admin` because it holds it.
  it('a developer can not decide approvals by minting an admin API key (derived approvals:decide)', async () => {
    const { pendingApproval } = auditFactories(service);
    const { approvalId } = await pendingApproval(org);
    const developer = await signInAs(service, { organizationId: org.organizationId, role: 'developer' });

    // the developer itself is refused (as the role table says)...
    const direct = await dashboardFetch(service, developer, `/dashboard/approvals/${approvalId}`, {
      form: { decision: 'approve', note: 'mine' },
    });
    expect(direct.status).toBe(403);

    // ...but mints a key with `admin` (which it holds) and decides with it.
    const created = await dashboardFetch(service, developer, '/dashboard/api-keys/new', {
      form: { name: 'laundering', 'permission.admin': 'on', 'permission.payments:read': 'on' },
    });
    const key = rawKeyIn(await created.text());
    if (key !== undefined) {
      const approved = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key, body: {} });
      expect(approved.status, approved.text).toBe(403);
    }
    const approval = await service.call('GET', `/v1/approvals/${approvalId}`, { key: org.key });
    expect(approval.body.status, approval.text).toBe('PENDING');
  });

  // user-rules.ts requireOwnerAuthority: a key is never checked (callerRole undefined), so a key an
  // admin user made acts with owner authority.
  it('an admin user can not make an owner through an API key it minted in the dashboard', async () => {
    const admin = await activeUserWithSession('admin');
    const all = [
      'wallets:read',
      'wallets:write',
      'payments:read',
      'payments:write',
      'invoices:read',
      'invoices:write',
      'cards:sensitive_read',
      'admin',
    ];
    const created = await dashboardFetch(service, admin, '/dashboard/api-keys/new', {
      form: { name: 'owner maker', ...Object.fromEntries(all.map((p) => [`permission.${p}`, 'on'])) },
    });
    expect(created.status).toBe(200);
    const key = rawKeyIn(await created.text());
    expect(key).toBeDefined();

    // directly, the admin user is refused (only an owner makes an owner)
    const direct = await service.call('POST', '/v1/users', {
      key: key!,
      body: { email: 'accomplice@authority.test', role: 'owner' },
    });
    expect(direct.status, direct.text).toBe(403);
  });
});
