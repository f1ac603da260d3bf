import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import { presentCardholder } from '../domain/cards/card-view.js';
import { cardholderParam, country } from './card-fields.js';
import { cardListOperation, cardOperation, type CardsServices } from './card-operation.js';
import { HINTS, type Operation } from './define.js';
import { describe, name, text } from './fields.js';

/**
 * The cardholder operations of the card group (`cards.ts`): create, list and get the people or
 * businesses named on cards. Organization keys only (people's data).
 */
export const CARDHOLDER_OPERATIONS: readonly Operation<CardsServices>[] = [
  cardOperation({
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
  cardListOperation({
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
  cardOperation({
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
];
