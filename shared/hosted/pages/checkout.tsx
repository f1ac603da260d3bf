import { Alert, Layout } from '../layout.js';
import { usd } from '../format.js';
import type { PayableInvoiceView } from '../views.js';
import { InvoiceSummary } from './invoice-parts.js';
import { MethodTabs, PaymentFields, type InvalidField, type KeptValues, type MethodChoice } from './payment-fields.js';

/** The checkout page of an open invoice: the card or bank account form, a decline shown in an alert. */
export function CheckoutPage(props: {
  invoice: PayableInvoiceView;
  path: string;
  invoicePath: string;
  method: MethodChoice;
  error?: string | undefined;
  invalidField?: InvalidField;
  kept?: KeptValues;
}) {
  const { invoice } = props;
  return (
    <Layout title={`Pay ${usd(invoice.total)}`} merchantName={invoice.merchantName} environment={invoice.environment}>
      {props.error ? (
        <Alert>
          <p>{props.error}</p>
        </Alert>
      ) : null}
      <InvoiceSummary invoice={invoice} />
      <section class="card" aria-labelledby="method-heading">
        <h2 id="method-heading">How would you like to pay?</h2>
        <MethodTabs path={props.path} current={props.method} />
        <form method="post" action={`${props.path}?method=${props.method}`} data-busy-label="Paying…">
          <PaymentFields method={props.method} kept={props.kept ?? {}} invalidField={props.invalidField} />
          <div class="actions">
            <button type="submit">Pay {usd(invoice.total)}</button>
            <a class="button secondary" href={props.invoicePath}>
              Back to the invoice
            </a>
          </div>
        </form>
      </section>
    </Layout>
  );
}
