/**
 * Identifier prefixes (interface-spec 2.1, decisions.md section 0). The opaque part is 24 base62
 * characters from the platform CSPRNG (about 143 bits): never a counter, never guessable.
 */
export const ID_PREFIX = {
  wallet: 'wal_',
  apiKey: 'key_',
  transaction: 'txn_',
  customer: 'cus_',
  paymentLink: 'lnk_',
  approval: 'apr_',
  auditLog: 'log_',
  organization: 'org_',
  bankAccount: 'ba_',
  dispute: 'dsp_',
  transfer: 'tr_',
  policy: 'pol_',
  card: 'card_',
  cardholder: 'crh_',
  authorization: 'auth_',
  invoice: 'inv_',
  paymentMethod: 'pm_',
  usdcReceipt: 'ucr_',
  webhook: 'whk_',
  event: 'evt_',
  delivery: 'dlv_',
  /** A person who signs in to the dashboard (decisions.md section 12). */
  user: 'usr_',
  /** A dashboard session's public id (the security page lists and revokes by it; never the cookie). */
  session: 'ses_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

export const ID_RANDOM_LENGTH = 24;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 characters by rejection sampling (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = new Uint8Array(length * 2);
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(kind: IdKind): string {
  return ID_PREFIX[kind] + randomBase62(ID_RANDOM_LENGTH);
}

export type IdGenerator = (kind: IdKind) => string;

export function hasPrefix(kind: IdKind, value: string): boolean {
  return value.startsWith(ID_PREFIX[kind]) && /^[A-Za-z0-9_]+$/.test(value);
}
