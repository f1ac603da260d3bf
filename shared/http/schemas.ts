import { z } from 'zod';

/** Schema pieces shared by several function groups. */
export const listQuery = z.strictObject({
  limit: z.string().optional(),
  cursor: z.string().optional(),
});

/** Amounts are checked by the money rules (INVALID_AMOUNT), so the schema only admits the JSON types. */
export const amountInput = z.union([z.string(), z.number()], { error: 'must be a decimal string or a number' });

/** A wallet id in a body or query (bounded: it becomes part of a table key). */
export const walletIdField = z.string().min(1, 'must not be empty').max(128, 'is not a wallet id');

export const nonEmptyName = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
