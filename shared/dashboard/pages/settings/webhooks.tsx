import type * as z from 'zod/mini';
import { ApiError } from '../../../domain/errors.js';
import { EMITTED_EVENT_NAMES } from '../../../domain/event-names.js';
import type { createdWebhookView, deliveryAttemptView, webhookView } from '../../../domain/webhooks/webhook-view.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
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

type WebhookView = z.output<typeof webhookView>;
type CreatedWebhookView = z.output<typeof createdWebhookView>;
type DeliveryAttemptView = z.output<typeof deliveryAttemptView>;

const FRAME = { title: 'Webhooks', current: DASHBOARD_PATHS.webhooks };
const NEW_FRAME = { title: 'Register a webhook', current: DASHBOARD_PATHS.webhooks };
const DETAIL_FRAME = { title: 'Webhook', current: DASHBOARD_PATHS.webhooks };
const NOTICES = {
  test: 'Test event queued: its attempt shows in the delivery log below within a few seconds (reload).',
  resent: 'Delivery queued again: the new attempt shows in the delivery log within a few seconds (reload).',
};
const LABELS = { url: 'Endpoint URL', events: 'Events', description: 'Description' };
/** A checkbox per event name: `event.<name>` (`event.*` for every event). */
const EVENT_FIELD = 'event.';
const ALL_EVENTS = '*';

