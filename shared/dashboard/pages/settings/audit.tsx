import { AUDIT_ACTIONS } from '../../../domain/audit/actions.js';
import type { AuditEntryView } from '../../../domain/audit/audit-view.js';
import { ApiError } from '../../../domain/errors.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { DashboardLayout, dashboardPage } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { Alert, NextPage, settingsRoute, utc, validationText, type ListPage } from './common.js';
import { csvOf } from './csv.js';
import { withThousands } from '../../../domain/text.js';

const FRAME = { title: 'Audit log', current: DASHBOARD_PATHS.audit };
/** The CSV holds at most this many entries, the newest of the filtered range (docs/api.md "Dashboard"). */
export const AUDIT_CSV_MAX_ROWS = 5_000;
const CSV_PAGE = 100;
const PAGE_SIZE = '50';

/** The page's filters as they stand in its URL (a GET form), and the operation's query names. */
const FILTERS = [
  { name: 'action', query: 'action', label: 'Action' },
  { name: 'actor', query: 'actorId', label: 'Actor (user, key or job id)' },
  { name: 'resource', query: 'resource', label: 'Resource id' },
  { name: 'from', query: 'from', label: 'From (UTC date)' },
  { name: 'to', query: 'to', label: 'To (UTC date, inclusive)' },
] as const;
type FilterName = (typeof FILTERS)[number]['name'];
type Filters = Partial<Record<FilterName, string>>;
const LABELS: Record<string, string> = Object.fromEntries(FILTERS.map((f) => [f.query, f.label]));

