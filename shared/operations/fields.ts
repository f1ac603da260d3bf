import * as z from 'zod/mini';
import { describe } from '../domain/views.js';

/**
 * Input field builders shared by the catalog modules. Every field carries a description written
 * for the people and models that call the API; every string is bounded (decisions.md section 9).
 */
export { describe };

/** Amounts are checked by the money rules (INVALID_AMOUNT), so the schema only admits the JSON types. */
export const amount = (description: string) =>
  describe(z.union([z.string(), z.number()], { error: 'must be a decimal string or a number' }), `${description} A decimal string such as "25.00" (preferred) or a JSON number; at most 2 decimal places.`);

/** A wallet id in a body or query (bounded: it becomes part of a table key). */
export const walletId = (description: string) => describe(z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'is not a wallet id')), description);

export const name = (description: string) =>
  describe(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')), description);

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export const idempotencyKey = () =>
  z.optional(
    describe(
      z.string().check(z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH)),
      'Idempotency key (1-255 printable characters). The same key with the same parameters within 24 hours returns the first answer instead of acting again; with other parameters it fails with IDEMPOTENCY_KEY_REUSE. May also be sent as the Idempotency-Key header. Without a key, a retry may act twice.',
    ),
  );

export const note = (description: string) => z.optional(describe(z.string().check(z.maxLength(1024)), description));

/** Paging fields of every list (decisions.md section 9): `limit` 1..100 (default 20) and the signed `cursor`. */
export const pageFields = {
  limit: z.optional(describe(z.string().check(z.maxLength(20, 'must be an integer between 1 and 100')), 'Page size, an integer from 1 to 100 (default 20).')),
  cursor: z.optional(describe(z.string().check(z.maxLength(4096)), 'The `cursor` of the previous page; pages are bound to the same list, filters and key.')),
};