function WebhooksPage(props: { request: DashboardRequest; page: ListPage<WebhookView> }) {
  const { request, page } = props;
  return (
    <DashboardLayout session={request.session} title={FRAME.title} current={FRAME.current}>
      <p>Endpoints that receive this environment’s events as signed POSTs.</p>
      <p>
        <a class="button" href={DASHBOARD_PATHS.newWebhook}>
          Register a webhook
        </a>
      </p>
      {page.data.length === 0 ? (
        <p>No webhooks yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>Webhooks, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">Description</th>
                <th scope="col">Registered</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((webhook) => (
                <tr data-webhook-id={webhook.id}>
                  <td class="mono">
                    <a href={DASHBOARD_PATHS.webhook(webhook.id)}>{webhook.url}</a>
                  </td>
                  <td>{webhook.events.join(', ')}</td>
                  <td>{webhook.description ?? ''}</td>
                  <td>{utc(webhook.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <NextPage path={DASHBOARD_PATHS.webhooks} query={{}} cursor={page.cursor} />
    </DashboardLayout>
  );
}

interface NewWebhookState {
  error: string;
  field?: string;
  url?: string;
  description?: string;
  checked: ReadonlySet<string>;
}

function NewWebhookPage(props: { request: DashboardRequest; state?: NewWebhookState }) {
  const { request, state } = props;
  const checked = state?.checked ?? new Set([ALL_EVENTS]);
  return (
    <DashboardLayout session={request.session} title={NEW_FRAME.title} current={NEW_FRAME.current}>
      {state ? <Alert code="VALIDATION_ERROR">{state.error}</Alert> : null}
      <form method="post" action={DASHBOARD_PATHS.newWebhook} class="card">
        <CsrfField session={request.session} />
        <p>The signing secret is shown once, on the next page.</p>
        <div class="field">
          <label for="webhook-url">
            Endpoint URL
            <span class="hint" id="webhook-url-hint">
              {request.session.environment === 'SANDBOX'
                ? 'https, or http://127.0.0.1 in the sandbox.'
                : 'https, on a public address.'}
            </span>
          </label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            maxlength={2048}
            required
            autocomplete="url"
            aria-describedby="webhook-url-hint"
            value={state?.url ?? ''}
            aria-invalid={state?.field === 'url' ? 'true' : undefined}
          />
        </div>
        <fieldset class="choices" aria-invalid={state?.field === 'events' ? 'true' : undefined}>
          <legend>Events</legend>
          {[ALL_EVENTS, ...EMITTED_EVENT_NAMES].map((name) => (
            <div class="check">
              <input
                type="checkbox"
                id={`event-${name === ALL_EVENTS ? 'all' : name}`}
                name={`${EVENT_FIELD}${name}`}
                value="yes"
                checked={checked.has(name)}
              />
              <label for={`event-${name === ALL_EVENTS ? 'all' : name}`}>
                {name === ALL_EVENTS ? 'All events' : name}
              </label>
            </div>
          ))}
        </fieldset>
        <div class="field">
          <label for="webhook-description">Description (optional)</label>
          <textarea id="webhook-description" name="description" maxlength={1024} rows={2}>
            {state?.description ?? ''}
          </textarea>
        </div>
        <div class="actions">
          <button type="submit">Register webhook</button>
          <a class="button secondary" href={DASHBOARD_PATHS.webhooks}>
            Cancel
          </a>
        </div>
      </form>
    </DashboardLayout>
  );
}

/** The POST's own answer: the signing secret, this once. */
function CreatedWebhookPage(props: { request: DashboardRequest; created: CreatedWebhookView }) {
  const { request, created } = props;
  return (
    <DashboardLayout session={request.session} title="Webhook registered" current={FRAME.current}>
      <div class="notice" role="status">
        Webhook registered. Copy its signing secret now: it is shown only this once.
      </div>
      <SecretOnce
        label="Signing secret"
        value={created.secret}
        copyLabel="Copy the secret"
        back={{ href: DASHBOARD_PATHS.webhook(created.id), label: 'Done: open the webhook' }}
      />
    </DashboardLayout>
  );
}

function WebhookPage(props: {
  request: DashboardRequest;
  webhook: WebhookView;
  attempts: ListPage<DeliveryAttemptView>;
}) {
  const { request, webhook, attempts } = props;
  const { session } = request;
  const seen = new Set<string>();
  return (
    <DashboardLayout session={session} title={DETAIL_FRAME.title} current={DETAIL_FRAME.current}>
      <Notice request={request} notices={NOTICES} />
      <div class="card">
        <dl class="facts">
          <dt>Endpoint</dt>
          <dd class="mono">{webhook.url}</dd>
          <dt>Events</dt>
          <dd>{webhook.events.join(', ')}</dd>
          <dt>Description</dt>
          <dd>{webhook.description ?? '—'}</dd>
          <dt>Registered</dt>
          <dd>{utc(webhook.createdAt)}</dd>
          <dt>Id</dt>
          <dd class="mono">{webhook.id}</dd>
        </dl>
        <form method="post" action={DASHBOARD_PATHS.webhookTest(webhook.id)} class="actions">
          <CsrfField session={session} />
          <button type="submit">Send a test event</button>
        </form>
      </div>
      <h2>Delivery log</h2>
      {attempts.data.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>Delivery attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
                <th scope="col">Response code</th>
                <th scope="col" class="num">
                  Duration
                </th>
                <th scope="col">Next attempt</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {attempts.data.map((attempt) => {
                const newest = !seen.has(attempt.deliveryId);
                seen.add(attempt.deliveryId);
                return (
                  <tr data-delivery-id={attempt.deliveryId} data-outcome={attempt.outcome}>
                    <td>{utc(attempt.attemptedAt)}</td>
                    <td>
                      {attempt.eventType}
                      <span class="hint mono">{attempt.eventId}</span>
                    </td>
                    <td>{attempt.attempt}</td>
                    <td>
                      <span class={`status status-${attempt.outcome.toLowerCase()}`}>{attempt.outcome}</span>
                      {attempt.error ? <span class="hint">{attempt.error}</span> : null}
                    </td>
                    <td>{attempt.statusCode === null ? 'no answer' : String(attempt.statusCode)}</td>
                    <td class="num">{`${attempt.durationMs} ms`}</td>
                    <td>{attempt.nextAttemptAt ? utc(attempt.nextAttemptAt) : '—'}</td>
                    <td>
                      {newest ? (
                        <form method="post" action={DASHBOARD_PATHS.webhookResend(webhook.id, attempt.deliveryId)}>
                          <CsrfField session={session} />
                          <button type="submit" class="secondary">
                            Resend<span class="visually-hidden"> {attempt.eventType}</span>
                          </button>
                        </form>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <NextPage path={DASHBOARD_PATHS.webhook(webhook.id)} query={{}} cursor={attempts.cursor} />
    </DashboardLayout>
  );
}

const listQuery = (request: DashboardRequest) => ({
  limit: '50',
  ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
});

async function createWebhook(request: DashboardRequest): Promise<DashboardAnswer> {
  const stepUp = stepUpFirst(request, DASHBOARD_PATHS.newWebhook);
  if (stepUp) return stepUp;
  const form = request.form();
  const checked = new Set(
    [...form.keys()].filter((name) => name.startsWith(EVENT_FIELD)).map((name) => name.slice(EVENT_FIELD.length)),
  );
  const description = filled(form, 'description');
  const body = {
    url: filled(form, 'url') ?? '',
    // "All events" wins over any single name ticked with it.
    events: checked.has(ALL_EVENTS) ? [ALL_EVENTS] : [...checked],
    ...(description ? { description } : {}),
  };
  try {
    const created = await request.call<CreatedWebhookView>('createWebhook', { body });
    return dashboardPage(200, <CreatedWebhookPage request={request} created={created} />);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR') throw error;
    const field = invalidField(error);
    const state = {
      error: validationText(error, LABELS),
      field: field !== undefined && /^\d+$/.test(field) ? 'events' : field,
      url: form.get('url'),
      description,
      checked,
    };
    return dashboardPage(400, <NewWebhookPage request={request} state={state} />);
  }
}

export const WEBHOOK_ROUTES = [
  settingsRoute(/^\/dashboard\/webhooks$/, FRAME, {
    get: async (request) => {
      const page = await request.call<ListPage<WebhookView>>('listWebhooks', { query: listQuery(request) });
      return dashboardPage(200, <WebhooksPage request={request} page={page} />);
    },
  }),
  settingsRoute(/^\/dashboard\/webhooks\/new$/, NEW_FRAME, {
    get: async (request) => {
      const stepUp = stepUpFirst(request, DASHBOARD_PATHS.newWebhook);
      if (stepUp) return stepUp;
      // The list's permission check first: a role without `admin` gets the operation's 403.
      await request.call('listWebhooks', { query: { limit: '1' } });
      return dashboardPage(200, <NewWebhookPage request={request} />);
    },
    post: createWebhook,
  }),
  settingsRoute(/^\/dashboard\/webhooks\/([^/]+)$/, DETAIL_FRAME, {
    get: async (request, [raw]) => {
      const params = { id: segment(raw) };
      const webhook = await request.call<WebhookView>('getWebhook', { params });
      const attempts = await request.call<ListPage<DeliveryAttemptView>>('listWebhookDeliveries', {
        params,
        query: listQuery(request),
      });
      return dashboardPage(200, <WebhookPage request={request} webhook={webhook} attempts={attempts} />);
    },
  }),
  settingsRoute(/^\/dashboard\/webhooks\/([^/]+)\/test$/, DETAIL_FRAME, {
    get: (_, [raw]) => Promise.resolve(seeOther(DASHBOARD_PATHS.webhook(segment(raw)))),
    post: async (request, [raw]) => {
      const id = segment(raw);
      await request.call('testWebhook', { params: { id } });
      return seeOther(`${DASHBOARD_PATHS.webhook(id)}?done=test`);
    },
  }),
  settingsRoute(/^\/dashboard\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/resend$/, DETAIL_FRAME, {
    get: (_, [raw]) => Promise.resolve(seeOther(DASHBOARD_PATHS.webhook(segment(raw)))),
    post: async (request, [raw, delivery]) => {
      const id = segment(raw);
      await request.call('retryWebhookDelivery', { params: { id, deliveryId: segment(delivery) } });
      return seeOther(`${DASHBOARD_PATHS.webhook(id)}?done=resent`);
    },
  }),
];