function filtersOf(request: DashboardRequest): Filters {
  const filters: Filters = {};
  for (const { name } of FILTERS) {
    const value = request.query[name]?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

function operationQuery(filters: Filters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const { name, query: key } of FILTERS) if (filters[name]) query[key] = filters[name];
  return query;
}

const searchOf = (filters: Filters) => {
  const params = new URLSearchParams(Object.entries(filters) as [string, string][]);
  const text = params.toString();
  return text ? `?${text}` : '';
};

function AuditPage(props: {
  request: DashboardRequest;
  filters: Filters;
  page?: ListPage<AuditEntryView>;
  error?: string;
}) {
  const { request, filters, page } = props;
  return (
    <DashboardLayout session={request.session} title={FRAME.title} current={FRAME.current}>
      <form method="get" action={DASHBOARD_PATHS.audit} class="card filters" aria-label="Filter the audit log">
        <div class="row">
          <div class="field">
            <label for="audit-action">Action</label>
            <select id="audit-action" name="action">
              <option value="">Any action</option>
              {AUDIT_ACTIONS.map((action) => (
                <option value={action} selected={filters.action === action}>
                  {action}
                </option>
              ))}
            </select>
          </div>
          {FILTERS.filter((f) => f.name !== 'action').map((f) => (
            <div class="field">
              <label for={`audit-${f.name}`}>{f.label}</label>
              <input
                id={`audit-${f.name}`}
                name={f.name}
                type={f.name === 'from' || f.name === 'to' ? 'date' : 'text'}
                maxlength={f.name === 'resource' || f.name === 'actor' ? 300 : 64}
                autocomplete="off"
                value={filters[f.name] ?? ''}
              />
            </div>
          ))}
        </div>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <a class="button secondary" href={DASHBOARD_PATHS.audit}>
            Clear filters
          </a>
        </div>
      </form>
      {props.error ? <Alert code="VALIDATION_ERROR">{props.error}</Alert> : null}
      <p>
        <a href={`${DASHBOARD_PATHS.auditCsv}${searchOf(filters)}`} download>
          Download CSV of these filters
        </a>
        <span class="hint">
          Times in UTC, newest first, at most {withThousands(AUDIT_CSV_MAX_ROWS)} entries: narrow the dates for more.
        </span>
      </p>
      {page === undefined ? null : page.data.length === 0 ? (
        <p>No entries match.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>Audit entries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Resource</th>
                <th scope="col">IP address</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((entry) => (
                <tr data-audit-id={entry.id}>
                  <td>{utc(entry.createdAt)}</td>
                  <td>
                    {entry.actorType}
                    <span class="hint mono">{entry.actorId}</span>
                  </td>
                  <td class="mono">{entry.action}</td>
                  <td>
                    {entry.resource}
                    <span class="hint mono">{entry.resourceId}</span>
                  </td>
                  <td class="mono">{entry.ipAddress}</td>
                  <td class="mono details">{detailsOf(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page ? <NextPage path={DASHBOARD_PATHS.audit} query={filters} cursor={page.cursor} /> : null}
    </DashboardLayout>
  );
}

const detailsOf = (entry: AuditEntryView) =>
  Object.entries(entry.metadata)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');

/** A refusal of the filters (a bad date, a stale cursor) is the page again with the reason. */
async function refusedFilters(error: unknown, show: (message: string) => DashboardAnswer) {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR') throw error;
  return show(validationText(error, { ...LABELS, cursor: 'Page' }));
}

async function auditPage(request: DashboardRequest): Promise<DashboardAnswer> {
  const filters = filtersOf(request);
  const query = {
    ...operationQuery(filters),
    limit: PAGE_SIZE,
    ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
  };
  try {
    const page = await request.call<ListPage<AuditEntryView>>('listAuditLogs', { query });
    return dashboardPage(200, <AuditPage request={request} filters={filters} page={page} />);
  } catch (error) {
    return refusedFilters(error, (message) =>
      dashboardPage(400, <AuditPage request={request} filters={filters} error={message} />),
    );
  }
}

const CSV_HEADER = [
  'createdAt',
  'id',
  'actorType',
  'actorId',
  'action',
  'resource',
  'resourceId',
  'ipAddress',
  'metadata',
];

const csvRow = (entry: AuditEntryView) => [
  entry.createdAt,
  entry.id,
  entry.actorType,
  entry.actorId,
  entry.action,
  entry.resource,
  entry.resourceId,
  entry.ipAddress,
  JSON.stringify(entry.metadata),
];

/** The filtered range as CSV: pages of the same query, newest first, up to the cap. */
async function auditCsv(request: DashboardRequest): Promise<DashboardAnswer> {
  const filters = filtersOf(request);
  const rows: string[][] = [];
  let cursor: string | undefined;
  let truncated = false;
  try {
    do {
      const query = { ...operationQuery(filters), limit: String(CSV_PAGE), ...(cursor ? { cursor } : {}) };
      const page = await request.call<ListPage<AuditEntryView>>('listAuditLogs', { query });
      const room = AUDIT_CSV_MAX_ROWS - rows.length;
      for (const entry of page.data.slice(0, room)) rows.push(csvRow(entry));
      cursor = page.cursor ?? undefined;
      truncated = page.data.length > room || (rows.length === AUDIT_CSV_MAX_ROWS && cursor !== undefined);
    } while (cursor && rows.length < AUDIT_CSV_MAX_ROWS);
  } catch (error) {
    return refusedFilters(error, (message) =>
      dashboardPage(400, <AuditPage request={request} filters={filters} error={message} />),
    );
  }
  const environment = request.session.environment === 'PRODUCTION' ? 'live' : 'sandbox';
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '');
  return {
    status: 200,
    body: csvOf(CSV_HEADER, rows),
    contentType: 'text/csv; charset=utf-8',
    headers: {
      'Content-Disposition': `attachment; filename="audit-log-${environment}-${stamp}Z.csv"`,
      'X-Export-Truncated': truncated ? 'true' : 'false',
    },
  };
}

export const AUDIT_ROUTES = [
  settingsRoute(/^\/dashboard\/audit$/, FRAME, { get: auditPage }),
  settingsRoute(/^\/dashboard\/audit\.csv$/, FRAME, { get: auditCsv }),
];
