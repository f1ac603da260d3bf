import type { ActivationStatusView } from '../../../domain/activation/activation-view.js';
import { ACTIVATION_REQUIREMENTS, type ActivationRequirement } from '../../../domain/activation/requirements.js';
import { ApiError } from '../../../domain/errors.js';
import type { DashboardAnswer, DashboardRequest } from '../../context.js';
import { CsrfField, DashboardLayout, dashboardPage, seeOther } from '../../layout.js';
import { DASHBOARD_PATHS } from '../../paths.js';
import { Alert, Notice, filled, invalidField, settingsRoute, stepUpFirst, validationText } from './common.js';

/** The terms version the dashboard's acceptance records (docs/api.md "Dashboard: settings"). */
export const DASHBOARD_TOS_VERSION = '2026-01';
/** The sandbox's test card for the billing method (4000 0000 0000 0002 is declined). */
export const TEST_BILLING_CARD = '4242 4242 4242 4242';

const FRAME = { title: 'Activation', current: DASHBOARD_PATHS.activation };

const REQUIREMENT_LABEL: Readonly<Record<ActivationRequirement, string>> = {
  kybVerified: 'Business verification (KYB) approved',
  tosAccepted: 'Terms of service accepted',
  billingMethodAdded: 'Billing method added',
};

const KYB_STATUS_TEXT: Readonly<Record<ActivationStatusView['kybStatus'], string>> = {
  NOT_SUBMITTED: 'not submitted yet',
  PENDING: 'submitted, waiting for the operator’s decision',
  VERIFIED: 'verified',
  REJECTED: 'rejected: correct the details and submit them again',
};

const NOTICES = {
  kyb: 'Business details submitted.',
  terms: 'Terms of service accepted.',
  billing: 'Billing method added.',
  live: 'Production is active. Switch the environment to Live to work with real money.',
};

const KYB_FIELDS = [
  { name: 'legalName', label: 'Legal name', autocomplete: 'organization', max: 200, required: true },
  { name: 'taxId', label: 'Tax ID (e.g. EIN)', autocomplete: 'off', max: 50, required: true },
  { name: 'line1', label: 'Street address', autocomplete: 'address-line1', max: 200, required: true },
  { name: 'line2', label: 'Apartment, suite or floor (optional)', autocomplete: 'address-line2', max: 200 },
  { name: 'city', label: 'City', autocomplete: 'address-level2', max: 100, required: true },
  { name: 'state', label: 'State or region (optional)', autocomplete: 'address-level1', max: 100 },
  { name: 'postalCode', label: 'Postal code', autocomplete: 'postal-code', max: 20, required: true },
  { name: 'country', label: 'Country (2 letters, e.g. US)', autocomplete: 'country', max: 2, required: true },
] as const;
const LABELS: Record<string, string> = {
  ...Object.fromEntries(KYB_FIELDS.map((field) => [field.name, field.label])),
  number: 'Card number',
  tosVersion: 'Terms version',
};

type Section = 'kyb' | 'terms' | 'billing' | 'go-live';
interface FormState {
  section: Section;
  error: string;
  code: string;
  field?: string;
  kept?: Map<string, string>;
  missing?: readonly string[];
}

