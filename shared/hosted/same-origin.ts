/**
 * Form posts of the hosted pages are accepted from the pages themselves only. The pages have no
 * session and no cookie: the link's token (or slug) in the URL is the only credential, so a
 * cross-site request forgery could do nothing the forger could not do by posting with the link
 * himself, and no CSRF token is needed (docs/api.md "Hosted pages"). Still, a form of another site
 * must not make a visitor's browser save a card or pay an invoice: the CSP's `form-action 'self'`
 * keeps our pages from posting elsewhere, and this check refuses posts that come from elsewhere.
 *
 * - `Sec-Fetch-Site` (sent by every current browser): only `same-origin` (our own form) and `none`
 *   (typed or bookmarked by the person) pass.
 * - Else `Origin`, when sent: its host must be the request's Host.
 * - Neither header (an HTTP client, an old browser): accepted; such a client is not a victim's
 *   browser carrying anything of the victim's.
 */
export function isCrossSite(
  origin: string | undefined,
  fetchSite: string | undefined,
  host: string | undefined,
): boolean {
  if (fetchSite !== undefined) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  if (origin === undefined) return false;
  if (origin === 'null' || host === undefined) return true;
  try {
    return new URL(origin).host !== host.toLowerCase();
  } catch {
    return true;
  }
}
