import * as z from 'zod/mini';
import {
  currency,
  describe,
  enumOf,
  environment,
  flag,
  id,
  lazy,
  money,
  nullableId,
  nullableMoney,
  nullableText,
  nullableTimestamp,
  objectTag,
  pageOf,
  record,
  text,
  timestamp,
  view,
} from '../views.js';
import { isRestricted } from './payment-link-rules.js';
import { CLAIM_METHODS, PAYMENT_LINK_STATUSES, type ClaimDestination, type PaymentLink } from './types.js';

/** A link with its claim page's URL (the service adds it: config's public base URL). */
export type PresentableLink = PaymentLink & { url: string };

const STATUS_TEXT =
  'PENDING_APPROVAL (a policy asked a person to approve it; its hold is taken, not claimable yet), ACTIVE (claimable), CLAIMED (an ach or usdc claim is on its way), SETTLED (the claimant has the money), EXPIRED or CANCELLED (the hold was released).';

export const paymentLinkClaimDestinationView = /* @__PURE__ */ lazy(() =>
  view(
    {
      type: enumOf(
        ['WALLET', 'ACH', 'USDC'] as const,
        'Where the money went: an Allowance wallet, a US bank account or a USDC address.',
      ),
      walletId: z.optional(id('wallet', 'WALLET: the claimant wallet.')),
      routingNumber: z.optional(text('ACH: the routing number.')),
      last4: z.optional(text('ACH: the last 4 digits of the account number (never the whole number).')),
      accountName: z.optional(text('ACH: the name on the account, as given.')),
      address: z.optional(text('USDC: the address.')),
      chain: z.optional(text('USDC: the chain.')),
    },
    'The destination of a claim (an account number is never stored in clear, never shown).',
    { type: 'ACH', routingNumber: '011000015', last4: '6789', accountName: 'Jane Doe' },
  ),
);

export const paymentLinkClaimDetailsView = /* @__PURE__ */ lazy(() =>
  view(
    {
      method: enumOf(CLAIM_METHODS, 'How it was claimed: wallet, ach or usdc.'),
      destination: paymentLinkClaimDestinationView,
      recipientEmail: nullableText('The email the claimant gave (lower-cased), or null.'),
      transferId: nullableId('transfer', 'ach and usdc: the transfer carrying the money; null for a wallet claim.'),
      claimedAt: timestamp('When it was claimed.'),
    },
    'Who claimed the link, and where the money went.',
    {
      method: 'wallet',
      destination: { type: 'WALLET', walletId: 'wal_4Rw9Xb1KLm2Zp4RwTq8Lm2Zp' },
      recipientEmail: null,
      transferId: null,
      claimedAt: '2026-11-27T12:00:00.000Z',
    },
  ),
);

