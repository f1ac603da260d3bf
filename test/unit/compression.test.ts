import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { codingFor, compressed, COMPRESSION_MIN_BYTES } from '../../shared/http/compression.js';
import { jsonResponse } from '../../shared/http/responses.js';

describe('response compression', () => {
  it('picks br before gzip, honours q-values, q=0 and *', () => {
    expect(codingFor(undefined)).toBeUndefined();
    expect(codingFor('identity')).toBeUndefined();
    expect(codingFor('gzip')).toBe('gzip');
    expect(codingFor('gzip, deflate, br')).toBe('br');
    expect(codingFor('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(codingFor('br;q=0, gzip')).toBe('gzip');
    expect(codingFor('br;q=0, gzip;q=0')).toBeUndefined();
    expect(codingFor('*')).toBe('br');
    expect(codingFor('*;q=0')).toBeUndefined();
    expect(codingFor('GZIP')).toBe('gzip');
  });

  it('compresses an answer from the threshold on, as base64 with Content-Encoding, and says Vary on every answer', () => {
    const large = jsonResponse(200, { text: 'x'.repeat(COMPRESSION_MIN_BYTES) });
    const small = jsonResponse(200, { ok: true });

    const zipped = compressed(large, 'gzip');
    const plain = compressed(small, 'gzip');

    expect(zipped).toMatchObject({
      isBase64Encoded: true,
      headers: { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' },
    });
    expect(gunzipSync(Buffer.from(zipped.body, 'base64')).toString('utf8')).toBe(large.body);
    expect(plain).toMatchObject({ body: small.body, headers: { Vary: 'Accept-Encoding' } });
    expect(plain.isBase64Encoded).toBeUndefined();
    expect(plain.headers['Content-Encoding']).toBeUndefined();
  });

  it('keeps an existing Vary once and never compresses twice', () => {
    const large = {
      ...jsonResponse(200, { text: 'x'.repeat(2 * COMPRESSION_MIN_BYTES) }),
      headers: { vary: 'Origin' },
    };

    const once = compressed(large, 'br');
    const twice = compressed(once, 'br');

    expect(once.headers.Vary).toBe('Origin, Accept-Encoding');
    expect(twice).toEqual(once);
  });
});
