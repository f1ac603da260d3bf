import { DEFAULT_USDC_CHAIN, USDC_CHAIN_NAMES } from '../../domain/usdc/addresses.js';
import { Alert, Layout, Notice } from '../layout.js';
import { dateTime, usd } from '../format.js';
import { CLAIM_CHOICE_LABEL, CLAIM_KEY_FIELD, type ClaimChoice, type ClaimKept } from '../link-claim-form.js';
import type { PaymentLinkClaimView } from '../views.js';
import { BankNumberFields, ChoiceTabs, Field, invalid, type InvalidField } from './payment-fields.js';

/** `25.00` as `$25.00` (a USD link) or `25.00 USDC`. */
export function linkAmount(link: PaymentLinkClaimView): string {
  return link.currency === 'USD' ? usd(link.amount) : `${link.amount} USDC`;
}

/** The amount and what it is for: the same block on the claim page and the pages after it. */
function LinkFacts(props: { link: PaymentLinkClaimView; expiry: boolean }) {
  const { link } = props;
  return (
    <section class="card" aria-labelledby="payment-heading">
      <h2 id="payment-heading">The payment</h2>
      <dl class="facts">
        <dt>Amount</dt>
        <dd>{linkAmount(link)}</dd>
        {link.description ? (
          <>
            <dt>For</dt>
            <dd>{link.description}</dd>
          </>
        ) : null}
        {props.expiry ? (
          <>
            <dt>Claim before</dt>
            <dd>{dateTime(link.expiresAt)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export interface ClaimFormState {
  path: string;
  choice: ClaimChoice;
  /** The hidden idempotency key of this rendering of the form. */
  idempotencyKey: string;
  error?: string | undefined;
  invalidField?: InvalidField;
  kept?: ClaimKept;
}

/** The claim page of an ACTIVE link: where to send the money (wallet, bank account or USDC address). */
export function PaymentLinkClaimPage(props: { link: PaymentLinkClaimView; form: ClaimFormState }) {
  const { link, form } = props;
  const kept = form.kept ?? {};
  return (
    <Layout title={`Claim ${linkAmount(link)}`} environment={link.environment}>
      {form.error ? (
        <Alert>
          <p>{form.error}</p>
        </Alert>
      ) : null}
      <LinkFacts link={link} expiry={true} />
      <section class="card" aria-labelledby="claim-heading">
        <h2 id="claim-heading">Where should the money go?</h2>
        <ChoiceTabs path={form.path} current={form.choice} labels={CLAIM_CHOICE_LABEL} name="Destination" />
        <form method="post" action={`${form.path}?method=${form.choice}`} data-busy-label="Claiming…">
          <input type="hidden" name={CLAIM_KEY_FIELD} value={form.idempotencyKey} />
          {link.restricted ? <EmailField kept={kept} invalidField={form.invalidField} /> : null}
          <DestinationFields choice={form.choice} kept={kept} invalidField={form.invalidField} />
          <div class="actions">
            <button type="submit">Claim {linkAmount(link)}</button>
          </div>
        </form>
      </section>
    </Layout>
  );
}

type FieldsProps = { kept: ClaimKept; invalidField: InvalidField };

function EmailField(props: FieldsProps) {
  return (
    <Field
      id="recipientEmail"
      label="Email address"
      hint="The sender named who may claim this payment: enter the email address the link was sent to."
    >
      <input
        id="recipientEmail"
        name="recipientEmail"
        type="email"
        autocomplete="email"
        maxlength={254}
        value={props.kept.recipientEmail}
        aria-invalid={invalid(props.invalidField, 'recipientEmail')}
      />
    </Field>
  );
}

function DestinationFields(props: FieldsProps & { choice: ClaimChoice }) {
  if (props.choice === 'bank') return <BankAccountFields {...props} />;
  if (props.choice === 'usdc') return <UsdcFields {...props} />;
  return <WalletFields {...props} />;
}

function WalletFields(props: FieldsProps) {
  return (
    <fieldset>
      <legend>Your Allowance wallet</legend>
      <Field id="walletId" label="Wallet ID" hint="Starts with wal_. The money arrives at once.">
        <input
          id="walletId"
          name="walletId"
          autocomplete="off"
          spellcheck={false}
          required
          maxlength={64}
          value={props.kept.walletId}
          aria-invalid={invalid(props.invalidField, 'walletId')}
        />
      </Field>
    </fieldset>
  );
}

function BankAccountFields(props: FieldsProps) {
  const bad = props.invalidField;
  return (
    <fieldset>
      <legend>Your US bank account</legend>
      <Field id="accountName" label="Account holder name">
        <input
          id="accountName"
          name="accountName"
          autocomplete="name"
          required
          maxlength={100}
          value={props.kept.accountName}
          aria-invalid={invalid(bad, 'accountName')}
        />
      </Field>
      <BankNumberFields invalidField={bad} />
    </fieldset>
  );
}

function UsdcFields(props: FieldsProps) {
  const bad = props.invalidField;
  const chosen = USDC_CHAIN_NAMES.find((chain) => chain === props.kept.chain) ?? DEFAULT_USDC_CHAIN;
  return (
    <fieldset>
      <legend>Your USDC address</legend>
      <Field id="chain" label="Network" hint="The network your address is on.">
        <select id="chain" name="chain" aria-invalid={invalid(bad, 'chain')}>
          {USDC_CHAIN_NAMES.map((chain) => (
            <option value={chain} selected={chain === chosen}>
              {chain}
            </option>
          ))}
        </select>
      </Field>
      <Field id="address" label="USDC address" hint="Check it twice: money sent to a wrong address is lost.">
        <input
          id="address"
          name="address"
          class="mono"
          autocomplete="off"
          spellcheck={false}
          required
          maxlength={100}
          value={props.kept.address}
          aria-invalid={invalid(bad, 'address')}
        />
      </Field>
    </fieldset>
  );
}

/** What a page about a link that takes no claim says (the link's state, and whether this visitor just claimed it). */
export type LinkStateKind = 'sent' | 'on-its-way' | 'claimed' | 'pending-approval' | 'processing';

const DESTINATION_NAME: Readonly<Record<ClaimChoice, string>> = {
  wallet: 'your wallet',
  bank: 'your bank account',
  usdc: 'your USDC address',
};

function stateText(kind: LinkStateKind, link: PaymentLinkClaimView, choice: ClaimChoice | undefined) {
  const amount = linkAmount(link);
  const to = DESTINATION_NAME[choice ?? 'wallet'];
  switch (kind) {
    case 'sent':
      return {
        title: `Sent to ${to}`,
        notice: choice === 'wallet' ? `${amount} is in your Allowance wallet now.` : `${amount} was sent to ${to}.`,
        more: 'You can close this page. The link can not be claimed again.',
      };
    case 'on-its-way':
      return {
        title: `On its way to ${to}`,
        notice: `${amount} is on its way to ${to}. It arrives when the transfer completes.`,
        more: 'You can close this page. The link can not be claimed again.',
      };
    case 'claimed':
      return {
        title: 'This link has been claimed',
        notice: undefined,
        more: 'Each link pays out once, and this one was claimed. If you expected to claim it, ask the sender.',
      };
    case 'pending-approval':
      return {
        title: 'This link is not yet available',
        notice: undefined,
        more: 'The sender still has to approve this payment. Open the link again later.',
      };
    case 'processing':
      return {
        title: 'Your claim is being processed',
        notice: undefined,
        more: 'This form was sent twice at the same moment. Open the link again in a few seconds to see where it stands.',
      };
  }
}

/** A link that takes no claim now: sent (just claimed to a wallet or settled), on its way, claimed by someone, awaiting approval. */
export function PaymentLinkStatePage(props: {
  link: PaymentLinkClaimView;
  kind: LinkStateKind;
  choice?: ClaimChoice | undefined;
  path: string;
}) {
  const text = stateText(props.kind, props.link, props.choice);
  return (
    <Layout title={text.title} environment={props.link.environment}>
      {text.notice ? (
        <Notice>
          <p>{text.notice}</p>
        </Notice>
      ) : null}
      <LinkFacts link={props.link} expiry={props.kind === 'pending-approval'} />
      <p>{text.more}</p>
      {props.kind === 'processing' ? (
        <p>
          <a href={props.path}>Open the link again</a>
        </p>
      ) : null}
    </Layout>
  );
}
