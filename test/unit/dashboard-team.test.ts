import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import type { UserView } from '../../shared/domain/users/user-view.js';
import { htmlOf } from '../fixtures/settings-dashboard.js';
import { refuse, teamWorld } from '../fixtures/team-dashboard.js';

const AT = '2026-11-28T09:00:00.000Z';
const member = (
  id: string,
  email: string,
  role: UserView['role'],
  status: UserView['status'] = 'ACTIVE',
): UserView => ({
  id,
  object: 'user',
  email,
  role,
  status,
  createdAt: AT,
  invitationExpiresAt: status === 'INVITED' ? '2026-12-01T09:00:00.000Z' : null,
  acceptedAt: status === 'ACTIVE' ? AT : null,
});
const SELF = 'usr_self00000000000000000001';
const ADMIN = 'usr_admin0000000000000000001';
const INVITED = 'usr_invited00000000000000001';
const TEAM = [
  member(SELF, 'me@example.test', 'owner'),
  member(ADMIN, 'ann@example.test', 'admin'),
  member(INVITED, 'ivo@example.test', 'viewer', 'INVITED'),
];
const LINK = 'http://localhost:3000/dashboard/invitations/TheTokenShownOnce000000000000000';

const teamAnswers = {
  listUsers: () => ({ data: TEAM }),
  getUser: ({ params }: { params: Record<string, string> }) => {
    const user = TEAM.find((u) => u.id === params.id);
    if (!user) throw new ApiError('USER_NOT_FOUND');
    return user;
  },
};

describe('dashboard team page', () => {
  it('lists the people with their role and status, an invite form, and actions on others only', async () => {
    const world = teamWorld('owner', teamAnswers);
    const html = htmlOf(await world.serve('GET', '/dashboard/team'), 200);
    for (const id of [SELF, ADMIN, INVITED]) expect(html).toContain(`data-user-id="${id}"`);
    expect(html).toContain('<caption>People of the organization, oldest first</caption>');
    expect(html).toContain('name="email"');
    expect(html).toContain('Send invitation');
    expect(html).toContain(`action="/dashboard/team/${ADMIN}/role"`);
    expect(html).toContain(`action="/dashboard/team/${INVITED}/invitation"`);
    expect(html).not.toContain(`action="/dashboard/team/${ADMIN}/invitation"`);
    expect(html).not.toContain(`/dashboard/team/${SELF}/role`);
    expect(html).toContain('value="owner"');
  });

  it('offers an admin only the roles it could grant (never owner) and no action on an owner', async () => {
    const world = teamWorld('admin', {
      listUsers: () => ({
        data: [member('usr_owner0000000000000000001', 'o@example.test', 'owner'), ...TEAM.slice(1)],
      }),
    });
    const html = htmlOf(await world.serve('GET', '/dashboard/team'), 200);
    expect(html).not.toContain('value="owner"');
    expect(html).not.toContain('/dashboard/team/usr_owner0000000000000000001/role');
  });

  it('shows a viewer no form and calls nothing; a forged POST gets the operation 403 as an alert', async () => {
    const world = teamWorld('viewer', teamAnswers);
    const html = htmlOf(await world.serve('GET', '/dashboard/team'), 200);
    expect(html).toContain('data-no-team-access');
    expect(html).not.toContain('<form method="post" action="/dashboard/team"');
    expect(world.calls).toEqual([]);
    const forged = htmlOf(
      await world.serve('POST', '/dashboard/team', { email: 'x@example.test', role: 'viewer' }),
      403,
    );
    expect(forged).toContain('data-error-code="PERMISSION_DENIED"');
  });

  it('invites and shows the link once, in the POST answer', async () => {
    const world = teamWorld('owner', {
      ...teamAnswers,
      createUser: ({ body }) => ({
        ...member('usr_new000000000000000000001', body.email as string, body.role as UserView['role'], 'INVITED'),
        inviteUrl: LINK,
      }),
    });
    const answer = await world.serve('POST', '/dashboard/team', { email: 'new@example.test', role: 'approver' });
    const html = htmlOf(answer, 200);
    expect(html).toContain(`id="created-secret" class="mono secret" readonly="" value="${LINK}"`);
    expect(html).toContain('data-notice="invited"');
    expect(world.calls.at(-1)).toMatchObject({
      operation: 'createUser',
      input: { body: { email: 'new@example.test', role: 'approver' } },
    });
  });

  it('names the field of a refused invitation and keeps what was typed; USER_EXISTS on the page', async () => {
    const world = teamWorld('owner', teamAnswers);
    const bad = htmlOf(await world.serve('POST', '/dashboard/team', { email: 'not-an-email', role: 'viewer' }), 400);
    expect(bad).toMatch(/data-error-code="VALIDATION_ERROR">Email: /);
    expect(bad).toContain('value="not-an-email"');
    const taken = teamWorld('owner', { ...teamAnswers, createUser: refuse('USER_EXISTS') });
    const html = htmlOf(
      await taken.serve('POST', '/dashboard/team', { email: 'ann@example.test', role: 'viewer' }),
      409,
    );
    expect(html).toContain('data-error-code="USER_EXISTS"');
  });

  it('changes a role (PRG), renews an invitation (link once), and says so when the last owner would go', async () => {
    const world = teamWorld('owner', {
      ...teamAnswers,
      updateUser: ({ params, body }) => ({ ...TEAM.find((u) => u.id === params.id)!, role: body.role }),
      renewUserInvitation: ({ params }) => ({ ...TEAM.find((u) => u.id === params.id)!, inviteUrl: LINK }),
    });
    expect(await world.serve('POST', `/dashboard/team/${ADMIN}/role`, { role: 'viewer' })).toEqual({
      status: 303,
      location: '/dashboard/team?done=role',
    });
    expect(htmlOf(await world.serve('GET', '/dashboard/team?done=role'), 200)).toContain('data-notice="role"');
    const renewed = htmlOf(await world.serve('POST', `/dashboard/team/${INVITED}/invitation`), 200);
    expect(renewed).toContain(LINK);
    expect(renewed).toContain('the previous one no longer works');

    const last = teamWorld('owner', {
      ...teamAnswers,
      updateUser: refuse('INVALID_STATE', 'This is the last active owner: make another owner first.'),
    });
    const html = htmlOf(await last.serve('POST', `/dashboard/team/${SELF}/role`, { role: 'admin' }), 409);
    expect(html).toContain('This is the last active owner');
  });

  it('removes after a confirm page; another organization user is a 404 page', async () => {
    const world = teamWorld('owner', {
      ...teamAnswers,
      deleteUser: ({ params }) => ({ ...TEAM.find((u) => u.id === params.id)!, status: 'REMOVED' }),
    });
    const confirm = htmlOf(await world.serve('GET', `/dashboard/team/${ADMIN}/remove`), 200);
    expect(confirm).toContain('Remove ann@example.test');
    expect(await world.serve('POST', `/dashboard/team/${ADMIN}/remove`)).toEqual({
      status: 303,
      location: '/dashboard/team?done=removed',
    });
    const missing = htmlOf(await world.serve('GET', '/dashboard/team/usr_elsewhere000000000000001/remove'), 404);
    expect(missing).toContain('data-error-code="USER_NOT_FOUND"');
  });
});
