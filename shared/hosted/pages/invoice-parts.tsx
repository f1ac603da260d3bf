import { day, STATUS_LABEL, usd } from '../format.js';
import type { PayableInvoiceView } from '../views.js';

/** The invoice's facts and lines: the same block on the invoice, checkout and receipt pages. */
export function InvoiceSummary(props: { invoice: PayableInvoiceView }) {
  const { invoice } = props;
  const status = invoice.status.toLowerCase();
  return (
    <section class="card" aria-labelledby="summary-heading">
      <h2 id="summary-heading">Invoice {invoice.number ?? ''}</h2>
      <dl class="facts">
        <dt>From</dt>
        <dd>{invoice.merchantName}</dd>
        {invoice.customerName ? (
          <>
            <dt>To</dt>
            <dd>{invoice.customerName}</dd>
          </>
        ) : null}
        <dt>Status</dt>
        <dd>
          <span class={`status status-${status}`}>{STATUS_LABEL[invoice.status]}</span>
        </dd>
        {invoice.dueDate ? (
          <>
            <dt>Due</dt>
            <dd>{day(invoice.dueDate)}</dd>
          </>
        ) : null}
      </dl>
      {invoice.memo ? <p>{invoice.memo}</p> : null}
      <table>
        <caption class="visually-hidden">Invoice lines</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" class="num">
              Qty
            </th>
            <th scope="col" class="num">
              Unit price
            </th>
            <th scope="col" class="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lineItems.map((line) => (
            <tr>
              <td>{line.description}</td>
              <td class="num">{line.quantity}</td>
              <td class="num">{usd(line.unitPrice)}</td>
              <td class="num">{usd(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colspan={3}>
              Total ({invoice.currency})
            </th>
            <td class="num">{usd(invoice.total)}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
