import * as z from 'zod/mini';
import { MAX_LIMIT_CATEGORIES, MAX_SPENDING_LIMITS } from '../domain/cards/card-rules.js';
import { isCountryCode } from '../domain/cards/countries.js';
import { SPENDING_INTERVALS } from '../domain/cards/types.js';
import { describe } from './fields.js';

/**
 * Request fields of the card operations (cards, cardholders, authorizations): the path parameters
 * with the errors naming a card, decimal amounts, countries, merchant categories and spending limits.
 * Builders only: the operations call them inside their lazy `body: () => schema`.
 */

export const cardParam = { id: 'The card id (`card_...`).' };
export const cardholderParam = { id: 'The cardholder id (`crh_...`).' };
export const authorizationParam = { id: 'The authorization id (`auth_...`).' };

/** What an operation on `/v1/cards/{id}` may answer for the card it names. */
export const cardErrors = ['CARD_NOT_FOUND', 'ENVIRONMENT_MISMATCH'] as const;

/** Decimal strings only (the money rules check them: INVALID_AMOUNT naming the field). */
export const decimal = (description: string) =>
  describe(
    z.string().check(z.maxLength(64, 'must be at most 64 characters')),
    `${description} A decimal string such as "25.00", at most 2 decimal places.`,
  );

export const country = (description: string) =>
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
export const category = (description: string) =>
  describe(
    z
      .string()
      .check(
        z.maxLength(64, 'must be 1-64 letters, digits or _'),
        z.regex(CATEGORY, 'must be 1-64 letters, digits or _'),
      ),
    description,
  );

export const spendingLimits = () =>
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
