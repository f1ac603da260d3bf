/** How often the approvals inbox asks for new rows while its tab is visible (the issue: every 10-15 s). */
export const APPROVALS_POLL_MS = 12_000;

/**
 * The work pages' enhancements, part of the dashboard's one ES module (shared/dashboard/assets.ts).
 * Enhancement only: every form works without it. Each part looks for its own data- attributes and
 * does nothing on pages without them.
 *
 * 1. The approvals inbox (`[data-approvals-poll]`): every 12 s while the tab is visible, a GET of the
 *    poll path with If-None-Match (304: nothing changed); new pending rows are inserted at the top
 *    and announced in the polite live region, rows decided elsewhere are marked and their checkbox
 *    disabled; focus never moves.
 * 2. Bulk approve (`form[data-bulk-approve]`): a <dialog> with the count and the exact total (cents
 *    as BigInt) of the checked rows; confirming posts the form with `confirm=yes` (without the
 *    script, the server's confirm page asks instead).
 */
export const WORK_SCRIPT = `
{
  const section = document.querySelector('[data-approvals-poll]');
  const rows = section && section.querySelector('tbody[data-approval-rows]');
  if (section && rows) {
    const url = section.dataset.approvalsPoll;
    const live = section.querySelector('[data-approvals-live]');
    const total = section.querySelector('[data-pending-total]');
    let etag = section.dataset.etag || '';
    let timer = 0;
    const schedule = () => { clearTimeout(timer); timer = setTimeout(poll, ${APPROVALS_POLL_MS}); };
    const apply = (answer) => {
      const known = new Map([...rows.querySelectorAll('tr[data-approval-id]')].map((row) => [row.dataset.approvalId, row]));
      const current = new Set(answer.rows.map((row) => row.id));
      let added = 0;
      for (const row of [...answer.rows].reverse()) {
        if (known.has(row.id)) continue;
        const template = document.createElement('template');
        template.innerHTML = row.html.trim();
        const element = template.content.firstElementChild;
        if (!element) continue;
        element.classList.add('new-row');
        element.dataset.new = 'true';
        rows.prepend(element);
        added += 1;
      }
      let gone = 0;
      for (const [id, row] of known) {
        if (current.has(id) || row.dataset.gone) continue;
        row.dataset.gone = 'true';
        row.classList.add('gone');
        const box = row.querySelector('input[type="checkbox"]');
        if (box) { box.checked = false; box.disabled = true; }
        const mark = document.createElement('span');
        mark.className = 'muted';
        mark.textContent = ' (decided elsewhere)';
        row.lastElementChild && row.lastElementChild.append(mark);
        gone += 1;
      }
      if (total) total.textContent = answer.total;
      const empty = section.querySelector('[data-empty]');
      if (empty && answer.count > 0) empty.hidden = true;
      const said = [];
      if (added) said.push(added === 1 ? '1 new approval is waiting.' : added + ' new approvals are waiting.');
      if (gone) said.push(gone === 1 ? '1 approval was decided elsewhere.' : gone + ' approvals were decided elsewhere.');
      if (said.length && live) live.textContent = said.join(' ') + ' ' + answer.count + ' pending, ' + answer.total + '.';
    };
    async function poll() {
      if (document.visibilityState !== 'visible') return;
      try {
        const response = await fetch(url, {
          headers: { 'If-None-Match': etag, Accept: 'application/json' },
          credentials: 'same-origin',
          cache: 'no-store',
        });
        if (response.status === 200) {
          etag = response.headers.get('ETag') || etag;
          apply(await response.json());
        }
      } catch (error) {
        // Offline for a moment: the next round asks again.
      }
      schedule();
    }
    document.addEventListener('visibilitychange', () => {
      clearTimeout(timer);
      if (document.visibilityState === 'visible') poll();
    });
    schedule();
  }
}
{
  const form = document.querySelector('form[data-bulk-approve]');
  const dialog = form && form.querySelector('dialog[data-bulk-dialog]');
  if (form && dialog && typeof dialog.showModal === 'function') {
    const max = Number(form.dataset.max || 25);
    const summary = dialog.querySelector('[data-bulk-summary]');
    const confirm = dialog.querySelector('[data-bulk-confirm]');
    const cancel = dialog.querySelector('[data-bulk-cancel]');
    const centsOf = (amount) => {
      const [whole, fraction = ''] = String(amount).split('.');
      return BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
    };
    const usd = (cents) => (cents / 100n) + '.' + String(cents % 100n).padStart(2, '0') + ' USD';
    let confirmed = false;
    form.addEventListener('submit', (event) => {
      if (confirmed) return;
      event.preventDefault();
      const checked = [...form.querySelectorAll('input[type="checkbox"]:checked')];
      if (checked.length === 0 || checked.length > max) {
        summary.textContent = checked.length === 0
          ? 'Select at least one approval first.'
          : 'Select at most ' + max + ' approvals at once; ' + checked.length + ' are selected.';
        confirm.hidden = true;
      } else {
        const cents = checked.reduce((sum, box) => sum + centsOf(box.closest('tr').dataset.amount), 0n);
        summary.textContent = 'Approve ' + checked.length + (checked.length === 1 ? ' payment, ' : ' payments, ') + usd(cents) + ' in total?';
        confirm.hidden = false;
        confirm.textContent = 'Approve ' + checked.length + ' (' + usd(cents) + ')';
      }
      dialog.showModal();
    });
    confirm.addEventListener('click', () => {
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'confirm';
      field.value = 'yes';
      form.append(field);
      confirmed = true;
      dialog.close();
      confirm.disabled = true;
      form.requestSubmit();
    });
    cancel.addEventListener('click', () => dialog.close());
  }
}
`;
