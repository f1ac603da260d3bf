import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import type { Browser, Page } from 'playwright-core';
import { freshContext, launchChromium } from '../fixtures/chromium.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { hostedApi } from '../fixtures/hosted-journeys.js';
import { expectAccessibleAndCspClean, watchConsole } from '../fixtures/page-checks.js';

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill('2030');
  await page.getByLabel('Security code').fill('123');
}

describe('hosted pages in a browser: payment-method setup and update', () => {
  const { service, org } = setupE2e({
    organizations: { org: 'Acme Analytics' },
    env: { [ENV.dataEncryptionKey]: randomBytes(32).toString('hex') },
  });
  const api = hostedApi(service, () => org.key);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    console.log(`browser: Chromium ${browser.version()}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds card 4242 on the setup page, which the API then lists as the default; the link is then used', async () => {
    const customer = await api.customer();
    const path = await api.setupPath(customer.id);
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);

    await page.goto(service.baseUrl + path);
    await expect(page.locator('h1').textContent()).resolves.toBe('Add a payment method');
    await expect(page.getByLabel('Card number').getAttribute('autocomplete')).resolves.toBe('cc-number');
    await expectAccessibleAndCspClean(page, seen);
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save payment method' }).click();
    await page.waitForURL(/saved=1$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Payment method saved');
    await expectAccessibleAndCspClean(page, seen);

    expect(await api.paymentMethods(customer.id)).toMatchObject([{ type: 'card', last4: '4242', isDefault: true }]);
    await page.goto(service.baseUrl + path);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link has already been used');
    await expectAccessibleAndCspClean(page, seen);
    await context.close();
  });

  it('shows a refused number in an alert and keeps the link open', async () => {
    const customer = await api.customer();
    const path = await api.setupPath(customer.id);
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(service.baseUrl + path);
    await fillCard(page, '4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Save payment method' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Card number: /);
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
    await expectAccessibleAndCspClean(page, seen);
    expect(await api.paymentMethods(customer.id)).toEqual([]);
    await context.close();
  });

  it('adds a bank account with JavaScript disabled, then replaces it by card through an update link', async () => {
    const customer = await api.customer();
    // Without JavaScript (axe itself needs it: the pages are checked with it on, in the tests above and below).
    const context = await freshContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(service.baseUrl + (await api.setupPath(customer.id)));
    await page.getByRole('link', { name: 'US bank account' }).click();
    await page.getByLabel('Account holder name').fill('Dana Client');
    await page.getByLabel('Routing number').fill('110000000');
    await page.getByLabel('Account number').fill('000123456789');
    await page.getByLabel('Account type').selectOption('savings');
    await page.getByRole('button', { name: 'Save payment method' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Payment method saved');
    expect(await api.paymentMethods(customer.id)).toMatchObject([{ type: 'us_bank_account', last4: '6789' }]);

    await page.goto(service.baseUrl + (await api.updatePath(customer.id)));
    await expect(page.locator('h1').textContent()).resolves.toBe('Update your payment method');
    await expect(page.locator('main').textContent()).resolves.toContain('ending in 6789');
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Replace payment method' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Payment method saved');
    expect(await api.paymentMethods(customer.id)).toMatchObject([{ type: 'card', last4: '4242', isDefault: true }]);
    await context.close();
  });

  it('shows the bank account form and the update page without axe or CSP violations', async () => {
    const customer = await api.customer();
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(`${service.baseUrl}${await api.setupPath(customer.id)}?method=bank`);
    await expect(page.locator('legend').textContent()).resolves.toBe('Bank account details');
    await expectAccessibleAndCspClean(page, seen);
    await service.call('POST', `/v1/test-helpers/customers/${customer.id}/payment-methods`, {
      key: org.key,
      body: { type: 'card' },
    });
    await page.goto(service.baseUrl + (await api.updatePath(customer.id)));
    await expect(page.locator('h1').textContent()).resolves.toBe('Update your payment method');
    await expectAccessibleAndCspClean(page, seen);
    await context.close();
  });
});
