import { createHmac, timingSafeEqual } from 'node:crypto';
import { validationError } from '../domain/errors.js';
import type { Page, PageRequest } from '../domain/types.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `limit` of a list request: an integer in 1..100, default 20 (decisions.md section 9). */
export function parseLimit(raw: string | undefined, fallback = DEFAULT_PAGE_SIZE): number {
  return parseQueryInteger('limit', raw, 1, MAX_PAGE_SIZE, fallback);
}

/** An integer query value (`limit`, a dispute list's `offset`) in `min..max`, else VALIDATION_ERROR naming the field. */
export function parseQueryInteger(field: string, raw: string | undefined, min: number, max: number, fallback: number) {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw validationError(field, `must be an integer between ${min} and ${max}`);
  return value;
}

/**
 * Cursors are opaque, signed (HMAC-SHA256) and bound to the query that made them: a cursor from
 * another list, another caller or another filter, or an edited one, is a VALIDATION_ERROR.
 */
export function createCursorCodec(secret: string) {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

  function encode(lastKey: Record<string, unknown>, binding: string): string {
    const payload = Buffer.from(JSON.stringify({ k: lastKey, b: binding })).toString('base64url');
    return `${payload}.${sign(payload)}`;
  }

  function decode(cursor: string, binding: string): Record<string, unknown> {
    const invalid = () => validationError('cursor', 'is not a cursor this list issued');
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k?: unknown; b?: unknown };
      if (parsed.b !== binding || typeof parsed.k !== 'object' || parsed.k === null) throw invalid();
      return parsed.k as Record<string, unknown>;
    } catch {
      throw invalid();
    }
  }

  return { encode, decode };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;

export interface ListQuery {
  limit?: string | undefined;
  cursor?: string | undefined;
}

/** Turns `limit` and `cursor` into a store page request bound to `binding`. */
export function pageRequestOf(codec: Pick<CursorCodec, 'decode'>, query: ListQuery, binding: string): PageRequest {
  const limit = parseLimit(query.limit);
  return { limit, ...(query.cursor ? { startKey: codec.decode(query.cursor, binding) } : {}) };
}

/**
 * Response shape of interface-spec 4.12: `data`, `cursor` (null on the last page), `hasMore`. A
 * feed's page (events in visible order) always has a cursor; `hasMore` says whether more is there now.
 */
export function pageResponse<T, R>(
  codec: Pick<CursorCodec, 'encode'>,
  page: Page<T>,
  binding: string,
  present: (item: T) => R,
) {
  const cursor = page.lastKey ? codec.encode(page.lastKey, binding) : null;
  return { data: page.items.map(present), cursor, hasMore: page.more ?? cursor !== null };
}
