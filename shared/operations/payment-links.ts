import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import {
  MAX_ACCOUNT_NAME,
  MAX_EMAIL_LENGTH,
  MAX_LINK_DESCRIPTION,
  MAX_RESTRICTION_ENTRIES,
} from '../domain/payment-links/payment-link-rules.js';
import type { PaymentLinkService } from '../domain/payment-links/payment-link-service.js';
import { presentPaymentLink } from '../domain/payment-links/payment-link-view.js';
import { CLAIM_METHODS, PAYMENT_LINK_CURRENCIES, PAYMENT_LINK_STATUSES } from '../domain/payment-links/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import { amount, dateTime, describe, idempotencyKey, prefixedId, text, walletId } from './fields.js';
import { listOperation } from './list.js';
import { metadata } from './payment-method-fields.js';

export interface PaymentLinksServices {
  paymentLinks: PaymentLinkService;
}

const op = operation<PaymentLinksServices>();
const list = listOperation<PaymentLinksServices>();
const linkParam = { id: 'The payment link id (`lnk_...`).' };
const slugParam = { slug: "The payment link's public slug (the last segment of its `url`)." };

const email = (description: string) =>
  describe(
    z
      .email({ error: 'must be an email address' })
      .check(z.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)),
    description,
  );

const walletIdItem = () => prefixedId('wallet', 'wallet', 'A wallet id (`wal_...`).');

const restrictionsField = () =>
  z.optional(
    describe(
      z.strictObject({
        emails: z.optional(
          describe(
            z
              .array(email('An email.'))
              .check(z.maxLength(MAX_RESTRICTION_ENTRIES, `must hold at most ${MAX_RESTRICTION_ENTRIES} emails`)),
            `Up to ${MAX_RESTRICTION_ENTRIES} emails allowed to claim (compared in lower case).`,
          ),
        ),
        walletIds: z.optional(
          describe(
            z
              .array(walletIdItem())
              .check(z.maxLength(MAX_RESTRICTION_ENTRIES, `must hold at most ${MAX_RESTRICTION_ENTRIES} wallets`)),
            `Up to ${MAX_RESTRICTION_ENTRIES} wallets allowed to claim (wallet claims).`,
          ),
        ),
      }),
      'Who may claim: a claim passes with one of these emails (recipientEmail) or, to a wallet, one of these wallets. Empty or absent: anyone holding the link.',
    ),
  );

const destinationField = () =>
  describe(
    z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('WALLET'),
        walletId: walletId('The Allowance wallet receiving the money (any organization, same environment).'),
      }),
      z.strictObject({
        type: z.literal('ACH'),
        routingNumber: text(9, 'ABA routing number (9 digits, checksum verified).', { min: 1 }),
        accountNumber: text(17, 'Account number (4-17 digits); never stored in clear, never shown again.', { min: 1 }),
        accountName: z.optional(text(MAX_ACCOUNT_NAME, 'The name on the account.', { trim: true, min: 1 })),
      }),
      z.strictObject({
        type: z.literal('USDC'),
        address: text(64, 'The USDC address (valid for the chain).', { min: 1 }),
        chain: z.optional(text(32, 'The chain (default Ethereum).', { min: 1 })),
      }),
    ]),
    'Where the money goes: `{type: "WALLET", walletId}`, `{type: "ACH", routingNumber, accountNumber, accountName?}` or `{type: "USDC", address, chain?}`; the type must match `method`.',
  );

const CREATE_DESCRIPTION =
  "Creates a link that pays `amount` to whoever claims it (to an Allowance wallet at once, or to a US bank account or a USDC address through a withdrawal). The wallet (ACTIVE; an agent key: its own) holds amount + fee at once (fee = a withdrawal's: 0.5 %, at least 0.25, what a bank or USDC claim costs; a wallet claim returns it): INSUFFICIENT_FUNDS otherwise. The wallet's spend policies apply to amount + fee; a policy that lists recipients needs the link restricted to wallets it allows; a policy asking for approval answers 202 APPROVAL_REQUIRED (details.approvalId, details.paymentLinkId) with the link PENDING_APPROVAL and its hold taken. `expiresAt`: default 30 days, at most 90; the hold is released then if unclaimed. Send the link's `url` to the recipient.";

