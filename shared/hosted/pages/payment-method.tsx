import { Alert, Layout, Notice } from '../layout.js';
import { brandName, dateTime } from '../format.js';
import type { MethodSummary, PaymentMethodSessionView } from '../views.js';
import { MethodTabs, PaymentFields, type InvalidField, type KeptValues, type MethodChoice } from './payment-fields.js';

export function methodText(method: MethodSummary): string {
  return method.type === 'card'
    ? `${brandName(method.brand)} ending in ${method.last4}`
    : `${method.brand || 'Bank account'} ending in ${method.last4}`;
}

export interface PaymentMethodFormState {
  path: string;
  method: MethodChoice;
  error?: string | undefined;
  invalidField?: InvalidField;
  kept?: KeptValues;
}

/** The setup or update page of an OPEN session: the card or bank account form. */
export function PaymentMethodPage(props: { session: PaymentMethodSessionView; form: PaymentMethodFormState }) {
  const { session, form } = props;
  const update = session.kind === 'update';
  const title = update ? 'Update your payment method' : 'Add a payment method';
  return (
    <Layout title={title} merchantName={session.merchantName} environment={session.environment}>
      {form.error ? (
        <Alert>
          <p>{form.error}</p>
        </Alert>
      ) : null}
      <div class="card">
        <p>
          {session.merchantName} asks {session.customerName ? `${session.customerName}` : 'you'} to{' '}
          {update ? 'replace the payment method it charges' : 'save a payment method it can charge'}.
        </p>
        {update && session.currentMethod ? <p>Current method: {methodText(session.currentMethod)}.</p> : null}
        <p>This link works once, until {dateTime(session.expiresAt)}.</p>
      </div>
      <div class="card">
        <MethodTabs path={form.path} current={form.method} />
        <form method="post" action={`${form.path}?method=${form.method}`} data-busy-label="Saving…">
          <PaymentFields method={form.method} kept={form.kept ?? {}} invalidField={form.invalidField} />
          <div class="actions">
            <button type="submit">{update ? 'Replace payment method' : 'Save payment method'}</button>
          </div>
        </form>
      </div>
    </Layout>
  );
}

/** A COMPLETED session: the method just saved (after the redirect), else the link was used before. */
export function PaymentMethodSavedPage(props: { session: PaymentMethodSessionView }) {
  const { session } = props;
  return (
    <Layout title="Payment method saved" merchantName={session.merchantName} environment={session.environment}>
      <Notice>
        <p>
          {session.merchantName} can now charge this payment method
          {session.kind === 'update' ? ' in place of the previous one' : ''}.
        </p>
      </Notice>
      <p>You can close this page. The link can not be used again.</p>
    </Layout>
  );
}
