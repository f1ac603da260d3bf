import * as z from 'zod/mini';
import { RESERVED_KEY_PREFIX } from '../domain/idempotency/idempotency.js';
import { ID_PREFIX, type IdKind } from '../domain/ids.js';
import { isUsdcRecipient, recipientAsEntered, usdcRecipientOf } from '../domain/policies/recipients.js';
import { USDC_CHAIN_NAMES } from '../domain/usdc/addresses.js';
import { withThousands } from '../domain/text.js';
import { describe } from '../domain/views.js';
import { MAX_PAGE_SIZE } from './pagination.js';

/**
 * Input field builders shared by the catalog modules (decisions.md section 9). Every field carries
 * a description written for the people and models that call the API; every string and array is
 * bounded (test/unit/input-bounds.test.ts walks the catalog and fails on one that is not), and
 * every text field refuses C0 control characters and DEL: single-line fields all of them,
 * multi-line ones (descriptions, notes) all but tab and newline.
 */
export { describe };

/** No C0 control character (U+0000-U+001F) and no DEL (U+007F). */
export const SINGLE_LINE_TEXT = /^[^\u0000-\u001f\u007f]*$/;
/** Multi-line text: tab (U+0009) and newline (U+000A) allowed, every other C0 control and DEL refused. */
export const MULTI_LINE_TEXT = /^[^\u0000-\u0008\u000b-\u001f\u007f]*$/;
/** A UTF-16 surrogate without its pair: not text, and not storable as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Ids and domain names: printable ASCII without spaces (each character is one byte when stored). */
const TOKEN = /^[\u0021-\u007e]*$/;

export interface TextOptions {
  /** Fewest characters (after trimming, if trimmed). */
  min?: number;
  /** Surrounding white space removed before the checks (names); otherwise stored as written. */
  trim?: boolean;
  /** Tab and newline allowed (descriptions, notes). */
  multiline?: boolean;
  /** Message for the length bound (default: "must be at most N characters"). */
  tooLong?: string;
}

function textChecks(max: number, options: TextOptions): z.core.$ZodCheck<string>[] {
  return [
    ...(options.trim ? [z.trim()] : []),
    ...(options.min ? [z.minLength(options.min, 'must not be empty')] : []),
    z.maxLength(max, options.tooLong ?? `must be at most ${withThousands(max)} characters`),
    options.multiline
      ? z.regex(MULTI_LINE_TEXT, 'must not contain control characters other than tab and newline')
      : z.regex(SINGLE_LINE_TEXT, 'must not contain control characters'),
    z.refine((value: string) => !LONE_SURROGATE.test(value), 'must be valid Unicode text'),
  ];
}

/** A text field of at most `max` characters without control characters (see TextOptions). */
export const text = (max: number, description: string, options: TextOptions = {}) =>
  describe(z.string().check(...textChecks(max, options)), description);

/** Longest amount text: far more than any valid amount (at most 1,000,000,000.00), so only garbage is refused here. */
export const MAX_AMOUNT_TEXT_LENGTH = 64;

/** Amounts are checked by the money rules (INVALID_AMOUNT), so the schema only admits the JSON types (strings bounded). */
export const amount = (description: string) =>
  describe(
    z.union(
      [
        z.string().check(z.maxLength(MAX_AMOUNT_TEXT_LENGTH, `must be at most ${MAX_AMOUNT_TEXT_LENGTH} characters`)),
        z.number(),
      ],
      { error: 'must be a decimal string or a number' },
    ),
    `${description} A decimal string such as "25.00" (preferred) or a JSON number; at most 2 decimal places.`,
  );

/** An id of one kind (`txn_...`), named as `noun` in the refusal: bounded, and only its prefix and base62. */
export const prefixedId = (kind: IdKind, noun: string, description: string) =>
  describe(
    z
      .string()
      .check(
        z.maxLength(128, `is not a ${noun} id`),
        z.regex(new RegExp(`^${ID_PREFIX[kind]}[A-Za-z0-9]+$`), `must be a ${noun} id (${ID_PREFIX[kind]}...)`),
      ),
    description,
  );

/** A wallet id in a body or query (bounded: it becomes part of a table key). */
export const walletId = (description: string) => text(128, description, { min: 1, tooLong: 'is not a wallet id' });

/** Longest payee name: `merchant:` and a domain name of at most 253 characters. */
export const MAX_RECIPIENT_LENGTH = 262;

/**
 * A payee or recipient: a wallet id or `merchant:<domain>`, printable ASCII, with the merchant
 * domain lower-cased here, where it enters (decisions.md section 3: one payee for every rule); a
 * `usdc:[<chain>:]<address>` entry must name a valid address (of the chain it names, a supported one) and is kept as given.
 */
export const recipient = (description: string) =>
  describe(
    z.string().check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_RECIPIENT_LENGTH, `must be at most ${MAX_RECIPIENT_LENGTH} characters`),
      z.regex(TOKEN, 'must be a wallet id or merchant:<domain>'),
      z.refine(
        (name: string) => !isUsdcRecipient(name) || usdcRecipientOf(name) !== undefined,
        `usdc: must be usdc:<address> (a valid EVM or Solana address: any chain of its family) or usdc:<chain>:<address>, a valid address of ${USDC_CHAIN_NAMES.join(', ')}`,
      ),
      z.overwrite(recipientAsEntered),
    ),
    description,
  );

/**
 * Bounds of the text fields: descriptions name them by these constants (`1-${MAX_NAME_LENGTH}`), never
 * by a number of their own.
 */
