import { ApiError } from '../../../domain/errors.js';
import { ROLE_LABELS, ROLE_PERMISSIONS } from '../../../domain/users/roles.js';
import { USER_ROLES, type UserRole } from '../../../domain/users/types.js';
import type { InvitedUserView, UserView } from '../../../domain/users/user-view.js';
import type { DashboardRequest, DashboardRoute, DashboardSession } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage, may, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { Alert, Notice, filled, segment, settingsRoute, utc, validationText } from '../settings/common.js';
import { SecretOnce } from '../../secret-once.js';

const FRAME = { title: 'Team', current: DASHBOARD_PATHS.team };
const REMOVE_FRAME = { title: 'Remove a team member', current: DASHBOARD_PATHS.team };
const NOTICES = {
  role: 'The role is changed; their sessions ended, so they sign in again with the new role.',
  removed: 'The person is removed: their sessions ended and their invitation link, if any, stopped working.',
};
const LABELS = { email: 'Email', role: 'Role' };
const ROLE_HELP: Readonly<Record<UserRole, string>> = {
  owner: 'everything, including owners',
  admin: 'everything but owners',
  approver: 'reads and decides approvals',
  developer: 'API keys, webhooks, agents and wallets; no approvals',
  viewer: 'reads only',
};

/**
 * The roles this person may give (and so change or remove): those whose permissions their role
 * holds; owner only by an owner. The operation refuses the others anyway (403).
 */
export function grantableRoles(session: DashboardSession): UserRole[] {
  return USER_ROLES.filter(
    (role) =>
      ROLE_PERMISSIONS[role].every((permission) => session.permissions.includes(permission)) &&
      (role !== 'owner' || session.role === 'owner'),
  );
}

function RoleSelect(props: { id: string; roles: readonly UserRole[]; selected?: string }) {
  return (
    <select id={props.id} name="role" required>
      {props.roles.map((role) => (
        <option value={role} selected={role === props.selected}>
          {`${ROLE_LABELS[role]}: ${ROLE_HELP[role]}`}
        </option>
      ))}
    </select>
  );
}

function InviteForm(props: { session: DashboardSession; email?: string; role?: string; invalid?: string }) {
  const roles = grantableRoles(props.session);
  return (
    <form method="post" action={DASHBOARD_PATHS.team} class="card" data-invite-form>
      <CsrfField session={props.session} />
      <h2>Invite someone</h2>
      <p>They get a link, valid 72 hours and usable once, to set a password and a second factor.</p>
      <div class="row">
        <div class="field">
          <label for="invite-email">Email</label>
          <input
            id="invite-email"
            name="email"
            type="email"
            autocomplete="off"
            maxlength={254}
            required
            value={props.email ?? ''}
            aria-invalid={props.invalid === 'email' ? 'true' : undefined}
          />
        </div>
        <div class="field">
          <label for="invite-role">Role</label>
          <RoleSelect id="invite-role" roles={roles} selected={props.role ?? 'viewer'} />
        </div>
      </div>
      <button type="submit">Send invitation</button>
    </form>
  );
}

function MemberRow(props: { session: DashboardSession; user: UserView }) {
  const { session, user } = props;
  const roles = grantableRoles(session);
  const manageable = user.id !== session.userId && (roles as string[]).includes(user.role);
  return (
    <tr data-user-id={user.id} data-status={user.status}>
      <td>{user.email}</td>
      <td>{ROLE_LABELS[user.role as UserRole] ?? user.role}</td>
      <td>
        <span class={`status status-${user.status.toLowerCase()}`}>{user.status}</span>
        {user.status === 'INVITED' && user.invitationExpiresAt ? (
          <span class="hint">{`link valid until ${utc(user.invitationExpiresAt)}`}</span>
        ) : null}
      </td>
      <td>{utc(user.acceptedAt ?? user.createdAt)}</td>
      <td>
        {manageable ? (
          <div class="member-actions">
            <form method="post" action={DASHBOARD_PATHS.teamRole(user.id)} class="inline">
              <CsrfField session={session} />
              <label for={`role-${user.id}`} class="visually-hidden">{`New role for ${user.email}`}</label>
              <RoleSelect id={`role-${user.id}`} roles={roles} selected={user.role} />
              <button type="submit" class="secondary">
                Change role<span class="visually-hidden">{` of ${user.email}`}</span>
              </button>
            </form>
            {user.status === 'INVITED' ? (
              <form method="post" action={DASHBOARD_PATHS.teamInvitation(user.id)} class="inline">
                <CsrfField session={session} />
                <button type="submit" class="secondary">
                  New invitation link<span class="visually-hidden">{` for ${user.email}`}</span>
                </button>
              </form>
            ) : null}
            <a href={DASHBOARD_PATHS.teamRemove(user.id)}>
              Remove<span class="visually-hidden">{` ${user.email}`}</span>
            </a>
          </div>
        ) : user.id === session.userId ? (
          'You'
        ) : null}
      </td>
    </tr>
  );
}

function TeamPage(props: {
  request: DashboardRequest;
  users: UserView[];
  error?: { text: string; code: string };
  form?: { email?: string; role?: string; invalid?: string };
}) {
  const { request, users } = props;
  const { session } = request;
  return (
    <DashboardLayout session={session} title={FRAME.title} current={FRAME.current}>
      <Notice request={request} notices={NOTICES} />
      {props.error ? <Alert code={props.error.code}>{props.error.text}</Alert> : null}
      <InviteForm session={session} {...props.form} />
      <div class="table-wrap">
        <table>
          <caption>People of the organization, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <MemberRow session={session} user={user} />
            ))}
          </tbody>
        </table>
      </div>
    </DashboardLayout>
  );
}

