import type { Child } from 'hono/jsx';

/** The two kinds of payment method a page takes, as `?method=` values. */
export type MethodChoice = 'card' | 'bank';

export const METHOD_LABEL: Readonly<Record<MethodChoice, string>> = { card: 'Card', bank: 'US bank account' };

/** What a form keeps after a refusal: never a number or a CVC, only what is not secret. */
export interface KeptValues {
  expMonth?: string;
  expYear?: string;
  accountHolderName?: string;
  accountType?: string;
}

/** The field an error names (`details.field` of a VALIDATION_ERROR), to mark it invalid. */
export type InvalidField = string | undefined;

/** Links between the forms of a page (`?method=` values; plain links: no script needed). */
export function ChoiceTabs<Choice extends string>(props: {
  path: string;
  current: Choice;
  labels: Readonly<Record<Choice, string>>;
  /** What the choice is about, for screen readers (the nav's label). */
  name: string;
}) {
  return (
    <nav aria-label={props.name}>
      <ul class="tabs">
        {(Object.keys(props.labels) as Choice[]).map((choice) => (
          <li>
            <a href={`${props.path}?method=${choice}`} aria-current={props.current === choice ? 'page' : undefined}>
              {props.labels[choice]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Links between the card and the bank account form. */
export function MethodTabs(props: { path: string; current: MethodChoice }) {
  return <ChoiceTabs path={props.path} current={props.current} labels={METHOD_LABEL} name="Payment method" />;
}

export function Field(props: { id: string; label: string; hint?: string; children?: Child }) {
  return (
    <div class="field">
      <label for={props.id}>
        {props.label}
        {props.hint ? <span class="hint">{props.hint}</span> : null}
      </label>
      {props.children}
    </div>
  );
}

export const invalid = (field: InvalidField, name: string) => (field === name ? 'true' : undefined);

export function CardFields(props: { kept: KeptValues; invalidField: InvalidField }) {
  const bad = props.invalidField;
  return (
    <fieldset>
      <legend>Card details</legend>
      <input type="hidden" name="type" value="card" />
      <Field id="number" label="Card number">
        <input
          id="number"
          name="number"
          inputmode="numeric"
          autocomplete="cc-number"
          required
          minlength={12}
          maxlength={23}
          pattern="[0-9 ]{12,23}"
          aria-invalid={invalid(bad, 'number')}
        />
      </Field>
      <div class="row">
        <Field id="expMonth" label="Expiry month" hint="MM">
          <input
            id="expMonth"
            name="expMonth"
            inputmode="numeric"
            autocomplete="cc-exp-month"
            required
            maxlength={2}
            pattern="[0-9]{1,2}"
            value={props.kept.expMonth}
            aria-invalid={invalid(bad, 'expMonth')}
          />
        </Field>
        <Field id="expYear" label="Expiry year" hint="YYYY">
          <input
            id="expYear"
            name="expYear"
            inputmode="numeric"
            autocomplete="cc-exp-year"
            required
            maxlength={4}
            pattern="[0-9]{4}"
            value={props.kept.expYear}
            aria-invalid={invalid(bad, 'expYear')}
          />
        </Field>
        <Field id="cvc" label="Security code" hint="CVC, 3 or 4 digits">
          <input
            id="cvc"
            name="cvc"
            inputmode="numeric"
            autocomplete="cc-csc"
            required
            maxlength={4}
            pattern="[0-9]{3,4}"
            aria-invalid={invalid(bad, 'cvc')}
          />
        </Field>
      </div>
    </fieldset>
  );
}

export function BankFields(props: { kept: KeptValues; invalidField: InvalidField }) {
  const bad = props.invalidField;
  const type = props.kept.accountType === 'savings' ? 'savings' : 'checking';
  return (
    <fieldset>
      <legend>Bank account details</legend>
      <input type="hidden" name="type" value="us_bank_account" />
      <Field id="accountHolderName" label="Account holder name">
        <input
          id="accountHolderName"
          name="accountHolderName"
          autocomplete="name"
          required
          maxlength={100}
          value={props.kept.accountHolderName}
          aria-invalid={invalid(bad, 'accountHolderName')}
        />
      </Field>
      <BankNumberFields invalidField={bad} />
      <Field id="accountType" label="Account type">
        <select id="accountType" name="accountType" aria-invalid={invalid(bad, 'accountType')}>
          <option value="checking" selected={type === 'checking'}>
            Checking
          </option>
          <option value="savings" selected={type === 'savings'}>
            Savings
          </option>
        </select>
      </Field>
    </fieldset>
  );
}

export function PaymentFields(props: { method: MethodChoice; kept: KeptValues; invalidField: InvalidField }) {
  return props.method === 'card' ? (
    <CardFields kept={props.kept} invalidField={props.invalidField} />
  ) : (
    <BankFields kept={props.kept} invalidField={props.invalidField} />
  );
}

/**
 * The routing and account number inputs of a US bank account (the invoice checkout, the payment-method
 * pages, the payment-link claim): never prefilled, a number is never written back into a page.
 */
export function BankNumberFields(props: { invalidField: InvalidField }) {
  const bad = props.invalidField;
  return (
    <>
      <Field id="routingNumber" label="Routing number" hint="9 digits">
        <input
          id="routingNumber"
          name="routingNumber"
          inputmode="numeric"
          autocomplete="off"
          required
          maxlength={9}
          pattern="[0-9]{9}"
          aria-invalid={invalid(bad, 'routingNumber')}
        />
      </Field>
      <Field id="accountNumber" label="Account number" hint="4 to 17 digits">
        <input
          id="accountNumber"
          name="accountNumber"
          inputmode="numeric"
          autocomplete="off"
          required
          maxlength={17}
          pattern="[0-9]{4,17}"
          aria-invalid={invalid(bad, 'accountNumber')}
        />
      </Field>
    </>
  );
}
