import * as z from 'zod/mini';
import type { AuditAction } from '../audit/actions.js';
import { ApiError, type ErrorCode } from '../errors.js';
import { ID_PREFIX } from '../ids.js';
import { parseAmount } from '../money.js';
import type { Environment } from '../tenancy.js';
import { lazy, safeParse } from '../validation.js';
import type { AuthorizationRequest, NetworkDecision } from './authorization-engine.js';

const CLIENT_CAUSED: ReadonlySet<ErrorCode> = new Set(['INVALID_AMOUNT', 'IDEMPOTENCY_KEY_REUSE']);

/** The longest merchant name taken (networks print at most a few dozen characters; processors' longer forms fit). */
export const MAX_MERCHANT_NAME = 128;

/**
 * A merchant name as an authorization request may give it: trimmed, 1-128 characters, one line,
 * and at least one letter or digit (wallet policies match its normalized form, which keeps only
 * letters and digits: authorization-decision.ts `normalizeMerchantName`).
 */
export const merchantNameSchema = () =>
  z.string().check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(MAX_MERCHANT_NAME, `must be at most ${MAX_MERCHANT_NAME} characters`),
    z.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
    z.regex(/[\p{L}\p{N}]/u, 'must contain a letter or a digit'),
    z.refine((value: string) => !/\p{Cs}/u.test(value), 'must be valid Unicode text'),
  );

/**
 * The card network's real-time authorization request, as `functions/card-network` receives it
 * (docs/api.md "Cards: the card network function"): the issuing processor's adapter invokes the
 * function with this event and answers the network with the decision. Anything malformed is
 * declined (`invalid_request`); an unexpected failure is declined too (`processing_error`), never
 * approved: a card network treats no answer as a decline anyway.
 */
export const networkRequest = /* @__PURE__ */ lazy(() =>
  z.strictObject({
    /** The processor's id of this request: a retry of it gets the first decision. */
    networkId: z.string().check(z.minLength(1), z.maxLength(128), z.regex(/^[\x21-\x7e]+$/)),
    cardId: z.string().check(z.maxLength(128), z.regex(new RegExp(`^${ID_PREFIX.card}[A-Za-z0-9]+$`))),
    amount: z.string().check(z.maxLength(32), z.regex(/^\d+(\.\d{1,2})?$/)),
    currency: z.literal('USD'),
    merchant: z.strictObject({
      name: merchantNameSchema(),
      category: z.string().check(z.regex(/^[A-Za-z0-9_]{1,64}$/)),
      country: z.optional(z.string().check(z.regex(/^[A-Za-z]{2}$/))),
    }),
  }),
);
export type NetworkRequest = z.infer<typeof networkRequest>;

export type NetworkAnswer = NetworkDecision | { approved: false; reason: 'invalid_request' | 'processing_error' };

export async function answerNetworkRequest(
  engine: {
    authorizeForNetwork(
      action: AuditAction,
      request: AuthorizationRequest & { cardId: string; networkId: string },
      environment: Environment,
    ): Promise<NetworkDecision>;
  },
  event: unknown,
  log: Pick<Console, 'error'>,
  environment: Environment,
  /** The audit action of a decision: the card network function's (shared/card-network/function.ts). */
  action: AuditAction,
): Promise<NetworkAnswer> {
  const parsed = safeParse(networkRequest, event);
  if (!parsed.success) return { approved: false, reason: 'invalid_request' };
  try {
    // The money rules (more than zero, at most 1,000,000,000.00, plain decimals): a zero-amount
    // verification or a malformed amount is the processor's request, not our failure.
    parseAmount(parsed.data.amount, { allowNumber: false });
  } catch {
    return { approved: false, reason: 'invalid_request' };
  }
  try {
    return await engine.authorizeForNetwork(action, parsed.data, environment);
  } catch (error) {
    // The same request id with other terms: the processor's mistake, answered without an alarm.
    if (error instanceof ApiError && CLIENT_CAUSED.has(error.code))
      return { approved: false, reason: 'invalid_request' };
    // Never the request itself in the log: only what failed.
    log.error('card network authorization failed', error instanceof Error ? error.message : 'unknown error');
    return { approved: false, reason: 'processing_error' };
  }
}
