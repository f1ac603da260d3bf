import { SESSION_ABSOLUTE_HOURS } from '../domain/sign-in/types.js';

/**
 * The dashboard's cookies (decisions.md section 12). Deployed stages: `Secure` and the `__Host-`
 * prefix (which requires `Path=/`: the browser then refuses the cookie from any other origin or
 * subdomain and over plain HTTP). The local run serves plain http://localhost, so neither, and the
 * path is `/dashboard`. Always `HttpOnly; SameSite=Strict`. The API never reads a cookie: cookies
 * never authenticate `/v1`.
 */
export interface CookiePolicy {
  secure: boolean;
}

const base = (policy: CookiePolicy, name: string) => (policy.secure ? `__Host-${name}` : name);

/** The session's secret (its hash is the stored session's key). */
export const sessionCookieName = (policy: CookiePolicy) => base(policy, 'allowance_session');
/**
 * The sign-in forms' token before there is a session (login CSRF): a random value in this cookie
 * and in the form's `_csrf` field, which must match. Also the key of a passkey sign-in's challenge.
 */
export const preSessionCookieName = (policy: CookiePolicy) => base(policy, 'allowance_signin');

function attributes(policy: CookiePolicy, maxAgeS: number): string {
  const path = policy.secure ? '/' : '/dashboard';
  return `Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${policy.secure ? '; Secure' : ''}`;
}

export const sessionCookie = (policy: CookiePolicy, secret: string) =>
  `${sessionCookieName(policy)}=${secret}; ${attributes(policy, SESSION_ABSOLUTE_HOURS * 3600)}`;
export const clearSessionCookie = (policy: CookiePolicy) => `${sessionCookieName(policy)}=; ${attributes(policy, 0)}`;
export const preSessionCookie = (policy: CookiePolicy, value: string) =>
  `${preSessionCookieName(policy)}=${value}; ${attributes(policy, 3600)}`;

/** The value of a cookie in a Cookie header (the first of that name), or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}
