import type { PaymentMethod, PaymentMethodSession, SessionStatus } from './types.js';

/** Emails are unique per organization environment compared lower-cased (after trimming). */
export const emailKey = (email: string) => email.trim().toLowerCase();

/** A setup or update link is valid this long after it was made, and once. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** Random characters of a session token: 32 of base62, about 190 bits (>= 128 asked). */
export const SESSION_TOKEN_LENGTH = 32;
/** Saved methods per customer: the default's successor is chosen among them, read whole. */
export const MAX_PAYMENT_METHODS = 10;

export function sessionStatus(session: PaymentMethodSession, now: Date): SessionStatus {
  if (session.status === 'COMPLETED') return 'COMPLETED';
  return now.getTime() >= Date.parse(session.expiresAt) ? 'EXPIRED' : 'OPEN';
}

export const sessionExpiry = (now: Date) => new Date(now.getTime() + SESSION_TTL_MS).toISOString();

/** Newest first (ties by id), as the list shows them. */
export const newestFirst = (a: PaymentMethod, b: PaymentMethod) => {
  const [x, y] = [`${a.createdAt}#${a.id}`, `${b.createdAt}#${b.id}`];
  return x === y ? 0 : x < y ? 1 : -1;
};

/**
 * The default after `removedId` goes: unchanged if another one was the default, else the newest
 * remaining method, or none.
 */
export function defaultAfterRemoval(
  currentDefault: string | null,
  methods: readonly PaymentMethod[],
  removedId: string,
): string | null {
  if (currentDefault !== null && currentDefault !== removedId) return currentDefault;
  return [...methods].filter((method) => method.id !== removedId).sort(newestFirst)[0]?.id ?? null;
}

/** SHA-256 of a session token as hex (Web Crypto: the domain imports no node module). */
export async function tokenHashOf(token: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
