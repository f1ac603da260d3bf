import * as z from 'zod/mini';
import { ACTIVATION_REQUIREMENTS } from './activation/requirements.js';
import { ERROR_CODES, type ErrorEnvelope } from './errors.js';
import { ID_PREFIX, type IdKind } from './ids.js';
import type { Currency } from './money.js';
import { ENVIRONMENTS } from './tenancy.js';
import { built, lazy } from './validation.js';
import { everyOf } from './enums.js';

export { built, lazy } from './validation.js';

/**
 * Building blocks of the response schemas ("views", one per wire shape). Every field carries a
 * description written for the people and models reading the API; the catalog turns the views into
 * MCP output schemas and OpenAPI, and the presenters are typed from them (`z.infer`).
 *
 * Every view a module exports is declared `/* @__PURE__ *\/ lazy(() => view(...))`: it is built on
 * first use (OpenAPI, MCP, event docs), never at import. A Lambda that only presents (every HTTP
 * function) does not pay for building the schemas of its group at cold start, and one that never
 * names a view (the workers, which import presenters only) does not even bundle it, nor zod.
 * Shared field sets are functions for the same reason. test/unit/lazy-views.test.ts checks both.
 */

type Shape = z.core.$ZodLooseShape;

export const describe = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description)) as T;

/** A response object: its fields, what it is, and one complete example (checked against the shape). */
export function view<S extends Shape>(shape: S, description: string, example: NoInfer<z.output<z.ZodMiniObject<S>>>) {
  return z.object(shape).check(z.describe(description), z.meta({ examples: [example] }));
}

/** The first example registered on a view (the page helpers build theirs from it). */
export const exampleOf = (schema: z.ZodMiniType): unknown =>
  (z.globalRegistry.get(built(schema))?.examples as unknown[] | undefined)?.[0];

// ---- Fields -------------------------------------------------------------------------------------

export const text = (description: string) => describe(z.string(), description);
export const nullableText = (description: string) => describe(z.nullable(z.string()), description);
export const flag = (description: string) => describe(z.boolean(), description);
export const integer = (description: string) => describe(z.int(), description);
export const number = (description: string) => describe(z.number(), description);
export const record = (description: string) => describe(z.record(z.string(), z.unknown()), description);
export const enumOf = <const T extends readonly string[]>(values: T, description: string) =>
  describe(z.enum(values), description);
/** The `object` discriminator of a resource. */
export const objectTag = <const T extends string>(name: T) =>
  describe(z.literal(name), `Object type, always "${name}".`);

const idBase = (kind: IdKind) => z.string().check(z.regex(new RegExp(`^${ID_PREFIX[kind]}[A-Za-z0-9]+$`)));
const idText = (kind: IdKind, description: string) => `${description} Starts with \`${ID_PREFIX[kind]}\`.`;
/** An identifier with its prefix (interface-spec 2.1), e.g. `id('wallet', 'Wallet id.')`. */
export const id = (kind: IdKind, description: string) => describe(idBase(kind), idText(kind, description));
export const nullableId = (kind: IdKind, description: string) =>
  describe(z.nullable(idBase(kind)), idText(kind, description));

const AMOUNT_FORMAT = 'A decimal string with exactly 2 decimal places, e.g. "25.00".';
const BALANCE_FORMAT = 'A decimal string with exactly 8 decimal places, e.g. "125.50000000".';
const amountBase = () => z.string().check(z.regex(/^-?\d+\.\d{2}$/));
const balanceBase = () => z.string().check(z.regex(/^-?\d+\.\d{8}$/));
/** Payment amounts, fees and limits: 2 decimals (decisions.md section 2). */
export const money = (description: string) => describe(amountBase(), `${description} ${AMOUNT_FORMAT}`);
export const nullableMoney = (description: string) =>
  describe(z.nullable(amountBase()), `${description} ${AMOUNT_FORMAT}`);
/** Balances and swept amounts: 8 decimals. */
export const balance = (description: string) => describe(balanceBase(), `${description} ${BALANCE_FORMAT}`);

const timestampBase = () => z.string().check(z.meta({ format: 'date-time' }));
export const timestamp = (description: string) =>
  describe(timestampBase(), `${description} ISO 8601 date-time in UTC.`);
export const nullableTimestamp = (description: string) =>
  describe(z.nullable(timestampBase()), `${description} ISO 8601 date-time in UTC.`);

export const CURRENCIES = everyOf<Currency>()(['USD', 'USDC']);
export const currency = (description = 'Currency of the wallet: USD or USDC.') => enumOf(CURRENCIES, description);
export const environment = (
  description = 'Environment the resource lives in: SANDBOX (test money) or PRODUCTION (real money).',
) => enumOf(ENVIRONMENTS, description);
export const usd = (description = 'Currency code, always "USD".') => describe(z.literal('USD'), description);

// ---- Lists --------------------------------------------------------------------------------------

const EXAMPLE_CURSOR =
  'eyJrIjp7InBrIjoiT1JHI29yZ19pcEs1eWZMNUQ2YVZ3eDAwIn19.Hq3N0dYp1mJc8Vf2LwXr7sKz9bTgUe4iAoP6lQhEyM0';

