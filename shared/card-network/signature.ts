import { createHmac, timingSafeEqual } from 'node:crypto';
import { CARD_NETWORK_SIGNATURE_TOLERANCE_S } from './function.js';

/**
 * Request signing of the card network endpoint (docs/api.md "Cards: the card network endpoint"):
 *
 *   x-allowance-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The key is the secret's UTF-8 bytes; the body is signed byte for byte as sent. Several `v1=`
 * entries may be sent (a processor rotating its secret signs with both); one match is enough.
 * A timestamp more than the tolerance away from our clock, in the past (a replay) or in the
 * future, is refused whatever the signature. Within the window a replayed request is answered by
 * the engine's idempotency on the processor's request id, so it never moves money twice.
 */

/** Why a request was refused; none of these says more to the caller than "not authenticated". */
export type SignatureRefusal = 'missing' | 'malformed' | 'stale' | 'future' | 'mismatch';

export type SignatureCheck = { ok: true; timestampS: number } | { ok: false; reason: SignatureRefusal };

const SCHEME = 'v1';
const HEX_SHA256 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;
/** More entries than any honest sender needs: bounds the work an attacker can ask for. */
const MAX_SIGNATURES = 4;
const MAX_HEADER_LENGTH = 1024;

function hmacOf(secret: string, timestampS: number, body: string | Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestampS}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
}

/** The header value signing `body` at `timestampS` (the processor's side; tests and the docs' example). */
export function signCardNetworkRequest(secret: string, body: string | Uint8Array, timestampS: number): string {
  return `t=${timestampS},${SCHEME}=${hmacOf(secret, timestampS, body).toString('hex')}`;
}

/** The timestamp and the `v1` signatures of a header, or undefined if it is not of the scheme's form. */
function parseHeader(header: string): { timestampS: number; signatures: Buffer[] } | undefined {
  if (header.length > MAX_HEADER_LENGTH) return undefined;
  let timestampS: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return undefined;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') {
      if (timestampS !== undefined || !UNIX_SECONDS.test(value)) return undefined;
      timestampS = Number(value);
    } else if (name === SCHEME) {
      if (!HEX_SHA256.test(value)) return undefined;
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (a future v2) are ignored, as long as a v1 entry is there.
  }
  if (timestampS === undefined || signatures.length === 0 || signatures.length > MAX_SIGNATURES) return undefined;
  return { timestampS, signatures };
}

/**
 * Checks a request's signature header against the raw body, the secret and the current time.
 * Constant time in the comparison of the digests (both 32 bytes, compared with timingSafeEqual,
 * every entry compared even after a match).
 */
export function verifyCardNetworkSignature(input: {
  header: string | undefined;
  body: string | Uint8Array;
  secret: string;
  nowS: number;
  toleranceS?: number;
}): SignatureCheck {
  const { header, body, secret, nowS } = input;
  const toleranceS = input.toleranceS ?? CARD_NETWORK_SIGNATURE_TOLERANCE_S;
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  if (parsed.timestampS < nowS - toleranceS) return { ok: false, reason: 'stale' };
  if (parsed.timestampS > nowS + toleranceS) return { ok: false, reason: 'future' };
  // An empty secret would make anyone's HMAC computable: it never verifies anything.
  if (secret.length === 0) return { ok: false, reason: 'mismatch' };
  const expected = hmacOf(secret, parsed.timestampS, body);
  let matched = false;
  for (const signature of parsed.signatures) matched = timingSafeEqual(signature, expected) || matched;
  return matched ? { ok: true, timestampS: parsed.timestampS } : { ok: false, reason: 'mismatch' };
}