function ActivationPage(props: { request: DashboardRequest; status: ActivationStatusView; form?: FormState }) {
  const { request, status, form } = props;
  const { session } = request;
  const met = (name: ActivationRequirement) => status[name];
  const missing = ACTIVATION_REQUIREMENTS.filter((name) => !met(name));
  const errorFor = (section: Section) => (form?.section === section ? form : undefined);
  return (
    <DashboardLayout session={session} title={FRAME.title} current={FRAME.current}>
      <Notice request={request} notices={NOTICES} />
      <section class="card" aria-labelledby="requirements">
        <h2 id="requirements">Requirements for Live</h2>
        <ul class="checklist">
          {ACTIVATION_REQUIREMENTS.map((name) => (
            <li class={met(name) ? 'met' : 'unmet'}>
              <span class="visually-hidden">{met(name) ? 'Done: ' : 'Not done: '}</span>
              <span aria-hidden="true">{met(name) ? '✓ ' : '○ '}</span>
              {REQUIREMENT_LABEL[name]}
              {name === 'kybVerified' ? ` (${KYB_STATUS_TEXT[status.kybStatus]})` : ''}
            </li>
          ))}
          <li class={status.productionActivated ? 'met' : 'unmet'}>
            <span class="visually-hidden">{status.productionActivated ? 'Done: ' : 'Not done: '}</span>
            <span aria-hidden="true">{status.productionActivated ? '✓ ' : '○ '}</span>
            Production activated{status.productionActivatedAt ? ` on ${status.productionActivatedAt.slice(0, 10)}` : ''}
          </li>
        </ul>
      </section>
      {status.kybStatus === 'NOT_SUBMITTED' || status.kybStatus === 'REJECTED' ? (
        <KybForm request={request} state={errorFor('kyb')} />
      ) : null}
      {status.tosAccepted ? null : <TermsForm request={request} state={errorFor('terms')} />}
      {status.billingMethodAdded ? null : <BillingForm request={request} state={errorFor('billing')} />}
      <section class="card" aria-labelledby="go-live">
        <h2 id="go-live">Go live</h2>
        {errorFor('go-live') ? <Alert code={form?.code}>{form?.error}</Alert> : null}
        {status.productionActivated ? (
          <p>
            Production is active since {status.productionActivatedAt?.slice(0, 10)}: switch the environment to Live to
            work with real money.
          </p>
        ) : missing.length > 0 ? (
          <>
            <p>Going live needs, first:</p>
            <ul class="missing">
              {missing.map((name) => (
                <li data-missing={name}>{REQUIREMENT_LABEL[name]}</li>
              ))}
            </ul>
          </>
        ) : (
          <form method="post" action={DASHBOARD_PATHS.activationGoLive}>
            <CsrfField session={session} />
            <p>
              Every requirement is met. Going live creates your production environment and its main wallet.
              {request.recentlyVerified() ? '' : ' You will be asked for your second factor first.'}
            </p>
            <button type="submit">Go live</button>
          </form>
        )}
      </section>
    </DashboardLayout>
  );
}

function KybForm(props: { request: DashboardRequest; state?: FormState }) {
  const { state } = props;
  return (
    <section class="card" aria-labelledby="kyb">
      <h2 id="kyb">Business details (KYB)</h2>
      {state ? <Alert code={state.code}>{state.error}</Alert> : null}
      <form method="post" action={DASHBOARD_PATHS.activationKyb}>
        <CsrfField session={props.request.session} />
        {KYB_FIELDS.map((field) => (
          <div class="field">
            <label for={`kyb-${field.name}`}>{field.label}</label>
            <input
              id={`kyb-${field.name}`}
              name={field.name}
              autocomplete={field.autocomplete}
              maxlength={field.max}
              required={'required' in field ? field.required : undefined}
              value={state?.kept?.get(field.name) ?? ''}
              aria-invalid={state?.field === field.name ? 'true' : undefined}
            />
          </div>
        ))}
        <button type="submit">Submit business details</button>
      </form>
    </section>
  );
}

function TermsForm(props: { request: DashboardRequest; state?: FormState }) {
  return (
    <section class="card" aria-labelledby="terms">
      <h2 id="terms">Terms of service</h2>
      {props.state ? <Alert code={props.state.code}>{props.state.error}</Alert> : null}
      <form method="post" action={DASHBOARD_PATHS.activationTerms}>
        <CsrfField session={props.request.session} />
        <div class="field check">
          <input type="checkbox" id="terms-accept" name="accept" value="yes" required />
          <label for="terms-accept">I accept the Allowance terms of service (version {DASHBOARD_TOS_VERSION})</label>
        </div>
        <button type="submit">Accept the terms</button>
      </form>
    </section>
  );
}

function BillingForm(props: { request: DashboardRequest; state?: FormState }) {
  const { session } = props.request;
  return (
    <section class="card" aria-labelledby="billing">
      <h2 id="billing">Billing method</h2>
      {props.state ? <Alert code={props.state.code}>{props.state.error}</Alert> : null}
      <form method="post" action={DASHBOARD_PATHS.activationBilling}>
        <CsrfField session={session} />
        <div class="field">
          <label for="billing-number">
            Card number
            <span class="hint" id="billing-hint">
              {session.environment === 'SANDBOX'
                ? `Sandbox: use the test card ${TEST_BILLING_CARD}. Only the last 4 digits are kept.`
                : 'Only the last 4 digits are kept.'}
            </span>
          </label>
          <input
            id="billing-number"
            name="number"
            inputmode="numeric"
            autocomplete="cc-number"
            maxlength={23}
            required
            aria-describedby="billing-hint"
            aria-invalid={props.state?.field === 'number' ? 'true' : undefined}
          />
        </div>
        <button type="submit">Add billing method</button>
      </form>
    </section>
  );
}

