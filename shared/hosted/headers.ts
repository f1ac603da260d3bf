import { SECURITY_HEADERS } from '../http/security-headers.js';

/**
 * The pages' Content-Security-Policy (decisions.md section 12): our own stylesheet and script
 * only, no inline script or style (a unit test renders every page and refuses both), forms posting
 * only to this origin, never framed. `/v1` keeps its stricter `default-src 'none'`.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Every page answer (and every error page): the API's security headers with the page policy in place of the API's. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': PAGE_CSP,
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Type': 'text/html; charset=utf-8',
};

/** A year: asset names carry their content's hash, so a changed file is a new name. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** A hashed asset's answer (either edge's stylesheet or script): the page headers, a year of cache. */
export function assetResponse(asset: { contentType: string; body: string }, requestId: string) {
  return {
    statusCode: 200,
    headers: {
      ...PAGE_HEADERS,
      'Content-Type': asset.contentType,
      'Cache-Control': ASSET_CACHE_CONTROL,
      'X-Request-Id': requestId,
    },
    body: asset.body,
  };
}
