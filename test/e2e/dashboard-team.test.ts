import { describe, expect, it } from 'vitest';
import { auditPartition } from '../fixtures/audit-reads.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { KYB_BODY } from '../fixtures/organizations.js';

interface Session {
  cookie: string;
  csrfToken: string;
  userId: string;
}

/** The team and operator pages through the real dashboard edge, signed in with session cookies. */
describe('dashboard: team and operator pages', () => {
  const { service, org } = setupE2e({ env: DASHBOARD_ENV, organizations: { org: 'Team Co' } });

  async function page(session: Session, method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
    const response = await fetch(service.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        cookie: session.cookie,
        ...(method === 'POST'
          ? { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(service.baseUrl).origin }
          : {}),
      },
      ...(method === 'POST' ? { body: new URLSearchParams({ ...form, _csrf: session.csrfToken }).toString() } : {}),
    });
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  }
  const linkOf = (html: string) => /id="created-secret"[^>]*value="([^"]+)"/.exec(html)?.[1];
  const users = async () =>
    (await service.call('GET', '/v1/users', { key: org.key })).body.data as {
      id: string;
      email: string;
      role: string;
    }[];

  it('an owner invites (the link once), changes the role, renews the link and removes, each audited as the user', async () => {
    const owner = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    const listed = await page(owner, 'GET', '/dashboard/team');
    expect(listed.status).toBe(200);
    expect(listed.html).toContain(`data-user-id="${owner.userId}"`);

    const invited = await page(owner, 'POST', '/dashboard/team', { email: 'new@team.test', role: 'approver' });
    expect(invited.status).toBe(200);
    const link = linkOf(invited.html)!;
    expect(link).toContain('/dashboard/invitations/');
    const user = (await users()).find((u) => u.email === 'new@team.test')!;
    expect(user.role).toBe('approver');

    const changed = await page(owner, 'POST', `/dashboard/team/${user.id}/role`, { role: 'viewer' });
    expect(changed).toMatchObject({ status: 303, location: '/dashboard/team?done=role' });
    expect((await users()).find((u) => u.id === user.id)?.role).toBe('viewer');

    const renewed = await page(owner, 'POST', `/dashboard/team/${user.id}/invitation`);
    expect(renewed.status).toBe(200);
    expect(linkOf(renewed.html)).not.toBe(link);

    const confirm = await page(owner, 'GET', `/dashboard/team/${user.id}/remove`);
    expect(confirm.html).toContain('Remove new@team.test');
    expect(await page(owner, 'POST', `/dashboard/team/${user.id}/remove`)).toMatchObject({
      status: 303,
      location: '/dashboard/team?done=removed',
    });
    expect((await users()).map((u) => u.id)).not.toContain(user.id);

    await service.projected();
    const entries = (await auditPartition(service.table, org.organizationId)).filter((e) => e.resourceId === user.id);
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.invite', 'user.role.change', 'user.remove']),
    );
    for (const entry of entries) expect(entry).toMatchObject({ actorType: 'USER', actorId: owner.userId });
  });

  it("a role change or a removal ends the person's sessions (their next page asks to sign in)", async () => {
    const owner = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    const member = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    expect((await page(member, 'GET', '/dashboard/team')).status).toBe(200);
    await page(owner, 'POST', `/dashboard/team/${member.userId}/role`, { role: 'approver' });
    const after = await page(member, 'GET', '/dashboard/team');
    expect(after.status).toBe(303);
    expect(after.location).toContain('/dashboard/sign-in');

    const other = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    expect(await page(owner, 'POST', `/dashboard/team/${other.userId}/remove`)).toMatchObject({ status: 303 });
    expect((await page(other, 'GET', '/dashboard/team')).status).toBe(303);
  });

  it('the last owner can not remove themselves; a viewer sees no form and a forged POST changes nothing', async () => {
    const lonely = await service.createOrganization('Lonely Co');
    const owner = await signInAs(service, { organizationId: lonely.organizationId, role: 'owner' });
    const refused = await page(owner, 'POST', `/dashboard/team/${owner.userId}/remove`);
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('last active owner');

    const viewer = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    const seen = await page(viewer, 'GET', '/dashboard/team');
    expect(seen.html).toContain('data-no-team-access');
    const before = (await users()).length;
    const forged = await page(viewer, 'POST', '/dashboard/team', { email: 'sneaky@team.test', role: 'owner' });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('data-error-code="PERMISSION_DENIED"');
    expect((await users()).length).toBe(before);
  });

  it('the operator decides a waiting KYB from its page; an organization user gets 403 there', async () => {
    const applicant = await service.createOrganization('Applicant Co');
    expect((await service.call('POST', '/v1/activation/kyb', { key: applicant.key, body: KYB_BODY })).status).toBe(200);
    const operator = await signInAs(service, { organizationId: null, role: 'operator' });
    const queue = await page(operator, 'GET', '/dashboard/operator/kyb');
    expect(queue.html).toContain(`data-organization-id="${applicant.organizationId}"`);
    expect(
      await page(operator, 'POST', `/dashboard/operator/kyb/${applicant.organizationId}`, { status: 'VERIFIED' }),
    ).toMatchObject({ status: 303, location: '/dashboard/operator/kyb?done=verified' });
    const status = await service.call('GET', '/v1/activation/status', { key: applicant.key });
    expect(status.body.kybStatus).toBe('VERIFIED');
    expect((await page(operator, 'GET', '/dashboard/operator/compliance')).status).toBe(200);

    const owner = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    expect((await page(owner, 'GET', '/dashboard/operator/kyb')).status).toBe(403);
  });
});