async function show(request: DashboardRequest, status: number, form?: FormState): Promise<DashboardAnswer> {
  const current = await request.call<ActivationStatusView>('getStatus');
  return dashboardPage(status, <ActivationPage request={request} status={current} form={form} />);
}

/** Runs an activation call; a refusal of the input comes back as the page with the section's alert. */
async function submit(
  request: DashboardRequest,
  section: Section,
  run: () => Promise<unknown>,
  done: keyof typeof NOTICES,
  kept?: Map<string, string>,
): Promise<DashboardAnswer> {
  try {
    await run();
    return seeOther(`${DASHBOARD_PATHS.activation}?done=${done}`);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 403 || error.status === 404) throw error;
    if (error.code === 'ACTIVATION_INCOMPLETE') {
      const missing = (error.details?.missing as string[] | undefined) ?? [];
      const names = missing.map((name) => REQUIREMENT_LABEL[name as ActivationRequirement] ?? name).join('; ');
      return show(request, error.status, {
        section,
        code: error.code,
        error: `Not ready to go live. Missing: ${names}.`,
        missing,
      });
    }
    const text = error.code === 'VALIDATION_ERROR' ? validationText(error, LABELS) : error.message;
    return show(request, error.status, { section, code: error.code, error: text, field: invalidField(error), kept });
  }
}

function kybBody(form: Map<string, string>) {
  const value = (name: string) => filled(form, name) ?? '';
  const optional = (name: string) => (filled(form, name) === undefined ? {} : { [name]: filled(form, name) });
  return {
    legalName: value('legalName'),
    taxId: value('taxId'),
    address: {
      line1: value('line1'),
      ...optional('line2'),
      city: value('city'),
      ...optional('state'),
      postalCode: value('postalCode'),
      country: value('country').toUpperCase(),
    },
  };
}

const onlyGet = { get: (request: DashboardRequest) => Promise.resolve(seeOther(DASHBOARD_PATHS.activation)) };

export const ACTIVATION_ROUTES = [
  settingsRoute(/^\/dashboard\/activation$/, FRAME, { get: (request) => show(request, 200) }),
  settingsRoute(/^\/dashboard\/activation\/kyb$/, FRAME, {
    ...onlyGet,
    post: (request) => {
      const form = request.form();
      const kept = new Map(KYB_FIELDS.map((field) => [field.name, form.get(field.name) ?? '']));
      return submit(request, 'kyb', () => request.call('submitKyb', { body: kybBody(form) }), 'kyb', kept);
    },
  }),
  settingsRoute(/^\/dashboard\/activation\/terms$/, FRAME, {
    ...onlyGet,
    post: async (request) => {
      if (request.form().get('accept') !== 'yes')
        return show(request, 400, {
          section: 'terms',
          code: 'VALIDATION_ERROR',
          error: 'Tick the box to accept the terms of service.',
        });
      const body = { tosVersion: DASHBOARD_TOS_VERSION };
      return submit(request, 'terms', () => request.call('acceptTos', { body }), 'terms');
    },
  }),
  settingsRoute(/^\/dashboard\/activation\/billing$/, FRAME, {
    ...onlyGet,
    post: (request) => {
      const number = (request.form().get('number') ?? '').replace(/[\s-]/g, '');
      const body = { type: 'card', number };
      return submit(request, 'billing', () => request.call('addBillingMethod', { body }), 'billing');
    },
  }),
  settingsRoute(/^\/dashboard\/activation\/go-live$/, FRAME, {
    ...onlyGet,
    post: async (request) => {
      return (
        stepUpFirst(request, DASHBOARD_PATHS.activation) ??
        submit(request, 'go-live', () => request.call('activateProduction'), 'live')
      );
    },
  }),
];
