import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { setupE2e } from '../fixtures/e2e-setup.js';

/** The per-IP limit of the public invoice routes and of the hosted pages. */
describe('public invoice routes and hosted pages are rate limited per IP', () => {
  const { service } = setupE2e({ env: { [ENV.publicRateLimitPerSecond]: '3' } });

  it('answers 429 with Retry-After on the public API route and an error page with the page headers', async () => {
    const api = await Promise.all(
      Array.from({ length: 12 }, () => service.call('GET', '/v1/invoices/pay/noSuchSlug000000000000000')),
    );
    const limited = api.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(api.every((r) => r.status === 404 || r.status === 429)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const pages = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${service.baseUrl}/hosted/invoices/noSuchSlug000000000000000`).then(async (r) => ({
          status: r.status,
          headers: r.headers,
          text: await r.text(),
        })),
      ),
    );
    const limitedPages = pages.filter((r) => r.status === 429);
    expect(limitedPages.length).toBeGreaterThan(0);
    expect(limitedPages[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limitedPages[0]!.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(limitedPages[0]!.headers.get('cache-control')).toBe('no-store');
    expect(limitedPages[0]!.text).toMatch(/^<!doctype html>/);
  });
});