export const paymentLinkView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('paymentLink', 'Payment link id.'),
      object: objectTag('payment_link'),
      slug: text('The public identifier of the claim routes and page (22 base62 characters, >= 128 random bits).'),
      url: text('The claim page to send to the recipient.'),
      walletId: id('wallet', 'The wallet that funds the link (its hold).'),
      amount: money('What the claimant receives.'),
      currency: currency(
        'What the link pays: USD (default) or USDC, given at creation; held 1:1 on the wallet, any claim method pays `amount` 1:1.',
      ),
      fee: money(
        "The fee an ach or usdc claim costs (a withdrawal's: 0.5 %, at least 0.25), reserved in the hold with the amount; a wallet claim returns it to the wallet.",
      ),
      feeCharged: nullableMoney(
        'What the claim cost: "0.00" after a wallet claim, the fee once an ach/usdc claim settled, null before.',
      ),
      description: nullableText('Shown to the recipient on the claim page, or null.'),
      recipientRestrictions: describe(
        z.object({
          emails: describe(z.array(z.string()), 'Emails that may claim (lower-cased); empty: any.'),
          walletIds: describe(z.array(z.string()), 'Wallets that may claim (wallet claims); empty: any.'),
        }),
        'Who may claim: with both lists empty, anyone holding the link.',
      ),
      expiresAt: timestamp('When the link expires (its hold is released) if unclaimed.'),
      metadata: record('Your key-value data ({} when none); never shown to the recipient.'),
      status: enumOf(PAYMENT_LINK_STATUSES, STATUS_TEXT),
      approvalId: nullableId('approval', 'The approval a policy asked for at creation, or null.'),
      claim: describe(z.nullable(paymentLinkClaimDetailsView), 'The claim, or null before one.'),
      transactionId: nullableId(
        'transaction',
        'A wallet claim: the ledger movement that paid the claimant; null otherwise.',
      ),
      lastClaimFailure: describe(
        z.nullable(z.object({ reason: text('Why the rail failed.'), at: timestamp('When.') })),
        'The last ach/usdc claim whose transfer failed (the link went back to ACTIVE, its hold intact), or null.',
      ),
      environment: environment(),
      createdAt: timestamp('When it was created.'),
      updatedAt: timestamp('When it last changed.'),
      settledAt: nullableTimestamp('When the claimant got the money, or null.'),
      cancelledAt: nullableTimestamp('When it was cancelled (or its approval refused), or null.'),
      expiredAt: nullableTimestamp('When it expired, or null.'),
    },
    'A payment link: money an agent sends to anyone who claims it (to a wallet, a bank account or a USDC address).',
    {
      id: 'lnk_8Xb1KLm2Zp4RwTq8Lm2Zp4Rw',
      object: 'payment_link',
      slug: 'q8Lm2Zp4Rw9Xb1KLm2Zp4R',
      url: 'https://api.allowance.dev/hosted/payment-links/q8Lm2Zp4Rw9Xb1KLm2Zp4R',
      walletId: 'wal_7Qm2ZtLp9Rw4Xb1KcV8nYs3D',
      amount: '50.00',
      currency: 'USD',
      fee: '0.25',
      feeCharged: null,
      description: 'Thanks for the data labelling',
      recipientRestrictions: { emails: ['jane@example.com'], walletIds: [] },
      expiresAt: '2026-12-27T10:00:00.000Z',
      metadata: { job: 'labelling-42' },
      status: 'ACTIVE',
      approvalId: null,
      claim: null,
      transactionId: null,
      lastClaimFailure: null,
      environment: 'SANDBOX',
      createdAt: '2026-11-27T10:00:00.000Z',
      updatedAt: '2026-11-27T10:00:00.000Z',
      settledAt: null,
      cancelledAt: null,
      expiredAt: null,
    },
  ),
);

export const paymentLinkPageView = /* @__PURE__ */ lazy(() => pageOf(paymentLinkView, 'A page of payment links.'));

const claimFields = () => ({
  amount: money('What the claimant receives.'),
  currency: currency('What the link pays: USD or USDC (1:1 whatever the claim method).'),
  description: nullableText("The sender's description, or null."),
  status: enumOf(PAYMENT_LINK_STATUSES, STATUS_TEXT),
  expiresAt: timestamp('When the link expires if unclaimed.'),
  restricted: flag('Only named recipients may claim: the claim must give their email (or a named wallet).'),
  environment: environment('SANDBOX (test money) or PRODUCTION.'),
});

export const paymentLinkClaimView = /* @__PURE__ */ lazy(() =>
  view(
    claimFields(),
    'A payment link as anyone holding its slug sees it (no key): never its id, wallet, metadata, restrictions, fee or claim details.',
    {
      amount: '50.00',
      currency: 'USD',
      description: 'Thanks for the data labelling',
      status: 'ACTIVE',
      expiresAt: '2026-12-27T10:00:00.000Z',
      restricted: true,
      environment: 'SANDBOX',
    },
  ),
);

