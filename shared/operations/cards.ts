import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { CardService } from '../domain/cards/card-service.js';
import { MAX_LIMIT_CATEGORIES, MAX_SPENDING_LIMITS } from '../domain/cards/card-rules.js';
import { presentAuthorization, presentCard, presentCardholder } from '../domain/cards/card-view.js';
import { isCountryCode } from '../domain/cards/countries.js';
import { MAX_MERCHANT_NAME, merchantNameSchema } from '../domain/cards/network-request.js';
import { CARD_TYPES, SPENDING_INTERVALS } from '../domain/cards/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import { describe, idempotencyKey, name, text, walletId } from './fields.js';
import { listOperation } from './list.js';

export interface CardsServices {
  cards: CardService;
}

const op = operation<CardsServices>();
const list = listOperation<CardsServices>();

const cardParam = { id: 'The card id (`card_...`).' };
const cardholderParam = { id: 'The cardholder id (`crh_...`).' };
const authorizationParam = { id: 'The authorization id (`auth_...`).' };

/** Decimal strings only (the money rules check them: INVALID_AMOUNT naming the field). */
const decimal = (description: string) =>
  describe(
    z.string().check(z.maxLength(64, 'must be at most 64 characters')),
    `${description} A decimal string such as "25.00", at most 2 decimal places.`,
  );

const country = (description: string) =>
  describe(
    z
      .string()
      .check(
        z.maxLength(2, 'must be an ISO 3166-1 alpha-2 country code'),
        z.refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code'),
      ),
    description,
  );

const CATEGORY = /^[A-Za-z0-9_]{1,64}$/;
const category = (description: string) =>
  describe(
    z
      .string()
      .check(
        z.maxLength(64, 'must be 1-64 letters, digits or _'),
        z.regex(CATEGORY, 'must be 1-64 letters, digits or _'),
      ),
    description,
  );

const spendingLimits = () =>
  describe(
    z
      .array(
        z.strictObject({
          amount: decimal('The most the card may spend in the interval.'),
          interval: describe(
            z.enum(SPENDING_INTERVALS),
            'per_authorization, daily, weekly, monthly, yearly or all_time (calendar intervals in UTC; weeks from Monday).',
          ),
          categories: z.optional(
            describe(
              z
                .array(
                  category('A merchant category: an MCC such as "5734" or a name such as "computer_software_stores".'),
                )
                .check(
                  z.minLength(1, 'must name at least one category'),
                  z.maxLength(MAX_LIMIT_CATEGORIES, `must hold at most ${MAX_LIMIT_CATEGORIES} categories`),
                ),
              'Merchant categories: when given, the card pays only merchants in these categories (others are declined category_blocked), and this limit counts their spend.',
            ),
          ),
        }),
      )
      .check(z.maxLength(MAX_SPENDING_LIMITS, `must hold at most ${MAX_SPENDING_LIMITS} limits`)),
    "The card's spending limits; every one applies. An authorization over any of them is declined `spending_limit_exceeded`.",
  );

const cardErrors = ['CARD_NOT_FOUND', 'ENVIRONMENT_MISMATCH'] as const;
const changeErrors = [...cardErrors, 'INVALID_STATE', 'CONCURRENT_UPDATE'] as const;

/**
 * Cards (interface-spec 4.6, decisions.md section 5, docs/api.md "Cards"). Permissions as the spec
 * says: `payments:write` to create cards and cardholders and to change or cancel cards,
 * `payments:read` to read them, `cards:sensitive_read` for the details. An agent key may create,
 * freeze and cancel cards of its own wallet only; lifting a card's guardrails (PATCH: new limits or
 * status, unfreeze), cardholders (people's data) and the details (the full number) need an
 * organization key, and the details are never an MCP tool. Freezing has its own two
 * operations beside PATCH (the MCP tools freeze_card and unfreeze_card of spec 4.13).
 */