export const MAX_NAME_LENGTH = 200;
export const MAX_PAYMENT_DESCRIPTION_LENGTH = 1024;
export const MAX_NOTE_LENGTH = 1024;

/** A decimal string bound (`10000.00`) as descriptions show it (`10,000.00`): whole units with thousands separators. */
export function decimalText(value: string): string {
  const [whole = '0', cents] = value.split('.');
  return `${withThousands(Number.parseInt(whole, 10))}${cents === undefined ? '' : `.${cents}`}`;
}

export const name = (description: string) => text(MAX_NAME_LENGTH, description, { trim: true, min: 1 });

/** Free text shown with a payment (multi-line, at most MAX_PAYMENT_DESCRIPTION_LENGTH characters). */
export const paymentDescription = (description: string) =>
  text(MAX_PAYMENT_DESCRIPTION_LENGTH, description, { multiline: true });

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const IDEMPOTENCY_KEY_RULE = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters without spaces`;

/** What a key does, for both places it can be sent. */
export const IDEMPOTENCY_KEY_MEANING = `Idempotency key (1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters without spaces; not starting with "${RESERVED_KEY_PREFIX}"). The same key with the same parameters within 24 hours returns the first answer instead of acting again; with other parameters it fails with IDEMPOTENCY_KEY_REUSE. Without a key, a retry may act twice.`;

/**
 * An idempotency key as the server accepts it (shared/domain/idempotency resolveIdempotencyKey
 * checks the header against the same rule): 1 to MAX_IDEMPOTENCY_KEY_LENGTH printable ASCII characters, no space. The same
 * schema documents the body field and the `Idempotency-Key` header (OpenAPI).
 */
export const idempotencyKeyValue = (description: string) =>
  describe(
    z
      .string()
      .check(
        z.minLength(1, IDEMPOTENCY_KEY_RULE),
        z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH, IDEMPOTENCY_KEY_RULE),
        z.regex(/^[\x21-\x7e]+$/, IDEMPOTENCY_KEY_RULE),
      ),
    description,
  );

export const idempotencyKey = () =>
  z.optional(idempotencyKeyValue(`${IDEMPOTENCY_KEY_MEANING} May also be sent as the Idempotency-Key header.`));

/**
 * An item's key in a batch: each item runs on its own, so a key the server refuses fails that
 * item (VALIDATION_ERROR in the 207 answer), not the whole request; the schema only bounds it.
 */
export const batchItemIdempotencyKey = () =>
  z.optional(
    text(
      MAX_IDEMPOTENCY_KEY_LENGTH,
      `${IDEMPOTENCY_KEY_MEANING} Defaults to \`<batch key>#<index>\`; an invalid key fails this item only, with VALIDATION_ERROR.`,
    ),
  );

export const note = (description: string) => z.optional(text(MAX_NOTE_LENGTH, description, { multiline: true }));

/** An ISO 8601 date-time with its offset (bounded like any other string). */
export const dateTime = (description: string) =>
  describe(z.iso.datetime({ offset: true }).check(z.maxLength(64)), description);

/**
 * A permission list: at most `max` entries as sent, duplicates removed (decisions.md section 9), so
 * a key or agent holds each permission once whatever the request repeats.
 */
export const permissionList = <T extends z.ZodMiniType<string>>(item: T, max: number, description: string) =>
  describe(
    z.array(item).check(
      z.minLength(1, 'must name at least one permission'),
      z.maxLength(max, `must hold at most ${max} entries`),
      z.overwrite((permissions) => [...new Set(permissions)]),
    ),
    description,
  );

/**
 * Query values arrive as text, and the query schemas check that text; a query field whose value is
 * a number or a flag registers here the JSON Schema of the value a client sends (`limit=20` is the
 * integer 20), which OpenAPI's parameters and the MCP tools' input declare instead of the text's.
 */
export const QUERY_VALUE_TYPES = /* @__PURE__ */ z.registry<{ json: Record<string, unknown> }>();

function typedQuery<T extends z.ZodMiniType>(schema: T, json: Record<string, unknown>): T {
  QUERY_VALUE_TYPES.add(schema, { json });
  return schema;
}

/** An integer query value in `min..max`, checked as text by the list (`limit`: parseLimit). */
export const queryInteger = (min: number, max: number, description: string) =>
  typedQuery(text(20, description, { tooLong: `must be an integer between ${min} and ${max}` }), {
    type: 'integer',
    minimum: min,
    maximum: max,
  });

/** A flag in the query: `true` or `false`. */
export const queryFlag = (description: string) =>
  typedQuery(describe(z.enum(['true', 'false']), description), { type: 'boolean' });

/**
 * The `override` of `z.toJSONSchema` for query schemas: a registered query field becomes the JSON
 * Schema of its typed value (with its description).
 */
export function typedQueryValue(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const typed = QUERY_VALUE_TYPES.get(ctx.zodSchema as z.ZodMiniType);
  if (!typed) return;
  const { description } = ctx.jsonSchema;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, typed.json, description === undefined ? {} : { description });
}

/** Paging fields of every list (decisions.md section 9): `limit` 1..100 (default 20) and the signed `cursor`. */
export const pageFields = () => ({
  limit: z.optional(queryInteger(1, MAX_PAGE_SIZE, `Page size, an integer from 1 to ${MAX_PAGE_SIZE} (default 20).`)),
  cursor: z.optional(
    text(4096, 'The `cursor` of the previous page; pages are bound to the same list, filters and key.'),
  ),
});