/** A page of a list (interface-spec 4.12): `{data, cursor, hasMore}`, newest first (built on first use, like every view). */
export function pageOf<T extends z.ZodMiniType>(item: T, description: string) {
  return lazy(() =>
    z
      .object({
        data: describe(z.array(item), 'The items of this page, newest first (at most `limit`, default 20).'),
        cursor: nullableText(
          'Opaque cursor of the next page: pass it as `cursor` with the same filters and key. Null on the last page.',
        ),
        hasMore: flag('Whether another page follows (true exactly when `cursor` is not null).'),
      })
      .check(
        z.describe(description),
        z.meta({ examples: [{ data: [exampleOf(item)], cursor: EXAMPLE_CURSOR, hasMore: true }] }),
      ),
  );
}

/**
 * A page of the audit log: the standard `{data, cursor, hasMore}` plus the deprecated `nextCursor`
 * of interface-spec 4.10 (the cursor again, absent on the last page) for the clients that read it.
 */
export function nextCursorPageOf<T extends z.ZodMiniType>(item: T, description: string) {
  return lazy(() =>
    z
      .object({
        data: describe(z.array(item), 'The items of this page, newest first (at most `limit`, default 20).'),
        cursor: nullableText(
          'Opaque cursor of the next page: pass it as `cursor` with the same filters and key. Null on the last page.',
        ),
        hasMore: flag('Whether another page follows (true exactly when `cursor` is not null).'),
        nextCursor: z.optional(
          text('Deprecated: the same value as `cursor`, absent on the last page. Read `cursor` and `hasMore`.').check(
            z.meta({ deprecated: true }),
          ),
        ),
      })
      .check(
        z.describe(description),
        z.meta({
          examples: [{ data: [exampleOf(item)], cursor: EXAMPLE_CURSOR, hasMore: true, nextCursor: EXAMPLE_CURSOR }],
        }),
      ),
  );
}

/** A complete (unpaged) list: `{data}`. */
export function listOf<T extends z.ZodMiniType>(item: T, description: string, itemsDescription: string) {
  return lazy(() =>
    z
      .object({ data: describe(z.array(item), itemsDescription) })
      .check(z.describe(description), z.meta({ examples: [{ data: [exampleOf(item)] }] })),
  );
}

// ---- Errors -------------------------------------------------------------------------------------

export const errorCode = (description: string) => enumOf(ERROR_CODES, description);

/** Fields of every error object (shared/domain/errors.ts toEnvelope). */
export const errorFields = () => ({
  code: errorCode(
    'Machine-readable error code; each code always answers with the same HTTP status (e.g. INSUFFICIENT_FUNDS 402, POLICY_DENIED 403, VALIDATION_ERROR 400). Branch on this, not on `message`.',
  ),
  message: text('Human-readable explanation of the error; the wording may change.'),
  details: z.optional(
    record(
      'Machine-readable context, when there is any: `field` (VALIDATION_ERROR, INVALID_AMOUNT), `walletId`, `balance` and `requested` (INSUFFICIENT_FUNDS), `rule`, `limit`, `spent` and `remaining` (POLICY_DENIED), `retryAfter` in seconds (RATE_LIMIT_EXCEEDED, CONCURRENT_UPDATE, IDEMPOTENCY_KEY_IN_USE), `allowed` (METHOD_NOT_ALLOWED), `idempotencyKey` (IDEMPOTENCY_KEY_REUSE). Absent when there is none.',
    ),
  ),
});

export const errorView = /* @__PURE__ */ lazy(() =>
  view(
    {
      error: describe(
        z.object({
          ...errorFields(),
          missing: z.optional(
            describe(
              z.array(z.enum(ACTIVATION_REQUIREMENTS)),
              'ACTIVATION_INCOMPLETE only: the activation requirements still missing (also in `details.missing`).',
            ),
          ),
          requestId: z.optional(
            text(
              'Id of the request, also sent as the X-Request-Id header; quote it when reporting a problem. Absent in refusals kept under an idempotency key, so that a replay is identical byte for byte.',
            ),
          ),
        }),
        'What went wrong.',
      ),
    },
    'The answer of a failed request, with the HTTP status of `error.code`.',
    {
      error: {
        code: 'INSUFFICIENT_FUNDS',
        message: 'The wallet does not hold enough available funds.',
        details: { walletId: 'wal_sbdFwe1fHYc4MU7IrQ3n5lUz', balance: '12.50000000', requested: '40.00' },
        requestId: 'c7f1b2a4-5d3e-4f60-9a8b-1e2d3c4b5a69',
      },
    },
  ),
);
export type ErrorView = z.infer<typeof errorView>;

/** The answer of GET /v1/openapi.json (the document itself is described by the OpenAPI 3.1 specification). */
export const openApiDocumentView = /* @__PURE__ */ lazy(() =>
  z.record(z.string(), z.unknown()).check(z.describe('An OpenAPI 3.1 document.')),
);

/**
 * Type-only: compiles only when `T` (what a service answers as is) fits the view `V`: assignable,
 * and without top-level fields the view does not declare (they would reach the wire undocumented).
 */
export type Conforms<T extends V & { [K in Exclude<keyof T, keyof V>]: never }, V> = T;

export type ErrorEnvelopeConforms = [Conforms<ErrorEnvelope, ErrorView>];