export const CARDS = defineGroup<CardsServices>()(
  'cards',
  {
    // Card numbers and CVCs are sealed and opened.
    grants: ['dataKey:seal'],
  },
  [
    op({
      name: 'createCardholder',
      summary: 'Create a cardholder',
      description:
        'Creates the person or business named on cards, with a billing address (country as ISO 3166-1 alpha-2).',
      access: 'organization',
      permission: 'payments:write',
      audit: AUDIT.cardholder.create,
      http: { method: 'POST', path: '/v1/cards/cardholders', status: 201 },
      mcp: { tool: 'create_cardholder', hints: HINTS.create },
      body: () =>
        z.strictObject({
          name: name("The cardholder's name."),
          email: z.optional(
            describe(
              z.email({ error: 'must be an email address' }).check(z.maxLength(254, 'must be at most 254 characters')),
              'Email address.',
            ),
          ),
          phone: z.optional(
            describe(
              z
                .string()
                .check(
                  z.maxLength(20, 'must be a phone number such as +14155550100'),
                  z.regex(/^\+?[0-9 ()-]{4,20}$/, 'must be a phone number such as +14155550100'),
                ),
              'Phone number, e.g. +14155550100.',
            ),
          ),
          billingAddress: describe(
            z.strictObject({
              line1: text(200, 'Street address.', { trim: true, min: 1 }),
              line2: z.optional(text(200, 'Apartment, suite or floor.', { trim: true })),
              city: text(100, 'City.', { trim: true, min: 1 }),
              state: text(100, 'State, province or region.', { trim: true, min: 1 }),
              postalCode: text(20, 'Postal code.', { trim: true, min: 1 }),
              country: country('Country, ISO 3166-1 alpha-2 (e.g. US).'),
            }),
            'The billing address.',
          ),
        }),
      output: 'cardholderView',
      errors: [],
      run: ({ services, auth, audit, body }) => services.cards.createCardholder(auth, audit, body),
      present: presentCardholder,
    }),
    list({
      name: 'listCardholders',
      summary: 'List cardholders',
      description: 'The cardholders of this organization and environment, newest first.',
      access: 'organization',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/cards/cardholders', status: 200 },
      mcp: { tool: 'list_cardholders', hints: HINTS.read },
      filters: () => ({}),
      output: 'cardholderPageView',
      errors: [],
      list: ({ services, auth }, page) => services.cards.listCardholders(auth, page),
      present: presentCardholder,
    }),
    op({
      name: 'getCardholder',
      summary: 'Get a cardholder',
      description: 'One cardholder with its billing address.',
      access: 'organization',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/cards/cardholders/{id}', status: 200 },
      params: cardholderParam,
      mcp: { tool: 'get_cardholder', hints: HINTS.read },
      output: 'cardholderView',
      errors: ['CARDHOLDER_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, params }) => services.cards.getCardholder(auth, params.id!),
      present: presentCardholder,
    }),
    op({
      name: 'createCard',
      summary: 'Create a virtual card',
      description:
        "Issues a virtual Visa card funded by a wallet: each authorization is approved only if the card is ACTIVE, the wallet ACTIVE, every spending limit and category allows it, the wallet's spend policies allow it and the wallet holds the amount (then held until captured or reversed). The answer never holds the full number or CVC (GET /v1/cards/{id}/details). An agent key may create cards on its own wallet only.",
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.card.create,
      events: ['card.created'],
      http: { method: 'POST', path: '/v1/cards', status: 201 },
      mcp: { tool: 'create_card', hints: HINTS.create },
      body: () =>
        z.strictObject({
          walletId: walletId('The wallet that funds the card; an agent key may name only its own wallet.'),
          type: describe(
            z.enum(CARD_TYPES),
            'PERSISTENT (any number of purchases) or SINGLE_USE (cancelled automatically after its first capture).',
          ),
          spendingLimits: z.optional(spendingLimits()),
          cardholderId: z.optional(
            text(128, 'The cardholder named on the card (`crh_...`; organization keys only).', { min: 1 }),
          ),
        }),
      output: 'cardView',
      errors: ['WALLET_NOT_FOUND', 'CARDHOLDER_NOT_FOUND', 'ENVIRONMENT_MISMATCH', 'INVALID_AMOUNT', 'INVALID_STATE'],
      run: ({ services, auth, audit, body }) => services.cards.create(auth, audit, body),
      present: presentCard,
    }),
    list({
      name: 'listCards',
      summary: 'List cards',
      description:
        "The cards of the organization, or of one wallet, newest first (metadata only). An agent key sees only its own wallet's cards.",
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/cards', status: 200 },
      mcp: { tool: 'list_cards', hints: HINTS.read },
      filters: () => ({ walletId: z.optional(walletId('Only cards funded by this wallet.')) }),
      output: 'cardPageView',
      errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      list: ({ services, auth, query }, page) => services.cards.list(auth, { walletId: query.walletId }, page),
      present: presentCard,
    }),
    op({
      name: 'getCard',
      summary: 'Get a card',
      description: "One card's metadata: status, last4, brand and spending limits; never the full number or CVC.",
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/cards/{id}', status: 200 },
      params: cardParam,
      mcp: { tool: 'get_card', hints: HINTS.read },
      output: 'cardView',
      errors: [...cardErrors],
      run: ({ services, auth, params }) => services.cards.get(auth, params.id!),
      present: presentCard,
    }),
    op({
      name: 'getCardDetails',
      summary: "Get a card's number and CVC",
      description:
        "The sensitive details of a card: full number, CVC and expiry. Needs cards:sensitive_read on an organization key; every read is recorded in the audit log (card.details.viewed). Never offered as an MCP tool, so a card number never enters a model's context.",
      access: 'organization',
      permission: 'cards:sensitive_read',
      http: { method: 'GET', path: '/v1/cards/{id}/details', status: 200 },
      params: cardParam,
      output: 'cardDetailsView',
      errors: [...cardErrors, 'INVALID_STATE'],
      run: ({ services, auth, params }) => services.cards.details(auth, params.id!),
    }),
    op({
      name: 'updateCard',
      summary: 'Update a card',
      description:
        "Changes either the status (INACTIVE freezes: every authorization is declined card_inactive; ACTIVE unfreezes) or the spending limits (replaced as a whole). A CANCELLED card answers INVALID_STATE. Organization keys only: an agent key can not lift its card's guardrails (it may freeze or cancel the card).",
      access: 'organization',
      permission: 'payments:write',
      audit: AUDIT.card.update,
      events: ['card.updated'],
      http: { method: 'PATCH', path: '/v1/cards/{id}', status: 200 },
      params: cardParam,
      mcp: { tool: 'update_card', hints: HINTS.update },
      body: () =>
        z.strictObject({
          status: z.optional(
            describe(z.enum(['ACTIVE', 'INACTIVE']), 'INACTIVE to freeze the card, ACTIVE to unfreeze it.'),
          ),
          spendingLimits: z.optional(spendingLimits()),
        }),
      output: 'cardView',
      errors: [...changeErrors, 'VALIDATION_ERROR', 'INVALID_AMOUNT'],
      run: ({ services, auth, audit, params, body }) => services.cards.update(auth, audit, params.id!, body),
      present: presentCard,
    }),
    op({
      name: 'freezeCard',
      summary: 'Freeze a card',
      description:
        'Sets the card INACTIVE (the same as PATCH with status INACTIVE): every authorization is declined card_inactive until it is unfrozen. Freezing a frozen card changes nothing.',
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.card.freeze,
      events: ['card.updated'],
      http: { method: 'POST', path: '/v1/cards/{id}/freeze', status: 200 },
      params: cardParam,
      mcp: { tool: 'freeze_card', hints: HINTS.update },
      output: 'cardView',
      errors: [...changeErrors],
      run: ({ services, auth, audit, params }) => services.cards.freeze(auth, audit, params.id!),
      present: presentCard,
    }),
    op({
      name: 'unfreezeCard',
      summary: 'Unfreeze a card',
      description:
        'Sets a frozen card ACTIVE again (the same as PATCH with status ACTIVE). Unfreezing an active card changes nothing. Organization keys only: an agent key can not unfreeze a card someone froze.',
      access: 'organization',
      permission: 'payments:write',
      audit: AUDIT.card.unfreeze,
      events: ['card.updated'],
      http: { method: 'POST', path: '/v1/cards/{id}/unfreeze', status: 200 },
      params: cardParam,
      mcp: { tool: 'unfreeze_card', hints: HINTS.update },
      output: 'cardView',
      errors: [...changeErrors],
      run: ({ services, auth, audit, params }) => services.cards.unfreeze(auth, audit, params.id!),
      present: presentCard,
    }),
    op({
      name: 'cancelCard',
      summary: 'Cancel a card',
      description:
        'Cancels the card for good (CANCELLED): new authorizations are declined card_cancelled; approved ones can still be captured or reversed.',
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.card.cancel,
      events: ['card.cancelled'],
      http: { method: 'DELETE', path: '/v1/cards/{id}', status: 200 },
      params: cardParam,
      mcp: { tool: 'cancel_card', hints: HINTS.destructive },
      output: 'cardView',
      errors: [...changeErrors],
      run: ({ services, auth, audit, params }) => services.cards.cancel(auth, audit, params.id!),
      present: presentCard,
    }),
    list({
      name: 'listCardAuthorizations',
      summary: "List a card's authorizations",
      description:
        'The authorization history of a card, approved and declined (with the decline reason), newest first.',
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
    op({
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
    op({
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
    op({
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
    op({
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
  ],
);
