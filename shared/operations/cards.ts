import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import { presentCard } from '../domain/cards/card-view.js';
import { CARD_TYPES } from '../domain/cards/types.js';
import { CARD_AUTHORIZATION_OPERATIONS } from './card-authorization-operations.js';
import { cardErrors, cardParam, spendingLimits } from './card-fields.js';
import { cardListOperation, cardOperation, type CardsServices } from './card-operation.js';
import { CARDHOLDER_OPERATIONS } from './cardholder-operations.js';
import { HINTS, defineGroup, type Operation } from './define.js';
import { describe, text, walletId } from './fields.js';

export type { CardsServices } from './card-operation.js';

const changeErrors = [...cardErrors, 'INVALID_STATE', 'CONCURRENT_UPDATE'] as const;

/** The operations on cards themselves: create, list, read, details, change, freeze, unfreeze, cancel. */
const CARD_OPERATIONS: readonly Operation<CardsServices>[] = [
  cardOperation({
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
  cardListOperation({
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
  cardOperation({
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
  cardOperation({
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
  cardOperation({
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
  cardOperation({
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
  cardOperation({
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
  cardOperation({
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
];

/**
 * Cards (interface-spec 4.6, decisions.md section 5, docs/api.md "Cards"). Permissions as the spec
 * says: `payments:write` to create cards and cardholders and to change or cancel cards,
 * `payments:read` to read them, `cards:sensitive_read` for the details. An agent key may create,
 * freeze and cancel cards of its own wallet only; lifting a card's guardrails (PATCH: new limits or
 * status, unfreeze), cardholders (people's data) and the details (the full number) need an
 * organization key, and the details are never an MCP tool. Freezing has its own two
 * operations beside PATCH (the MCP tools freeze_card and unfreeze_card of spec 4.13). The group joins
 * the cardholder operations (`cardholder-operations.ts`), the card operations above and the
 * authorization operations (`card-authorization-operations.ts`); their request fields are in `card-fields.ts`.
 */
export const CARDS = defineGroup<CardsServices>()(
  'cards',
  {
    // Card numbers and CVCs are sealed and opened.
    grants: ['dataKey:seal'],
  },
  [...CARDHOLDER_OPERATIONS, ...CARD_OPERATIONS, ...CARD_AUTHORIZATION_OPERATIONS],
);
