import type { ApiError } from '../../../domain/errors.js';
import { withThousands } from '../../../domain/text.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { DashboardLayout, dashboardPage } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import type { Page } from './approval-rows.js';
import { Alert, attempt, Facts, money, Status, Table, when } from './parts.js';

/** Wallets: balances (available, held, pending), a statement between dates with its CSV, transfers. */

export interface WalletRow {
  id: string;
  name: string;
  agentName: string | null;
  walletType: string;
  isMain: boolean;
  status: string;
  balance: string;
  pendingBalance: string;
  heldBalance: string;
  currency: string;
  createdAt: string;
}

interface StatementEntry {
  transactionId: string;
  type: string;
  amount: string;
  balanceAfter: string;
  description?: string | null;
  createdAt: string;
}

interface TransferRow {
  id: string;
  direction: string;
  rail: string;
  amount: string;
  status: string;
  createdAt: string;
}

/** Rows on the statement page, and in its CSV at most (newest first within the dates). */
export const STATEMENT_PAGE_ROWS = 100;
export const STATEMENT_CSV_ROWS = 5000;
const PAGES_READ_AT_MOST = 60;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const walletLabel = (wallet: WalletRow) =>
  wallet.isMain ? `${wallet.name} (main)` : wallet.agentName ? `${wallet.agentName} (agent)` : wallet.name;

