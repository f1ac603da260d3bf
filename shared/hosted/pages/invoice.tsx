import { Layout, Notice } from '../layout.js';
import { dateTime, usd } from '../format.js';
import type { PayableInvoiceView, UsdcPaymentView } from '../views.js';
import { InvoiceSummary } from './invoice-parts.js';

export interface InvoicePaths {
  invoice: string;
  checkout: string;
  receipt: string;
  usdc: string;
}

/**
 * The invoice page: facts, lines, total and status; while it is open, the ways to pay (card or
 * bank account on the checkout page; USDC when the catalog offers it: `usdcAvailable`).
 */
export function InvoicePage(props: {
  invoice: PayableInvoiceView;
  paths: InvoicePaths;
  usdcAvailable: boolean;
  usdc?: UsdcPaymentView | undefined;
}) {
  const { invoice, paths } = props;
  const open = invoice.status === 'FINALIZED';
  const title = invoice.number ? `Invoice ${invoice.number}` : 'Invoice';
  return (
    <Layout title={title} merchantName={invoice.merchantName} environment={invoice.environment}>
      {invoice.pendingPayment ? (
        <Notice>
          <p>
            A bank payment is on its way. The invoice is marked paid when the bank transfer settles (usually within a
            few business days).
          </p>
        </Notice>
      ) : null}
      <InvoiceSummary invoice={invoice} />
      {open && !invoice.pendingPayment ? (
        <section class="card" aria-labelledby="pay-heading">
          <h2 id="pay-heading">Pay {usd(invoice.total)}</h2>
          <div class="actions">
            <a class="button" href={`${paths.checkout}?method=card`}>
              Pay by card
            </a>
            <a class="button secondary" href={`${paths.checkout}?method=bank`}>
              Pay by bank account
            </a>
          </div>
        </section>
      ) : null}
      {open && props.usdcAvailable ? <UsdcSection path={paths.usdc} usdc={props.usdc} /> : null}
      {invoice.status === 'PAID' || invoice.status === 'REFUNDED' ? (
        <section class="card" aria-labelledby="paid-heading">
          <h2 id="paid-heading">{invoice.status === 'PAID' ? 'Paid' : 'Refunded'}</h2>
          {invoice.paidAt ? <p>Paid on {dateTime(invoice.paidAt)}.</p> : null}
          <p>
            <a href={paths.receipt}>View the receipt</a>
          </p>
        </section>
      ) : null}
    </Layout>
  );
}

/**
 * Paying in USDC: a button asks for this invoice's deposit address, then the page shows it with
 * the exact amount to send (the operation is the collection area's; the section is rendered only
 * when the catalog has it).
 */
function UsdcSection(props: { path: string; usdc?: UsdcPaymentView | undefined }) {
  return (
    <section class="card" aria-labelledby="usdc-heading">
      <h2 id="usdc-heading">Pay with USDC</h2>
      {props.usdc ? (
        <dl class="facts">
          <dt>Send exactly</dt>
          <dd class="mono">{props.usdc.amount} USDC</dd>
          {props.usdc.chain ? (
            <>
              <dt>Network</dt>
              <dd>{props.usdc.chain}</dd>
            </>
          ) : null}
          <dt>To address</dt>
          <dd class="mono">{props.usdc.address}</dd>
        </dl>
      ) : (
        <form method="post" action={props.path} data-busy-label="Getting the address…">
          <p>Get a deposit address for this invoice. Send the exact amount shown: any other amount is not matched.</p>
          <button type="submit" class="secondary">
            Show the USDC address
          </button>
        </form>
      )}
    </section>
  );
}
