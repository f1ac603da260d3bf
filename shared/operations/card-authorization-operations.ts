import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import { presentAuthorization } from '../domain/cards/card-view.js';
import { MAX_MERCHANT_NAME, merchantNameSchema } from '../domain/cards/network-request.js';
import { authorizationParam, cardErrors, cardParam, category, country, decimal } from './card-fields.js';
import { cardListOperation, cardOperation, type CardsServices } from './card-operation.js';
import { HINTS, type Operation } from './define.js';
import { describe, idempotencyKey } from './fields.js';

/**
 * The authorization operations of the card group (`cards.ts`): a card's authorization history and
 * the sandbox test helpers that play the card network (authorize, capture, reverse, refund).
 */
export const CARD_AUTHORIZATION_OPERATIONS: readonly Operation<CardsServices>[] = [
  cardListOperation({
    name: 'listCardAuthorizations',
    summary: "List a card's authorizations",
    description: 'The authorization history of a card, approved and declined (with the decline reason), newest first.',
    access: 'key',
    permission: 'payments:read',
    http: { method: 'GET', path: '/v1/cards/{id}/authorizations', status: 200 },
    params: cardParam,
    mcp: { tool: 'list_card_authorizations', hints: HINTS.read },
    filters: () => ({}),
    output: 'authorizationPageView',
    errors: [...cardErrors],
    list: ({ services, auth, params }, page) => services.cards.listAuthorizations(auth, params.id!, page),
    present: presentAuthorization,
  }),
  cardOperation({
    name: 'createTestAuthorization',
    summary: 'Simulate a card authorization (test helper)',
    description:
      'Sandbox only: the card network asks to authorize `amount` at `merchant`, decided by the same engine as live authorizations. Answers 201 with the authorization, APPROVED (the amount held on the wallet) or DECLINED with its reason (no money moved).',
    access: 'organization',
    permission: 'payments:write',
    audit: AUDIT.card.authorize,
    events: ['card.authorization.approved', 'card.authorization.declined'],
    idempotency: 'key',
    sandboxOnly: true,
    http: { method: 'POST', path: '/v1/test-helpers/cards/{id}/authorizations', status: 201 },
    params: cardParam,
    body: () =>
      z.strictObject({
        amount: decimal('The amount the merchant asks for.'),
        merchant: describe(
          z.strictObject({
            name: describe(
              merchantNameSchema(),
              `The merchant's name (1-${MAX_MERCHANT_NAME} characters, at least one letter or digit). Wallet policies match it as merchant:<name lower-cased, keeping only letters and digits>: merchant:openai blocks "OpenAI" and "OPEN AI".`,
            ),
            category: category(
              'The merchant category: an MCC such as "5734" or a name such as "computer_software_stores".',
            ),
            country: z.optional(country("The merchant's country, ISO 3166-1 alpha-2.")),
          }),
          'The merchant, as the network describes it.',
        ),
        idempotencyKey: idempotencyKey(),
      }),
    output: 'authorizationView',
    errors: [
      ...cardErrors,
      'INVALID_AMOUNT',
      'SANDBOX_ONLY',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
      'CONCURRENT_UPDATE',
    ],
    run: ({ services, auth, audit, params, body, idempotencyKey: key }) =>
      services.cards.authorize(auth, audit, params.id!, { amount: body.amount, merchant: body.merchant }, key),
  }),
  cardOperation({
    name: 'captureTestAuthorization',
    summary: 'Capture a card authorization (test helper)',
    description:
      'Sandbox only: captures an APPROVED authorization: `amount` (default all of it) is paid, the rest released to the wallet. A single-use card is cancelled. Any other state: INVALID_STATE.',
    access: 'organization',
    permission: 'payments:write',
    audit: AUDIT.card.capture,
    events: ['card.authorization.captured', 'card.cancelled'],
    idempotency: 'key',
    sandboxOnly: true,
    http: { method: 'POST', path: '/v1/test-helpers/authorizations/{id}/capture', status: 200 },
    params: authorizationParam,
    body: () =>
      z.strictObject({
        amount: z.optional(decimal('Amount to capture, at most the authorized amount (default: all of it).')),
        idempotencyKey: idempotencyKey(),
      }),
    output: 'authorizationView',
    errors: [
      'AUTHORIZATION_NOT_FOUND',
      'ENVIRONMENT_MISMATCH',
      'INVALID_STATE',
      'INVALID_AMOUNT',
      'SANDBOX_ONLY',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
      'CONCURRENT_UPDATE',
    ],
    run: ({ services, auth, audit, params, body, idempotencyKey: key }) =>
      services.cards.capture(auth, audit, params.id!, body?.amount, key),
  }),
  cardOperation({
    name: 'reverseTestAuthorization',
    summary: 'Reverse a card authorization (test helper)',
    description:
      "Sandbox only: reverses an APPROVED authorization: the whole hold is released to the wallet and the card's limits count it no more. Any other state: INVALID_STATE.",
    access: 'organization',
    permission: 'payments:write',
    audit: AUDIT.card.reverse,
    events: ['card.authorization.reversed'],
    sandboxOnly: true,
    http: { method: 'POST', path: '/v1/test-helpers/authorizations/{id}/reverse', status: 200 },
    params: authorizationParam,
    output: 'authorizationView',
    errors: ['AUTHORIZATION_NOT_FOUND', 'ENVIRONMENT_MISMATCH', 'INVALID_STATE', 'SANDBOX_ONLY', 'CONCURRENT_UPDATE'],
    run: ({ services, auth, audit, params }) => services.cards.reverse(auth, audit, params.id!),
    present: presentAuthorization,
  }),
  cardOperation({
    name: 'refundTestAuthorization',
    summary: 'Refund a card purchase (test helper)',
    description:
      "Sandbox only: the merchant refunds `amount` of a CAPTURED authorization to the card's wallet (available at once). Refunds never add up to more than was captured (INVALID_AMOUNT).",
    access: 'organization',
    permission: 'payments:write',
    audit: AUDIT.card.refund,
    events: ['card.refund.created'],
    idempotency: 'key',
    sandboxOnly: true,
    http: { method: 'POST', path: '/v1/test-helpers/authorizations/{id}/refund', status: 201 },
    params: authorizationParam,
    body: () => z.strictObject({ amount: decimal('Amount to refund.'), idempotencyKey: idempotencyKey() }),
    output: 'cardRefundView',
    errors: [
      'AUTHORIZATION_NOT_FOUND',
      'ENVIRONMENT_MISMATCH',
      'INVALID_STATE',
      'INVALID_AMOUNT',
      'SANDBOX_ONLY',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
      'CONCURRENT_UPDATE',
    ],
    run: ({ services, auth, audit, params, body, idempotencyKey: key }) =>
      services.cards.refund(auth, audit, params.id!, body.amount, key),
  }),
];