export async function walletsList(request: DashboardRequest): Promise<DashboardAnswer> {
  const wallets = await attempt<Page<WalletRow>>(request, 'listWallets', { query: { limit: '100' } });
  return dashboardPage(
    wallets.ok ? 200 : wallets.error.status,
    <DashboardLayout session={request.session} title="Wallets" current={DASHBOARD_PATHS.wallets}>
      {wallets.ok ? null : <Alert error={wallets.error} />}
      <Table caption="Wallets and their balances">
        <thead>
          <tr>
            <th scope="col">Wallet</th>
            <th scope="col">Status</th>
            <th scope="col">Available</th>
            <th scope="col">Held</th>
            <th scope="col">Pending</th>
          </tr>
        </thead>
        <tbody>
          {(wallets.ok ? wallets.value.data : []).map((w) => (
            <tr data-wallet-id={w.id}>
              <td>
                <a href={DASHBOARD_PATHS.wallet(w.id)}>{walletLabel(w)}</a>
              </td>
              <td>
                <Status status={w.status} />
              </td>
              <td class="num">{money(w.balance, w.currency)}</td>
              <td class="num">{money(w.heldBalance, w.currency)}</td>
              <td class="num">{money(w.pendingBalance, w.currency)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </DashboardLayout>,
  );
}

/** The dates of the query (`from`, `to`: YYYY-MM-DD, both included), or the field that is wrong. */
function datesOf(request: DashboardRequest): { from?: string; to?: string } | { wrong: string } {
  const dates: { from?: string; to?: string } = {};
  for (const name of ['from', 'to'] as const) {
    const value = request.query[name];
    if (value === undefined || value === '') continue;
    if (!DATE.test(value) || Number.isNaN(Date.parse(value))) return { wrong: name };
    dates[name] = value;
  }
  return dates;
}

/** The statement's entries within the dates, newest first, reading pages until the range or the cap ends. */
async function statementOf(
  request: DashboardRequest,
  id: string,
  dates: { from?: string; to?: string },
  max: number,
): Promise<{ ok: true; rows: StatementEntry[]; capped: boolean } | { ok: false; error: ApiError }> {
  const rows: StatementEntry[] = [];
  let cursor: string | undefined;
  for (let read = 0; read < PAGES_READ_AT_MOST; read += 1) {
    const page = await attempt<Page<StatementEntry>>(request, 'getStatement', {
      params: { id },
      query: { limit: '100', ...(cursor ? { cursor } : {}) },
    });
    if (!page.ok) return page;
    for (const entry of page.value.data) {
      const day = entry.createdAt.slice(0, 10);
      if (dates.to !== undefined && day > dates.to) continue;
      if (dates.from !== undefined && day < dates.from) return { ok: true, rows, capped: false };
      if (rows.length === max) return { ok: true, rows, capped: true };
      rows.push(entry);
    }
    if (!page.value.hasMore || !page.value.cursor) return { ok: true, rows, capped: false };
    cursor = page.value.cursor;
  }
  return { ok: true, rows, capped: true };
}

const rangeQuery = (dates: { from?: string; to?: string }) => {
  const query = new URLSearchParams(Object.entries(dates).filter(([, v]) => v !== undefined) as [string, string][]);
  return query.size > 0 ? `?${query.toString()}` : '';
};

export async function walletDetail(request: DashboardRequest, id: string): Promise<DashboardAnswer> {
  const dates = datesOf(request);
  const [wallet, transfers] = await Promise.all([
    attempt<WalletRow>(request, 'getWallet', { params: { id } }),
    attempt<Page<TransferRow>>(request, 'listTransfers', { query: { walletId: id, limit: '20' } }),
  ]);
  const range = 'wrong' in dates ? {} : dates;
  const statement =
    wallet.ok && !('wrong' in dates) ? await statementOf(request, id, range, STATEMENT_PAGE_ROWS) : undefined;
  const error = !wallet.ok
    ? wallet.error
    : 'wrong' in dates
      ? `Give the date as YYYY-MM-DD (field: ${dates.wrong}).`
      : statement && !statement.ok
        ? statement.error
        : undefined;
  const status = !wallet.ok ? wallet.error.status : 'wrong' in dates ? 400 : 200;
  return dashboardPage(
    status,
    <DashboardLayout
      session={request.session}
      title={wallet.ok ? `Wallet: ${walletLabel(wallet.value)}` : 'Wallet'}
      current={DASHBOARD_PATHS.wallets}
    >
      <p>
        <a href={DASHBOARD_PATHS.wallets}>Back to the wallets</a>
      </p>
      <Alert error={error} />
      {wallet.ok ? (
        <>
          <section class="card" aria-labelledby="balances-heading">
            <h2 id="balances-heading">Balances</h2>
            <Facts
              facts={[
                ['Available', money(wallet.value.balance, wallet.value.currency)],
                ['Held (card authorizations, payment links)', money(wallet.value.heldBalance, wallet.value.currency)],
                ['Pending (deposits clearing)', money(wallet.value.pendingBalance, wallet.value.currency)],
                ['Status', <Status status={wallet.value.status} />],
                ['Wallet id', <span class="mono">{wallet.value.id}</span>],
              ]}
            />
          </section>
          <section aria-labelledby="statement-heading">
            <h2 id="statement-heading">Statement</h2>
            <form method="get" action={DASHBOARD_PATHS.wallet(id)} class="row">
              <div class="field">
                <label for="from">From (UTC date)</label>
                <input id="from" name="from" type="date" value={range.from ?? ''} />
              </div>
              <div class="field">
                <label for="to">To (UTC date, included)</label>
                <input id="to" name="to" type="date" value={range.to ?? ''} />
              </div>
              <div class="actions">
                <button type="submit" class="secondary">
                  Show statement
                </button>
              </div>
            </form>
            <p>
              <a href={`${DASHBOARD_PATHS.walletStatementCsv(id)}${rangeQuery(range)}`} download>
                Download the statement as CSV
              </a>{' '}
              (UTC, at most {withThousands(STATEMENT_CSV_ROWS)} entries)
            </p>
            <StatementTable rows={statement?.ok ? statement.rows : []} />
            {statement?.ok && statement.capped ? (
              <p class="hint">
                The newest {STATEMENT_PAGE_ROWS} entries of the range; narrow the dates or download the CSV.
              </p>
            ) : null}
          </section>
          <Table caption="Transfers">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Direction</th>
                <th scope="col">Rail</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {(transfers.ok ? transfers.value.data : []).map((t) => (
                <tr data-transfer-id={t.id}>
                  <td>{when(t.createdAt)}</td>
                  <td>{t.direction}</td>
                  <td>{t.rail}</td>
                  <td class="num">{money(t.amount)}</td>
                  <td>
                    <Status status={t.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      ) : null}
    </DashboardLayout>,
  );
}

function StatementTable(props: { rows: StatementEntry[] }) {
  return (
    <Table caption="Ledger entries, newest first">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Type</th>
          <th scope="col">Amount</th>
          <th scope="col">Balance after</th>
          <th scope="col">Description</th>
          <th scope="col">Transaction</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((e) => (
          <tr data-transaction-id={e.transactionId}>
            <td>{when(e.createdAt)}</td>
            <td>{e.type}</td>
            <td class="num">{money(e.amount)}</td>
            <td class="num">{money(e.balanceAfter)}</td>
            <td>{e.description ?? '—'}</td>
            <td class="mono">{e.transactionId}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** A CSV field: quoted when needed; text a spreadsheet would run as a formula is defused with a leading `'`. */
export function csvField(value: string, text = false): string {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export async function walletStatementCsv(request: DashboardRequest, id: string): Promise<DashboardAnswer> {
  const dates = datesOf(request);
  const text = (status: number, body: string): DashboardAnswer => ({
    status,
    body,
    contentType: 'text/plain; charset=utf-8',
  });
  if ('wrong' in dates) return text(400, `Give the date as YYYY-MM-DD (field: ${dates.wrong}).\n`);
  const statement = await statementOf(request, id, dates, STATEMENT_CSV_ROWS);
  if (!statement.ok) return text(statement.error.status, `${statement.error.message} [${statement.error.code}]\n`);
  const lines = [
    'createdAt,transactionId,type,amount,balanceAfter,currency,description',
    ...statement.rows.map((e) =>
      [e.createdAt, e.transactionId, e.type, e.amount, e.balanceAfter, 'USD', csvField(e.description ?? '', true)]
        .map((v, i) => (i === 6 ? v : csvField(v)))
        .join(','),
    ),
  ];
  const name = ['statement', id, dates.from, dates.to].filter(Boolean).join('-');
  return {
    status: 200,
    contentType: 'text/csv; charset=utf-8',
    body: `${lines.join('\r\n')}\r\n`,
    headers: {
      'Content-Disposition': `attachment; filename="${name}.csv"`,
      ...(statement.capped ? { 'X-Statement-Capped': 'true' } : {}),
    },
  };
}
