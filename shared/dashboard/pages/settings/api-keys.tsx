import type { ApiKeyView, CreatedApiKeyView } from '../../../domain/api-keys/api-key-view.js';
import { ApiError } from '../../../domain/errors.js';
import { APPROVALS_DECIDE_PERMISSION, ORGANIZATION_PERMISSIONS } from '../../../domain/tenancy.js';
import type { DashboardAnswer, DashboardRequest, DashboardSession } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import {
  Alert,
  NextPage,
  Notice,
  filled,
  invalidField,
  segment,
  settingsRoute,
  stepUpFirst,
  utc,
  validationText,
  type ListPage,
} from './common.js';
import { SecretOnce } from '../../secret-once.js';

const FRAME = { title: 'API keys', current: DASHBOARD_PATHS.apiKeys };
const NEW_FRAME = { title: 'Create an API key', current: DASHBOARD_PATHS.apiKeys };
const REVOKE_FRAME = { title: 'Revoke an API key', current: DASHBOARD_PATHS.apiKeys };
const NOTICES = { revoked: 'The key is revoked: requests with it now answer 401 API_KEY_REVOKED.' };
const LABELS = { name: 'Name', permissions: 'Permissions', expiresAt: 'Expires on' };
/** A checkbox per permission: `permission.<name>` (the form carries one value per field name). */
const PERMISSION_FIELD = 'permission.';
const PAGE_SIZE = '50';

/**
 * The permissions a new key may hold: the organization permissions the user's role holds; `admin`
 * only with `approvals:decide` too, since a key holding `admin` decides approvals (the grant rule of
 * shared/domain/api-keys/grants.ts: a developer can not mint a deciding key).
 */
export const grantablePermissions = (session: DashboardSession) =>
  ORGANIZATION_PERMISSIONS.filter(
    (permission) =>
      session.permissions.includes(permission) &&
      (permission !== 'admin' || session.permissions.includes(APPROVALS_DECIDE_PERMISSION)),
  );

const environmentName = (session: DashboardSession) => (session.environment === 'PRODUCTION' ? 'Live' : 'Sandbox');