/**
 * Payment links (interface-spec 2.9, 3.4, 4.8; decisions.md section 6; docs/api.md "Payment
 * links"). Reading needs `payments:read`, creating and cancelling `payments:write`; an agent key
 * works with its own wallet's links only. The `claim/{slug}` operations are public (no key, rate
 * limited per IP): the claim page calls them.
 */
// A link's expiry (and a queued link's approval) get one-time schedules; an ach/usdc claim starts a transfer workflow and seals the account number.
export const PAYMENT_LINKS = defineGroup<PaymentLinksServices>()(
  'payment-links',
  { grants: ['transferWorkflow:start', 'scheduler:create', 'dataKey:seal'] },
  [
    op({
      name: 'createPaymentLink',
      summary: 'Create a payment link',
      description: CREATE_DESCRIPTION,
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.paymentLink.create,
      events: ['payment_link.created', 'approval.requested'],
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/payment-links', status: 201 },
      mcp: { tool: 'create_payment_link', hints: HINTS.money },
      body: () =>
        z.strictObject({
          walletId: walletId('The wallet that funds the link (its hold).'),
          amount: amount('What the claimant receives, > 0, at most 2 decimals.'),
          currency: z.optional(
            describe(
              z.enum(PAYMENT_LINK_CURRENCIES),
              'USD (default) or USDC: held 1:1 on the wallet (its balance is USD); any claim method pays `amount` 1:1 (a bank claim in USD, a USDC claim in USDC, a wallet claim to the wallet).',
            ),
          ),
          description: z.optional(
            text(MAX_LINK_DESCRIPTION, 'Shown to the recipient on the claim page.', { multiline: true }),
          ),
          recipientRestrictions: restrictionsField(),
          expiresAt: z.optional(
            dateTime('When the link expires if unclaimed: in the future, at most 90 days away (default 30 days).'),
          ),
          metadata: z.optional(metadata('Your key-value data; never shown to the recipient.')),
          idempotencyKey: idempotencyKey(),
        }),
      output: 'paymentLinkView',
      errors: [
        'APPROVAL_REQUIRED',
        'WALLET_NOT_FOUND',
        'WALLET_FROZEN',
        'INSUFFICIENT_FUNDS',
        'POLICY_DENIED',
        'INVALID_AMOUNT',
        'IDEMPOTENCY_KEY_REUSE',
        'IDEMPOTENCY_KEY_IN_USE',
        'ENVIRONMENT_MISMATCH',
      ],
      run: ({ services, auth, audit, body, idempotencyKey: key }) =>
        services.paymentLinks.create(
          auth,
          audit,
          {
            walletId: body.walletId,
            amount: body.amount,
            currency: body.currency,
            description: body.description,
            recipientRestrictions: body.recipientRestrictions,
            expiresAt: body.expiresAt,
            metadata: body.metadata as Record<string, string> | undefined,
          },
          key,
        ),
    }),
    list({
      name: 'listPaymentLinks',
      summary: 'List payment links',
      description:
        "Payment links of the organization environment, newest first; filter by wallet and status. An agent key lists its own wallet's links only.",
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/payment-links', status: 200 },
      mcp: { tool: 'list_payment_links', hints: HINTS.read },
      filters: () => ({
        walletId: z.optional(walletId('Only links funded by this wallet.')),
        status: z.optional(describe(z.enum(PAYMENT_LINK_STATUSES), 'Only links in this status.')),
      }),
      output: 'paymentLinkPageView',
      errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      list: ({ services, auth, query }, page) =>
        services.paymentLinks.list(auth, { walletId: query.walletId, status: query.status }, page),
      present: presentPaymentLink,
    }),
    op({
      name: 'getPaymentLink',
      summary: 'Get a payment link',
      description: 'One payment link: its amount, fee, hold status, restrictions, and once claimed how and where.',
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/payment-links/{id}', status: 200 },
      params: linkParam,
      mcp: { tool: 'get_payment_link', hints: HINTS.read },
      output: 'paymentLinkView',
      errors: ['PAYMENT_LINK_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, params }) => services.paymentLinks.get(auth, params.id!),
      present: presentPaymentLink,
    }),
    op({
      name: 'updatePaymentLink',
      summary: 'Cancel a payment link',
      description:
        'ACTIVE -> CANCELLED (the only change: `{"status": "CANCELLED"}`): the hold (amount + fee) returns to the wallet. Any other state: INVALID_STATE.',
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.paymentLink.cancel,
      events: ['payment_link.cancelled'],
      http: { method: 'PATCH', path: '/v1/payment-links/{id}', status: 200 },
      params: linkParam,
      mcp: { tool: 'cancel_payment_link', hints: HINTS.destructive },
      body: () =>
        z.strictObject({
          status: describe(z.literal('CANCELLED'), 'CANCELLED: the only change a link takes.'),
        }),
      output: 'paymentLinkView',
      errors: ['PAYMENT_LINK_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, audit, params }) => services.paymentLinks.cancel(auth, audit, params.id!),
      present: presentPaymentLink,
    }),
    op({
      name: 'getPaymentLinkClaim',
      summary: 'Get a payment link to claim (public)',
      description:
        'A payment link as its recipient sees it, by its public slug, without a key: amount, currency, description, status, expiry, whether it is restricted (the claim must then give the email), environment. Never its id, wallet, metadata, restrictions or fee.',
      access: 'public',
      http: { method: 'GET', path: '/v1/payment-links/claim/{slug}', status: 200 },
      params: slugParam,
      output: 'paymentLinkClaimView',
      errors: ['PAYMENT_LINK_NOT_FOUND'],
      run: ({ services, params }) => services.paymentLinks.getClaim(params.slug!),
    }),
    op({
      name: 'claimPaymentLink',
      summary: 'Claim a payment link (public)',
      description:
        'Claims an ACTIVE link, without a key. `wallet`: the amount is in the wallet at once (SETTLED, `transactionId`); `ach` / `usdc`: a withdrawal to the bank account or address starts (CLAIMED; SETTLED when it completes; if the rail fails the link is ACTIVE again, its hold intact). A restricted link needs one of its emails (`recipientEmail`) or, to a wallet, one of its wallets: 403 RECIPIENT_NOT_ALLOWED otherwise. Not ACTIVE: 409 INVALID_STATE. Send an Idempotency-Key header so a retry claims once.',
      access: 'public',
      audit: AUDIT.paymentLink.claim,
      events: ['payment_link.claimed', 'payment_link.settled'],
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/payment-links/claim/{slug}/claim', status: 200 },
      params: slugParam,
      body: () =>
        z.strictObject({
          method: describe(z.enum(CLAIM_METHODS), 'wallet (at once), ach (US bank account) or usdc (USDC address).'),
          destination: destinationField(),
          recipientEmail: z.optional(
            email("The claimant's email (a restricted link's recipients are named by email)."),
          ),
        }),
      output: 'paymentLinkClaimResultView',
      errors: [
        'PAYMENT_LINK_NOT_FOUND',
        'INVALID_STATE',
        'RECIPIENT_NOT_ALLOWED',
        'WALLET_NOT_FOUND',
        'WALLET_FROZEN',
        'SELF_PAYMENT',
        'IDEMPOTENCY_KEY_REUSE',
        'IDEMPOTENCY_KEY_IN_USE',
      ],
      run: ({ services, auth, audit, params, body, idempotencyKey: key }) =>
        services.paymentLinks.claim(auth, audit, params.slug!, body, key),
    }),
  ],
);
