/**
 * The paths of the hosted pages (decisions.md section 12; the hosted edge serves them, the areas
 * only build their URLs). A full URL is `hostedUrl(config, path)` (shared/config/hosted-urls.ts):
 * services receive it as a `HostedUrl` function, so the domain never reads configuration.
 */
export const HOSTED_PATHS = {
  /** The setup or update page of a payment-method session (the session decides which). */
  paymentMethodSession: (token: string) => `/hosted/payment-methods/${encodeURIComponent(token)}`,
  invoice: (slug: string) => `/hosted/invoices/${encodeURIComponent(slug)}`,
  checkout: (slug: string) => `/hosted/invoices/${encodeURIComponent(slug)}/checkout`,
  receipt: (slug: string) => `/hosted/invoices/${encodeURIComponent(slug)}/receipt`,
  /** The claim page of a payment link (its `url`). */
  paymentLink: (slug: string) => `/hosted/payment-links/${encodeURIComponent(slug)}`,
} as const;

/** A hosted page's path (one of HOSTED_PATHS) -> the absolute URL a client opens. */
export type HostedUrl = (path: string) => string;

/**
 * The dashboard's paths that the service itself hands out (decisions.md section 12): the invitation a
 * user accepts (`inviteUrl` = PUBLIC_BASE_URL + this path), the sign-in page. The dashboard's own page
 * paths live with its edge (shared/dashboard/paths.ts).
 */
export const DASHBOARD_ENTRY_PATHS = {
  home: '/dashboard',
  signIn: '/dashboard/sign-in',
  invitation: (token: string) => `/dashboard/invitations/${encodeURIComponent(token)}`,
} as const;