function KeysPage(props: { request: DashboardRequest; page: ListPage<ApiKeyView> }) {
  const { request, page } = props;
  return (
    <DashboardLayout session={request.session} title={FRAME.title} current={FRAME.current}>
      <Notice request={request} notices={NOTICES} />
      <p>
        The organization’s keys in {environmentName(request.session)} (agent keys included). A key’s secret is shown
        only when it is created.
      </p>
      <p>
        <a class="button" href={DASHBOARD_PATHS.newApiKey}>
          Create an API key
        </a>
      </p>
      {page.data.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>API keys, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scope</th>
                <th scope="col">Permissions</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((key) => (
                <tr data-key-id={key.id}>
                  <td>{key.name}</td>
                  <td class="mono">{`${key.prefix}…${key.last4}`}</td>
                  <td>{key.walletId ? <span class="mono">{`Agent: ${key.walletId}`}</span> : 'Organization'}</td>
                  <td>{key.permissions.join(', ')}</td>
                  <td>
                    <span class={`status status-${key.status.toLowerCase()}`}>{key.status}</span>
                  </td>
                  <td>{utc(key.createdAt)}</td>
                  <td>{key.lastUsedAt ? utc(key.lastUsedAt) : 'never'}</td>
                  <td>{key.expiresAt ? utc(key.expiresAt) : 'never'}</td>
                  <td>
                    {key.status === 'ACTIVE' ? (
                      <a href={DASHBOARD_PATHS.revokeApiKey(key.id)}>
                        Revoke<span class="visually-hidden"> {key.name}</span>
                      </a>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NextPage path={DASHBOARD_PATHS.apiKeys} query={{}} cursor={page.cursor} />
    </DashboardLayout>
  );
}

interface NewKeyState {
  error: string;
  field?: string;
  name?: string;
  checked?: ReadonlySet<string>;
  expiresOn?: string;
}

function NewKeyPage(props: { request: DashboardRequest; state?: NewKeyState }) {
  const { request, state } = props;
  const { session } = request;
  const checked = state?.checked;
  return (
    <DashboardLayout session={session} title={NEW_FRAME.title} current={NEW_FRAME.current}>
      {state ? <Alert code="VALIDATION_ERROR">{state.error}</Alert> : null}
      <form method="post" action={DASHBOARD_PATHS.newApiKey} class="card">
        <CsrfField session={session} />
        <p>The key acts in {environmentName(session)}. Its secret is shown once, on the next page.</p>
        <div class="field">
          <label for="key-name">Name</label>
          <input
            id="key-name"
            name="name"
            maxlength={100}
            required
            autocomplete="off"
            value={state?.name ?? ''}
            aria-invalid={state?.field === 'name' ? 'true' : undefined}
          />
        </div>
        <fieldset aria-invalid={state?.field === 'permissions' ? 'true' : undefined}>
          <legend>Permissions (only those your role holds)</legend>
          {grantablePermissions(session).map((permission) => (
            <div class="check">
              <input
                type="checkbox"
                id={`perm-${permission}`}
                name={`${PERMISSION_FIELD}${permission}`}
                value="yes"
                checked={checked ? checked.has(permission) : permission.endsWith(':read')}
              />
              <label for={`perm-${permission}`}>{permission}</label>
            </div>
          ))}
        </fieldset>
        <div class="field">
          <label for="key-expires">
            Expires on (optional)
            <span class="hint">At the end of that day, UTC. Empty: never.</span>
          </label>
          <input
            id="key-expires"
            name="expiresOn"
            type="date"
            value={state?.expiresOn ?? ''}
            aria-invalid={state?.field === 'expiresAt' ? 'true' : undefined}
          />
        </div>
        <div class="actions">
          <button type="submit">Create key</button>
          <a class="button secondary" href={DASHBOARD_PATHS.apiKeys}>
            Cancel
          </a>
        </div>
      </form>
    </DashboardLayout>
  );
}

/** The POST's own answer: the raw key, this once (never in a URL, never again). */
function CreatedKeyPage(props: { request: DashboardRequest; created: CreatedApiKeyView }) {
  const { request, created } = props;
  return (
    <DashboardLayout session={request.session} title="API key created" current={FRAME.current}>
      <div class="notice" role="status">
        Key “{created.name}” created. Copy its secret now: it is shown only this once.
      </div>
      <SecretOnce
        label="Secret key"
        value={created.key}
        copyLabel="Copy the key"
        back={{ href: DASHBOARD_PATHS.apiKeys, label: 'Done: back to API keys' }}
      >
        <p>Permissions: {created.permissions.join(', ')}</p>
      </SecretOnce>
    </DashboardLayout>
  );
}

function RevokePage(props: { request: DashboardRequest; apiKey: ApiKeyView }) {
  const { request, apiKey } = props;
  return (
    <DashboardLayout session={request.session} title={REVOKE_FRAME.title} current={REVOKE_FRAME.current}>
      <div class="card">
        <p>
          Revoke “{apiKey.name}” (<span class="mono">{`${apiKey.prefix}…${apiKey.last4}`}</span>)? Requests with it will
          be refused at once; this can not be undone.
        </p>
        {apiKey.status === 'ACTIVE' ? (
          <form method="post" action={DASHBOARD_PATHS.revokeApiKey(apiKey.id)} class="actions">
            <CsrfField session={request.session} />
            <button type="submit">Revoke key</button>
            <a class="button secondary" href={DASHBOARD_PATHS.apiKeys}>
              Cancel
            </a>
          </form>
        ) : (
          <p>
            This key is already revoked. <a href={DASHBOARD_PATHS.apiKeys}>Back to API keys</a>
          </p>
        )}
      </div>
    </DashboardLayout>
  );
}

async function listKeys(request: DashboardRequest): Promise<DashboardAnswer> {
  const query = { limit: PAGE_SIZE, ...(request.query.cursor ? { cursor: request.query.cursor } : {}) };
  const page = await request.call<ListPage<ApiKeyView>>('listApiKeys', { query });
  return dashboardPage(200, <KeysPage request={request} page={page} />);
}

/** One key of the list (there is no operation for one key): the first pages, newest first. */
async function findKey(request: DashboardRequest, id: string): Promise<ApiKeyView> {
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const query = { limit: '100', ...(cursor ? { cursor } : {}) };
    const page = await request.call<ListPage<ApiKeyView>>('listApiKeys', { query });
    const found = page.data.find((key) => key.id === id);
    if (found) return found;
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  throw new ApiError('API_KEY_NOT_FOUND');
}

async function createKey(request: DashboardRequest): Promise<DashboardAnswer> {
  const stepUp = stepUpFirst(request, DASHBOARD_PATHS.newApiKey);
  if (stepUp) return stepUp;
  const form = request.form();
  const checked = new Set(
    [...form.keys()].filter((name) => name.startsWith(PERMISSION_FIELD)).map((n) => n.slice(PERMISSION_FIELD.length)),
  );
  const expiresOn = filled(form, 'expiresOn');
  const body = {
    name: filled(form, 'name') ?? '',
    permissions: [...checked],
    ...(expiresOn ? { expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(expiresOn) ? `${expiresOn}T23:59:59Z` : expiresOn } : {}),
  };
  try {
    const created = await request.call<CreatedApiKeyView>('createApiKey', { body });
    return dashboardPage(200, <CreatedKeyPage request={request} created={created} />);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR') throw error;
    const state = {
      error: validationText(error, LABELS),
      field: invalidField(error),
      name: form.get('name'),
      checked,
      expiresOn,
    };
    return dashboardPage(400, <NewKeyPage request={request} state={state} />);
  }
}

async function revokeKey(request: DashboardRequest, id: string): Promise<DashboardAnswer> {
  try {
    await request.call('revokeApiKey', { params: { id } });
  } catch (error) {
    // Revoked already (another tab, another person): the state the person asked for.
    if (!(error instanceof ApiError) || error.code !== 'INVALID_STATE') throw error;
  }
  return seeOther(`${DASHBOARD_PATHS.apiKeys}?done=revoked`);
}

export const API_KEY_ROUTES = [
  settingsRoute(/^\/dashboard\/api-keys$/, FRAME, { get: listKeys }),
  settingsRoute(/^\/dashboard\/api-keys\/new$/, NEW_FRAME, {
    get: async (request) => {
      const stepUp = stepUpFirst(request, DASHBOARD_PATHS.newApiKey);
      if (stepUp) return stepUp;
      // The list's permission check first: a role without `admin` gets the operation's 403.
      await request.call('listApiKeys', { query: { limit: '1' } });
      return dashboardPage(200, <NewKeyPage request={request} />);
    },
    post: createKey,
  }),
  settingsRoute(/^\/dashboard\/api-keys\/([^/]+)\/revoke$/, REVOKE_FRAME, {
    get: async (request, [id]) => {
      const apiKey = await findKey(request, segment(id));
      return dashboardPage(200, <RevokePage request={request} apiKey={apiKey} />);
    },
    post: (request, [id]) => revokeKey(request, segment(id)),
  }),
];