export const paymentLinkClaimResultView = /* @__PURE__ */ lazy(() =>
  view(
    {
      ...claimFields(),
      transactionId: z.optional(id('transaction', 'A wallet claim: the movement that paid the claimant wallet.')),
    },
    'The link after a claim: SETTLED (wallet: the money is in the wallet) or CLAIMED (ach/usdc: on its way).',
    {
      amount: '50.00',
      currency: 'USD',
      description: 'Thanks for the data labelling',
      status: 'SETTLED',
      expiresAt: '2026-12-27T10:00:00.000Z',
      restricted: true,
      environment: 'SANDBOX',
      transactionId: 'txn_4Rw9Xb1KLm2Zp4RwTq8Lm2Zp',
    },
  ),
);

export type PaymentLinkView = z.output<typeof paymentLinkView>;
export type PaymentLinkClaimView = z.output<typeof paymentLinkClaimView>;
export type PaymentLinkClaimResult = z.output<typeof paymentLinkClaimResultView>;

function presentDestination(destination: ClaimDestination) {
  switch (destination.type) {
    case 'WALLET':
      return { type: destination.type, walletId: destination.walletId };
    case 'ACH':
      return {
        type: destination.type,
        routingNumber: destination.routingNumber,
        last4: destination.last4,
        ...(destination.accountName !== undefined ? { accountName: destination.accountName } : {}),
      };
    case 'USDC':
      return { type: destination.type, address: destination.address, chain: destination.chain };
  }
}

/** The fee a claim cost: nothing before a settlement; a wallet claim returns it; a rail claim spends it. */
const feeChargedOf = (link: PaymentLink): string | null => {
  if (link.status !== 'SETTLED' || !link.claim) return null;
  return link.claim.method === 'wallet' ? '0.00' : link.fee;
};

/** The owner's view, field by field: never the hold's id, the creating key or an account number. */
export function presentPaymentLink(link: PresentableLink): PaymentLinkView {
  return {
    id: link.id,
    object: 'payment_link',
    slug: link.slug,
    url: link.url,
    walletId: link.walletId,
    amount: link.amount,
    currency: link.currency,
    fee: link.fee,
    feeCharged: feeChargedOf(link),
    description: link.description ?? null,
    recipientRestrictions: {
      emails: [...(link.recipientRestrictions?.emails ?? [])],
      walletIds: [...(link.recipientRestrictions?.walletIds ?? [])],
    },
    expiresAt: link.expiresAt,
    metadata: { ...(link.metadata ?? {}) },
    status: link.status,
    approvalId: link.approvalId ?? null,
    claim: link.claim
      ? {
          method: link.claim.method,
          destination: presentDestination(link.claim.destination),
          recipientEmail: link.claim.recipientEmail ?? null,
          transferId: link.claim.transferId ?? null,
          claimedAt: link.claim.claimedAt,
        }
      : null,
    transactionId: link.transactionId ?? null,
    lastClaimFailure: link.lastClaimFailure
      ? { reason: link.lastClaimFailure.reason, at: link.lastClaimFailure.at }
      : null,
    environment: link.environment,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
    settledAt: link.settledAt ?? null,
    cancelledAt: link.cancelledAt ?? null,
    expiredAt: link.expiredAt ?? null,
  };
}

/** The public view (by slug): amount, currency, description, status, expiry, whether restricted, environment. Nothing else. */
export function presentPaymentLinkClaim(link: PaymentLink): PaymentLinkClaimView {
  return {
    amount: link.amount,
    currency: link.currency,
    description: link.description ?? null,
    status: link.status,
    expiresAt: link.expiresAt,
    restricted: isRestricted(link),
    environment: link.environment,
  };
}

/** The public view after a claim, with the movement of a wallet claim. */
export function presentPaymentLinkClaimResult(
  result: PaymentLinkClaimView & { transactionId?: string | undefined },
): PaymentLinkClaimResult {
  return {
    amount: result.amount,
    currency: result.currency,
    description: result.description,
    status: result.status,
    expiresAt: result.expiresAt,
    restricted: result.restricted,
    environment: result.environment,
    ...(result.transactionId !== undefined ? { transactionId: result.transactionId } : {}),
  };
}
