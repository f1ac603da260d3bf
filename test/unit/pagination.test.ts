import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/domain/errors.js';
import {
  createCursorCodec,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  pageRequestOf,
  pageResponse,
  parseLimit,
} from '../../shared/operations/pagination.js';

const SECRET = 'test-cursor-secret';
const BINDING = 'wallets:org_1:SANDBOX';
const LAST_KEY = { PK: 'ORG#org_1', SK: 'WALLET#wal_abc', GSI1SK: '2025-01-01T00:00:00.000Z' };

function validationFieldOf(act: () => unknown): string | undefined {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.code).toBe('VALIDATION_ERROR');
    expect(apiError.status).toBe(400);
    return apiError.details?.field as string | undefined;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

/** Flips one character of `text` at `index` to another base64url character. */
function flip(text: string, index: number): string {
  const replacement = text.charAt(index) === 'A' ? 'B' : 'A';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('parseLimit', () => {
  it('defaults to 20 when no limit is given', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(parseLimit(undefined)).toBe(20);
  });

  it('treats an empty limit (?limit=) as absent', () => {
    expect(parseLimit('')).toBe(20);
  });

  it('uses the fallback given for lists with another default page size', () => {
    expect(parseLimit(undefined, 50)).toBe(50);
  });

  it.each([
    ['1', 1],
    ['20', 20],
    ['100', 100],
  ])('accepts the limit %s', (raw, expected) => {
    expect(parseLimit(raw)).toBe(expected);
  });

  it.each(['0', '101', '-1', '1.5', 'abc', ' 5', '5 ', '1e2', '+5', '0x10', '99999999999999999999'])(
    'rejects the limit %j naming the field limit',
    (raw) => {
      expect(validationFieldOf(() => parseLimit(raw))).toBe('limit');
    },
  );

  it('caps at 100', () => {
    expect(MAX_PAGE_SIZE).toBe(100);
  });
});

describe('cursor codec', () => {
  const codec = createCursorCodec(SECRET);

  it('decodes the key it encoded for the same binding', () => {
    const cursor = codec.encode(LAST_KEY, BINDING);
    expect(codec.decode(cursor, BINDING)).toEqual(LAST_KEY);
  });

  it('makes a URL-safe cursor', () => {
    const cursor = codec.encode({ PK: 'a/b+c?d=e&f', SK: 'ü' }, BINDING);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(cursor)).toBe(cursor);
  });

  it('rejects a cursor whose payload was edited', () => {
    const cursor = codec.encode(LAST_KEY, BINDING);
    expect(validationFieldOf(() => codec.decode(flip(cursor, 3), BINDING))).toBe('cursor');
  });

  it('rejects a cursor whose payload was replaced by another payload', () => {
    const [, signature] = codec.encode(LAST_KEY, BINDING).split('.');
    const forged = Buffer.from(JSON.stringify({ k: { PK: 'ORG#org_2', SK: 'WALLET#x' }, b: BINDING })).toString(
      'base64url',
    );
    expect(validationFieldOf(() => codec.decode(`${forged}.${signature}`, BINDING))).toBe('cursor');
  });

  it('rejects a cursor whose signature was edited', () => {
    const cursor = codec.encode(LAST_KEY, BINDING);
    expect(validationFieldOf(() => codec.decode(flip(cursor, cursor.length - 2), BINDING))).toBe('cursor');
  });

  it('rejects a cursor with a truncated signature', () => {
    const cursor = codec.encode(LAST_KEY, BINDING);
    expect(validationFieldOf(() => codec.decode(cursor.slice(0, -1), BINDING))).toBe('cursor');
  });

  it('rejects a cursor signed with another secret', () => {
    const other = createCursorCodec('another-secret');
    const cursor = other.encode(LAST_KEY, BINDING);
    expect(validationFieldOf(() => codec.decode(cursor, BINDING))).toBe('cursor');
  });

  it('rejects a cursor issued for another query', () => {
    const cursor = codec.encode(LAST_KEY, BINDING);
    expect(validationFieldOf(() => codec.decode(cursor, 'wallets:org_2:SANDBOX'))).toBe('cursor');
  });

  it.each(['garbage', '', '.', 'a.', '.b', 'not.base64', '%%%.%%%'])('rejects the garbage cursor %j', (cursor) => {
    expect(validationFieldOf(() => codec.decode(cursor, BINDING))).toBe('cursor');
  });

  it('rejects a valid cursor with extra dot-separated parts', () => {
    const cursor = codec.encode(LAST_KEY, BINDING);
    expect(validationFieldOf(() => codec.decode(`${cursor}.extra`, BINDING))).toBe('cursor');
    expect(validationFieldOf(() => codec.decode(`${cursor}.`, BINDING))).toBe('cursor');
    expect(validationFieldOf(() => codec.decode(`x.${cursor}`, BINDING))).toBe('cursor');
  });

  it.each(['null', '{"b":"BINDING"}', '{"k":null,"b":"BINDING"}', '{"k":"PK","b":"BINDING"}', '"text"', 'not json'])(
    'rejects a signed payload %s that is not a key object',
    (json) => {
      // Prepare: sign as the service would (HMAC-SHA256, base64url), so only the content is wrong
      const payload = Buffer.from(json.replace('BINDING', BINDING)).toString('base64url');
      const signature = createHmac('sha256', SECRET).update(payload).digest('base64url');
      // Act / Assess
      expect(validationFieldOf(() => codec.decode(`${payload}.${signature}`, BINDING))).toBe('cursor');
    },
  );
});

describe('pageRequestOf and pageResponse', () => {
  const codec = createCursorCodec(SECRET);

  it('builds a first page request without a start key', () => {
    expect(pageRequestOf(codec, {}, BINDING)).toEqual({ limit: 20 });
    expect(pageRequestOf(codec, { limit: '5' }, BINDING)).toEqual({ limit: 5 });
  });

  it('carries the last key of one page into the request for the next', () => {
    const response = pageResponse(codec, { items: [1, 2], lastKey: LAST_KEY }, BINDING, (n) => ({ n }));
    expect(response.data).toEqual([{ n: 1 }, { n: 2 }]);
    expect(response.hasMore).toBe(true);
    expect(typeof response.cursor).toBe('string');
    const next = pageRequestOf(codec, { limit: '2', cursor: response.cursor ?? undefined }, BINDING);
    expect(next).toEqual({ limit: 2, startKey: LAST_KEY });
  });

  it('ends with a null cursor and hasMore false', () => {
    expect(pageResponse(codec, { items: [] }, BINDING, (n: number) => n)).toEqual({
      data: [],
      cursor: null,
      hasMore: false,
    });
  });

  it('rejects a cursor of another list in a page request', () => {
    const cursor = codec.encode(LAST_KEY, 'cards:org_1:SANDBOX');
    expect(validationFieldOf(() => pageRequestOf(codec, { cursor }, BINDING))).toBe('cursor');
  });
});
