import type { Child } from 'hono/jsx';
import { ApiError } from '../../../domain/errors.js';
import type { DashboardAnswer, DashboardRequest, DashboardRoute } from '../../context.js';
import { DashboardLayout, dashboardPage, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';

/** The page frame of a settings page: its h1 and the navigation entry it belongs to. */
export interface SettingsFrame {
  title: string;
  current: string;
}

type Handler = (request: DashboardRequest, params: string[]) => Promise<DashboardAnswer>;

/**
 * A settings route: GET and POST handlers (another method answers 405). A refusal the role causes
 * (403) or an unknown resource (404) is answered as the page's frame with the reason in an alert, at
 * that status; other errors go to the edge.
 */
export function settingsRoute(
  pattern: RegExp,
  frame: SettingsFrame | ((params: string[]) => SettingsFrame),
  handlers: { get?: Handler; post?: Handler },
): DashboardRoute {
  return {
    pattern,
    async serve(request, params) {
      const handler = request.method === 'GET' ? handlers.get : request.method === 'POST' ? handlers.post : undefined;
      const framed = typeof frame === 'function' ? frame(params) : frame;
      if (!handler)
        return refusalPage(request, framed, 405, 'This page does not take that method.', 'METHOD_NOT_ALLOWED');
      try {
        return await handler(request, params);
      } catch (error) {
        if (error instanceof ApiError && (error.status === 403 || error.status === 404))
          return refusalPage(request, framed, error.status, refusalText(request, error), error.code);
        throw error;
      }
    },
  };
}

/** A refusal in words: a permission the role lacks names the role and the permission. */
export function refusalText(request: DashboardRequest, error: ApiError): string {
  if (error.code !== 'PERMISSION_DENIED') return error.message;
  const missing = error.details?.missing ?? error.details?.required;
  const needs = Array.isArray(missing) ? missing.join(', ') : typeof missing === 'string' ? missing : undefined;
  const role = request.session.role;
  return needs
    ? `Your role (${role}) does not allow this: it needs the permission ${needs}. Ask an owner or admin.`
    : `Your role (${role}) does not allow this. Ask an owner or admin.`;
}

function refusalPage(request: DashboardRequest, frame: SettingsFrame, status: number, message: string, code: string) {
  return dashboardPage(
    status,
    <DashboardLayout session={request.session} title={frame.title} current={frame.current}>
      <Alert code={code}>{message}</Alert>
      <p>
        <a href={DASHBOARD_PATHS.overview}>Back to the overview</a>
      </p>
    </DashboardLayout>,
  );
}

/** An error for the person at the page; `code` (data-error-code) is the API's error code, for tests. */
export function Alert(props: { code?: string; children?: Child }) {
  return (
    <div class="alert" role="alert" data-error-code={props.code}>
      {props.children}
    </div>
  );
}

/** The notice a PRG redirect asked for (`?done=...`), from a page's own table of known notices. */
export function Notice(props: { request: DashboardRequest; notices: Readonly<Record<string, string>> }) {
  const done = props.request.query.done;
  const text = done === undefined ? undefined : props.notices[done];
  if (!text) return null;
  return (
    <div class="notice" role="status" data-notice={done}>
      {text}
    </div>
  );
}

/** `2026-11-28T09:41:07.318Z` -> `2026-11-28 09:41 UTC` (empty for null). */
export function utc(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Step-up (decisions 12): showing a secret or going live asks for the second factor again. A user
 * whose role may do the action and who has not proven it within the window is sent to the verify
 * page, which comes back to `next`; a role that may not is left to the operation's own 403.
 */
export function stepUpFirst(request: DashboardRequest, next: string): DashboardAnswer | undefined {
  if (!request.session.permissions.includes('admin') || request.recentlyVerified()) return undefined;
  return seeOther(DASHBOARD_PATHS.verify(next));
}

/** A VALIDATION_ERROR's field, as the last part of its path (`address.city` -> `city`). */
export function invalidField(error: ApiError): string | undefined {
  const field = error.details?.field;
  return typeof field === 'string' ? field.split('.').pop() : undefined;
}

/** A VALIDATION_ERROR for the person at the form: the field's label and the reason. */
export function validationText(error: ApiError, labels: Readonly<Record<string, string>>): string {
  const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
  const last = field?.split('.').pop();
  const label = last ? labels[last] : undefined;
  const reason =
    field && error.message.startsWith(`${field}: `) ? error.message.slice(field.length + 2) : error.message;
  return label ? `${label}: ${reason}.` : `${reason}.`;
}

/** The form's value of a field, trimmed, or undefined when empty. */
export function filled(form: Map<string, string>, name: string): string | undefined {
  const value = form.get(name)?.trim();
  return value ? value : undefined;
}

/** A link to the next page of a list, keeping the page's filters (cursor in the URL). */
export function NextPage(props: { path: string; query: Record<string, string | undefined>; cursor: string | null }) {
  if (!props.cursor) return null;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(props.query)) if (value) params.set(name, value);
  params.set('cursor', props.cursor);
  return (
    <p>
      <a href={`${props.path}?${params.toString()}`} rel="next">
        Next page (older)
      </a>
    </p>
  );
}

/** The page shape every list operation answers. */
export interface ListPage<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
}

/** A path segment as the id it names (a malformed escape names nothing). */
export function segment(raw: string | undefined): string {
  try {
    return decodeURIComponent(raw ?? '');
  } catch {
    return '';
  }
}
