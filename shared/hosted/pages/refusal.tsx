import { Layout, type PageFrame } from '../layout.js';

/** Why a page can not do what its link was for. */
export type RefusalKind =
  | 'unknown-link'
  | 'expired-link'
  | 'used-link'
  | 'voided-invoice'
  | 'uncollectible-invoice'
  | 'expired-payment-link'
  | 'cancelled-payment-link'
  | 'rate-limited'
  | 'cross-site'
  | 'method-not-allowed'
  | 'bad-request'
  | 'failure';

const REFUSALS: Readonly<Record<RefusalKind, { status: number; title: string; message: string }>> = {
  'unknown-link': {
    status: 404,
    title: 'This link is not valid',
    message:
      'The link may be mistyped, or it was replaced by a newer one. Ask the business that sent it for a new link.',
  },
  'expired-link': {
    status: 410,
    title: 'This link has expired',
    message: 'Links to add a payment method work for 24 hours. Ask the business that sent it for a new link.',
  },
  'used-link': {
    status: 410,
    title: 'This link has already been used',
    message: 'A payment method was saved with this link. Each link works once: ask for a new link to change it again.',
  },
  'voided-invoice': {
    status: 410,
    title: 'This invoice was cancelled',
    message: 'The business voided this invoice, so there is nothing to pay. Contact them if you think this is wrong.',
  },
  'uncollectible-invoice': {
    status: 410,
    title: 'This invoice can no longer be paid here',
    message: 'The business closed this invoice as uncollectible. Contact them to settle it.',
  },
  'expired-payment-link': {
    status: 410,
    title: 'This link has expired',
    message:
      'The sender set a date until which this payment could be claimed, and it has passed. The money went back to the sender: ask them for a new link.',
  },
  'cancelled-payment-link': {
    status: 410,
    title: 'This link was cancelled',
    message:
      'The sender cancelled this payment, so it can no longer be claimed. Contact them if you think this is wrong.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    message: 'Please wait a few seconds, then reload the page.',
  },
  'cross-site': {
    status: 403,
    title: 'This form was sent from another site',
    message: 'For your safety, forms on this page are accepted only from this page itself. Open the link again.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'This page can not do that',
    message: 'Open the link you were sent again.',
  },
  'bad-request': {
    status: 400,
    title: 'This request could not be handled',
    message: 'Open the link you were sent again, and send the form from that page.',
  },
  failure: {
    status: 500,
    title: 'Something went wrong on our side',
    message: 'Nothing was charged. Please try again in a minute.',
  },
};

export function refusalStatus(kind: RefusalKind): number {
  return REFUSALS[kind].status;
}

export function RefusalPage(props: { kind: RefusalKind; reference?: string } & Omit<PageFrame, 'title'>) {
  const refusal = REFUSALS[props.kind];
  return (
    <Layout title={refusal.title} merchantName={props.merchantName} environment={props.environment}>
      <div class="card">
        <p>{refusal.message}</p>
        {props.reference ? (
          <p>
            Reference: <span class="mono">{props.reference}</span>
          </p>
        ) : null}
      </div>
    </Layout>
  );
}