/** A role that can not manage people sees why, and no form (a forged POST gets the operation's 403). */
function NoTeamAccess(props: { request: DashboardRequest }) {
  const { session } = props.request;
  return (
    <DashboardLayout session={session} title={FRAME.title} current={FRAME.current}>
      <p data-no-team-access>
        Your role ({session.role}) does not manage the team. Owners and admins invite people and change roles.
      </p>
    </DashboardLayout>
  );
}

/** The invitation link, shown this once (the POST's own answer; never in a URL). */
function InvitationShown(props: { request: DashboardRequest; invited: InvitedUserView; renewed: boolean }) {
  const { request, invited } = props;
  return (
    <DashboardLayout
      session={request.session}
      title={props.renewed ? 'New invitation link' : 'Invitation created'}
      current={FRAME.current}
    >
      <div class="notice" role="status" data-notice={props.renewed ? 'reinvited' : 'invited'}>
        {props.renewed
          ? `A new link for ${invited.email}; the previous one no longer works.`
          : `${invited.email} is invited as ${invited.role}.`}{' '}
        Copy the link now and send it to them: it is shown only this once.
      </div>
      <SecretOnce
        label={`Invitation link (valid until ${utc(invited.invitationExpiresAt)})`}
        value={invited.inviteUrl}
        copyLabel="Copy the link"
        back={{ href: DASHBOARD_PATHS.team, label: 'Done: back to the team' }}
      />
    </DashboardLayout>
  );
}

const listUsers = async (request: DashboardRequest) => (await request.call<{ data: UserView[] }>('listUsers')).data;

/** A refusal the page answers itself (validation, USER_EXISTS, the last owner), over the team list. */
async function teamWithError(request: DashboardRequest, error: ApiError, form: { email?: string; role?: string } = {}) {
  const invalid = typeof error.details?.field === 'string' ? error.details.field : undefined;
  const text = error.code === 'VALIDATION_ERROR' ? validationText(error, LABELS) : error.message;
  return dashboardPage(
    error.status,
    <TeamPage
      request={request}
      users={await listUsers(request)}
      error={{ text, code: error.code }}
      form={{ ...form, ...(invalid ? { invalid } : {}) }}
    />,
  );
}

const ANSWERED_ON_THE_PAGE = new Set(['VALIDATION_ERROR', 'USER_EXISTS', 'INVALID_STATE']);

async function orPageError<T>(
  request: DashboardRequest,
  run: () => Promise<T>,
  form?: { email?: string; role?: string },
) {
  try {
    return { value: await run() };
  } catch (error) {
    if (error instanceof ApiError && ANSWERED_ON_THE_PAGE.has(error.code))
      return { answer: await teamWithError(request, error, form) };
    throw error;
  }
}

export const TEAM_PAGE_ROUTES: readonly DashboardRoute[] = [
  settingsRoute(/^\/dashboard\/team$/, FRAME, {
    async get(request) {
      if (!may(request.session, 'admin')) return dashboardPage(200, <NoTeamAccess request={request} />);
      return dashboardPage(200, <TeamPage request={request} users={await listUsers(request)} />);
    },
    async post(request) {
      const form = request.form();
      const body = { email: filled(form, 'email') ?? '', role: filled(form, 'role') ?? '' };
      const done = await orPageError(request, () => request.call<InvitedUserView>('createUser', { body }), body);
      if (done.answer) return done.answer;
      return dashboardPage(200, <InvitationShown request={request} invited={done.value!} renewed={false} />);
    },
  }),
  settingsRoute(/^\/dashboard\/team\/([^/]+)\/role$/, FRAME, {
    async post(request, params) {
      const id = segment(params[0]);
      const role = filled(request.form(), 'role') ?? '';
      const done = await orPageError(request, () => request.call('updateUser', { params: { id }, body: { role } }));
      return done.answer ?? seeOther(`${DASHBOARD_PATHS.team}?done=role`);
    },
  }),
  settingsRoute(/^\/dashboard\/team\/([^/]+)\/invitation$/, FRAME, {
    async post(request, params) {
      const id = segment(params[0]);
      const done = await orPageError(request, () =>
        request.call<InvitedUserView>('renewUserInvitation', { params: { id } }),
      );
      if (done.answer) return done.answer;
      return dashboardPage(200, <InvitationShown request={request} invited={done.value!} renewed />);
    },
  }),
  settingsRoute(/^\/dashboard\/team\/([^/]+)\/remove$/, REMOVE_FRAME, {
    async get(request, params) {
      const user = await request.call<UserView>('getUser', { params: { id: segment(params[0]) } });
      return dashboardPage(
        200,
        <DashboardLayout session={request.session} title={REMOVE_FRAME.title} current={REMOVE_FRAME.current}>
          <form method="post" action={DASHBOARD_PATHS.teamRemove(user.id)} class="card">
            <CsrfField session={request.session} />
            <p>
              Remove {user.email} ({user.role})? Their sessions end at once and they can no longer sign in to this
              organization. You can invite them again later.
            </p>
            <div class="actions">
              <button type="submit" class="danger">
                Remove {user.email}
              </button>
              <a href={DASHBOARD_PATHS.team}>Cancel</a>
            </div>
          </form>
        </DashboardLayout>,
      );
    },
    async post(request, params) {
      const id = segment(params[0]);
      const done = await orPageError(request, () => request.call('deleteUser', { params: { id } }));
      return done.answer ?? seeOther(`${DASHBOARD_PATHS.team}?done=removed`);
    },
  }),
];
