import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freshContext, launchChromium } from '../fixtures/chromium.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectAccessibleAndCspClean, watchConsole } from '../fixtures/page-checks.js';

describe('hosted pages in a browser: links that lead nowhere', () => {
  const { service } = setupE2e();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    console.log(`browser: Chromium ${browser.version()}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ['an unknown setup link', '/hosted/payment-methods/tok_unknown_0000000000'],
    ['an unknown invoice link', '/hosted/invoices/slug_unknown_00000000/checkout'],
  ])('shows %s as a page people can read, with its stylesheet and no CSP or axe violation', async (_, path) => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    const response = await page.goto(service.baseUrl + path);
    expect(response?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link is not valid');
    // The stylesheet applied (served by our own origin under the CSP): the skip link is off screen until focused.
    expect(await page.evaluate('getComputedStyle(document.querySelector("a.skip")).top')).toBe('-64px');
    await page.keyboard.press('Tab');
    await expect(page.evaluate('document.activeElement.className')).resolves.toBe('skip');
    await expectAccessibleAndCspClean(page, seen);
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('reports a CSP violation when there is one (the check can fail): an inline script is refused', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(`${service.baseUrl}/hosted/invoices/slug_unknown_00000000`);
    await page.addScriptTag({ content: 'document.body.dataset.ran = "yes";' }).catch(() => undefined);
    await expect.poll(() => seen.cspViolations.length).toBeGreaterThan(0);
    await expect(page.evaluate('document.body.dataset.ran')).resolves.toBeUndefined();
    await context.close();
  });

  it('reads without JavaScript, at 390 px without sideways scrolling', async () => {
    const context = await freshContext(browser, { javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${service.baseUrl}/hosted/invoices/slug_unknown_00000000`);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link is not valid');
    await context.close();
    const measuring = await freshContext(browser, { viewport: { width: 390, height: 844 } });
    const narrow = await measuring.newPage();
    await narrow.goto(`${service.baseUrl}/hosted/invoices/slug_unknown_00000000`);
    const widths = (await narrow.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await measuring.close();
  });
});
