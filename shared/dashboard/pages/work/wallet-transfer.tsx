import { randomUUID } from 'node:crypto';
import type { ApiError } from '../../../domain/errors.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { CsrfField, may, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { attempt, type WalletRow } from './parts.js';

/** Moving money between two wallets of the organization (an internal transfer) from a wallet's page. */

export const WALLET_NOTICES: Readonly<Record<string, string>> = {
  transferred: 'Money moved: the transfer is listed below.',
};

/** The form (roles holding `payments:write`): to which wallet, how much, a note; an idempotency key made with the page. */
export function TransferForm(props: {
  request: DashboardRequest;
  from: WalletRow;
  wallets: readonly WalletRow[];
  label: (wallet: WalletRow) => string;
}) {
  const targets = props.wallets.filter((w) => w.id !== props.from.id && w.status === 'ACTIVE');
  if (!may(props.request.session, 'payments:write') || props.from.status !== 'ACTIVE' || targets.length === 0)
    return null;
  return (
    <section class="card" aria-labelledby="transfer-heading">
      <h2 id="transfer-heading">Move money to another wallet</h2>
      <form method="post" action={DASHBOARD_PATHS.wallet(props.from.id)} data-busy-label="Moving…">
        <CsrfField session={props.request.session} />
        <input type="hidden" name="action" value="transfer" />
        <input type="hidden" name="idempotencyKey" value={randomUUID()} />
        <div class="row">
          <div class="field">
            <label for="transfer-to">To wallet</label>
            <select id="transfer-to" name="toWalletId" required>
              {targets.map((w) => (
                <option value={w.id}>{props.label(w)}</option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="transfer-amount">Amount (USD)</label>
            <input id="transfer-amount" name="amount" required inputmode="decimal" maxlength={20} />
          </div>
          <div class="field">
            <label for="transfer-description">Description (optional)</label>
            <input id="transfer-description" name="description" maxlength={500} />
          </div>
        </div>
        <button type="submit">Move money</button>
      </form>
    </section>
  );
}

/** The wallet page's POST: the transfer, then 303 back with a notice; a refusal is the page with its alert. */
export async function walletAction(
  request: DashboardRequest,
  id: string,
  refused: (error: ApiError | string, status: number) => Promise<DashboardAnswer>,
): Promise<DashboardAnswer> {
  const form = request.form();
  if (form.get('action') !== 'transfer') return refused('Choose an action (field: action).', 400);
  const description = (form.get('description') ?? '').trim();
  const result = await attempt(request, 'createInternalTransfer', {
    body: {
      fromWalletId: id,
      toWalletId: form.get('toWalletId') ?? '',
      amount: (form.get('amount') ?? '').trim(),
      ...(description ? { description } : {}),
      idempotencyKey: form.get('idempotencyKey') ?? '',
    },
  });
  return result.ok
    ? seeOther(`${DASHBOARD_PATHS.wallet(id)}?done=transferred`)
    : refused(result.error, result.error.status);
}
