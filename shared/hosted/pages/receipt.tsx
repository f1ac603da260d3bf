import { Layout } from '../layout.js';
import { dateTime, usd } from '../format.js';
import type { PayableInvoiceView } from '../views.js';
import { InvoiceSummary } from './invoice-parts.js';

const METHOD_NAME: Readonly<Record<string, string>> = {
  card: 'Card',
  us_bank_account: 'US bank account',
  usdc: 'USDC',
  wallet: 'Allowance wallet',
};

/** The receipt of a PAID (or REFUNDED) invoice. */
export function ReceiptPage(props: { invoice: PayableInvoiceView; invoicePath: string }) {
  const { invoice } = props;
  const refunded = invoice.status === 'REFUNDED';
  return (
    <Layout
      title={refunded ? 'Receipt (refunded)' : 'Receipt'}
      merchantName={invoice.merchantName}
      environment={invoice.environment}
    >
      <section class="card" aria-labelledby="receipt-heading">
        <h2 id="receipt-heading">{refunded ? 'Payment refunded' : 'Payment received'}</h2>
        <dl class="facts">
          <dt>Amount paid</dt>
          <dd>{usd(invoice.amountPaid)}</dd>
          {invoice.paidAt ? (
            <>
              <dt>Paid on</dt>
              <dd>{dateTime(invoice.paidAt)}</dd>
            </>
          ) : null}
          {invoice.paymentMethodType ? (
            <>
              <dt>Paid with</dt>
              <dd>{METHOD_NAME[invoice.paymentMethodType] ?? invoice.paymentMethodType}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <InvoiceSummary invoice={invoice} />
      <p>
        <a href={props.invoicePath}>Back to the invoice</a>
      </p>
    </Layout>
  );
}
