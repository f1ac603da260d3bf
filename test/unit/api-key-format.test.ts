import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checksum,
  hashesEqual,
  hashKey,
  issueKey,
  KEY_CHECKSUM_LENGTH,
  KEY_PREFIX,
  KEY_SECRET_LENGTH,
  parseKey,
} from '../../shared/auth/api-key-format.js';
import type { KeyKind } from '../../shared/domain/ports.js';

const KEY_SHAPE = /^svc_(test|live|admin)_[0-9A-Za-z]{38}$/;
const KINDS: KeyKind[] = ['SANDBOX', 'PRODUCTION', 'OPERATOR'];
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Replaces the character at `index` with a different base62 character. */
function changeCharAt(text: string, index: number, step = 1): string {
  const current = BASE62.indexOf(text.charAt(index));
  const replacement = BASE62.charAt((current + step) % BASE62.length);
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('API key format', () => {
  it('uses the prefixes of the spec for each kind', () => {
    expect(KEY_PREFIX).toEqual({ SANDBOX: 'svc_test_', PRODUCTION: 'svc_live_', OPERATOR: 'svc_admin_' });
    expect(KEY_SECRET_LENGTH + KEY_CHECKSUM_LENGTH).toBe(38);
  });

  it.each(KINDS)('issues a %s key of the documented shape with its own prefix', (kind) => {
    const issued = issueKey(kind);
    expect(issued.raw).toMatch(KEY_SHAPE);
    expect(issued.raw.startsWith(KEY_PREFIX[kind])).toBe(true);
    expect(issued.prefix).toBe(KEY_PREFIX[kind]);
    expect(issued.last4).toBe(issued.raw.slice(-4));
    expect(issued.hash).toBe(hashKey(issued.raw));
  });

  it('issues distinct keys', () => {
    const raws = new Set(Array.from({ length: 2000 }, () => issueKey('SANDBOX').raw));
    expect(raws.size).toBe(2000);
  });
});

describe('parseKey', () => {
  it.each(KINDS)('accepts an issued %s key and reports its kind', (kind) => {
    const { raw } = issueKey(kind);
    expect(parseKey(raw)).toEqual({ kind, raw });
  });

  it('rejects a key with any one character of the secret changed', () => {
    // Prepare
    const { raw } = issueKey('PRODUCTION');
    const start = KEY_PREFIX.PRODUCTION.length;
    // Act / Assess: every position, two different replacements each
    for (let i = start; i < start + KEY_SECRET_LENGTH; i++) {
      expect(parseKey(changeCharAt(raw, i, 1))).toBeUndefined();
      expect(parseKey(changeCharAt(raw, i, 31))).toBeUndefined();
    }
  });

  it('rejects a key with any one character of the checksum changed', () => {
    const { raw } = issueKey('SANDBOX');
    for (let i = raw.length - KEY_CHECKSUM_LENGTH; i < raw.length; i++) {
      expect(parseKey(changeCharAt(raw, i, 1))).toBeUndefined();
    }
  });

  it('rejects two adjacent characters of the secret swapped', () => {
    const { raw } = issueKey('SANDBOX');
    const start = KEY_PREFIX.SANDBOX.length;
    for (let i = start; i < start + KEY_SECRET_LENGTH - 1; i++) {
      const a = raw.charAt(i);
      const b = raw.charAt(i + 1);
      if (a === b) continue;
      const swapped = raw.slice(0, i) + b + a + raw.slice(i + 2);
      expect(parseKey(swapped)).toBeUndefined();
    }
  });

  it('rejects a valid secret and checksum under a wrong prefix', () => {
    const { raw } = issueKey('SANDBOX');
    const body = raw.slice(KEY_PREFIX.SANDBOX.length);
    for (const prefix of ['svc_prod_', 'sk_test_', 'SVC_TEST_', 'svc_test', 'svc__', '']) {
      expect(parseKey(prefix + body)).toBeUndefined();
    }
  });

  it('rejects a key one character too short or too long', () => {
    const { raw } = issueKey('SANDBOX');
    expect(parseKey(raw.slice(0, -1))).toBeUndefined();
    expect(parseKey(`${raw}a`)).toBeUndefined();
    const body = raw.slice(KEY_PREFIX.SANDBOX.length);
    // a longer secret whose checksum would still be computed over 32 characters
    expect(parseKey(`${KEY_PREFIX.SANDBOX}x${body}`)).toBeUndefined();
  });

  it('rejects keys with characters outside base62 or surrounding whitespace', () => {
    const { raw } = issueKey('SANDBOX');
    expect(parseKey(`${raw.slice(0, 12)}-${raw.slice(13)}`)).toBeUndefined();
    expect(parseKey(` ${raw}`)).toBeUndefined();
    expect(parseKey(`${raw}\n`)).toBeUndefined();
    expect(parseKey(`Bearer ${raw}`)).toBeUndefined();
  });

  it('rejects garbage', () => {
    for (const text of ['', 'svc_test_', 'hello', 'svc_test_'.padEnd(47, '0')]) {
      expect(parseKey(text)).toBeUndefined();
    }
  });

  it('accepts a hand-built key whose checksum matches its secret', () => {
    const secret = 'A'.repeat(KEY_SECRET_LENGTH);
    expect(checksum(secret)).toMatch(/^[0-9A-Za-z]{6}$/);
    expect(parseKey(`svc_live_${secret}${checksum(secret)}`)?.kind).toBe('PRODUCTION');
  });
});

describe('hashKey', () => {
  it('is the 64-character hex SHA-256 of the whole key', () => {
    const { raw } = issueKey('SANDBOX');
    const hash = hashKey(raw);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(raw).digest('hex'));
  });

  it('compares equal hashes as equal and different ones as different', () => {
    const a = hashKey(issueKey('SANDBOX').raw);
    const b = hashKey(issueKey('SANDBOX').raw);
    expect(hashesEqual(a, a)).toBe(true);
    expect(hashesEqual(a, b)).toBe(false);
    expect(hashesEqual(a, a.slice(0, 62))).toBe(false);
  });
});
