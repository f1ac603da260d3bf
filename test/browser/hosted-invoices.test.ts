import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ENV } from '../../shared/config/env-names.js';
import { freshContext, launchChromium } from '../fixtures/chromium.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { hostedApi } from '../fixtures/hosted-journeys.js';
import { expectAccessibleAndCspClean, watchConsole } from '../fixtures/page-checks.js';

const TOTAL_TEXT = '$1,169.50';

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry month').fill('12');
  await page.getByLabel('Expiry year').fill('2030');
  await page.getByLabel('Security code').fill('123');
}

const h1 = (page: Page) => page.locator('h1').textContent();

describe('hosted pages in a browser: invoice, checkout, receipt', () => {
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

  it('customer -> setup page adds 4242 -> invoice of two lines -> finalize -> paid by card on the checkout page -> PAID, receipt', async () => {
    const customer = await api.customer();
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(service.baseUrl + (await api.setupPath(customer.id)));
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save payment method' }).click();
    await expect(h1(page)).resolves.toBe('Payment method saved');

    const invoice = await api.finalizedInvoice(customer.id, org.mainWalletId);
    await page.goto(service.baseUrl + invoice.path);
    await expect(h1(page)).resolves.toMatch(/^Invoice INV-/);
    await expect(page.locator('tfoot').textContent()).resolves.toContain(TOTAL_TEXT);
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    await expectAccessibleAndCspClean(page, seen);
    await page.getByRole('link', { name: 'Pay by card' }).click();
    await expect(h1(page)).resolves.toBe(`Pay ${TOTAL_TEXT}`);
    await expectAccessibleAndCspClean(page, seen);
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: `Pay ${TOTAL_TEXT}` }).click();
    await page.waitForURL(/\/receipt$/);
    await expect(h1(page)).resolves.toBe('Receipt');
    await expect(page.locator('main').textContent()).resolves.toContain('Payment received');
    await expectAccessibleAndCspClean(page, seen);
    // Card fees: 2.9% + 0.30 = 34.22 and 0.5% = 5.85 (each half-up to the cent): the wallet gets 1,129.43.
    expect(await api.invoice(invoice.id)).toMatchObject({
      status: 'PAID',
      amountPaid: '1169.50',
      netAmount: '1129.43',
    });

    // Paid: the invoice page links the receipt, and the checkout page sends there.
    await page.goto(`${service.baseUrl}${invoice.path}/checkout`);
    await expect(page.url()).toMatch(/\/receipt$/);
    await page.goto(service.baseUrl + invoice.path);
    await expect(page.getByRole('link', { name: 'View the receipt' }).count()).resolves.toBe(1);
    await expectAccessibleAndCspClean(page, seen);
    await context.close();
  });

  it('shows the decline of 4000000000000002 in an alert and leaves the invoice FINALIZED', async () => {
    const customer = await api.customer();
    const invoice = await api.finalizedInvoice(customer.id, org.mainWalletId);
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(`${service.baseUrl}${invoice.path}/checkout?method=card`);
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: `Pay ${TOTAL_TEXT}` }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Your card was declined\./);
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
    await expectAccessibleAndCspClean(page, seen);
    expect(await api.invoice(invoice.id)).toMatchObject({ status: 'FINALIZED', amountPaid: '0.00' });
    await context.close();
  });

  it('pays by card with JavaScript disabled', async () => {
    const customer = await api.customer();
    const invoice = await api.finalizedInvoice(customer.id, org.mainWalletId);
    const context = await freshContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(service.baseUrl + invoice.path);
    await page.getByRole('link', { name: 'Pay by card' }).click();
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: `Pay ${TOTAL_TEXT}` }).click();
    await expect(h1(page)).resolves.toBe('Receipt');
    expect((await api.invoice(invoice.id)).status).toBe('PAID');
    await context.close();
  });

  it('takes a bank account on the checkout page with JavaScript disabled: the payment is pending until the debit settles', async () => {
    const customer = await api.customer();
    const invoice = await api.finalizedInvoice(customer.id, org.mainWalletId);
    const context = await freshContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(service.baseUrl + invoice.path);
    await page.getByRole('link', { name: 'Pay by bank account' }).click();
    await page.getByLabel('Account holder name').fill('Dana Client');
    await page.getByLabel('Routing number').fill('110000000');
    await page.getByLabel('Account number').fill('000123456789');
    await page.getByRole('button', { name: `Pay ${TOTAL_TEXT}` }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('A bank payment is on its way');
    await context.close();
    const checked = await freshContext(browser);
    const view = await checked.newPage();
    const seen = watchConsole(view);
    await view.goto(service.baseUrl + invoice.path);
    await expectAccessibleAndCspClean(view, seen);
    await checked.close();
  });

  it('shows the USDC address with the exact amount; a transfer of it pays the invoice and the receipt says USDC', async () => {
    const customer = await api.customer();
    const invoice = await api.finalizedInvoice(customer.id, org.mainWalletId);
    const context = await freshContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(service.baseUrl + invoice.path);
    await page.getByRole('button', { name: 'Show the USDC address' }).click();
    const facts = page.locator('section[aria-labelledby="usdc-heading"] dd');
    await expect(facts.nth(0).textContent()).resolves.toBe('1169.50 USDC');
    await expect(facts.nth(1).textContent()).resolves.toBe('Ethereum');
    const address = (await facts.nth(2).textContent())!;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await context.close();
    const checked = await freshContext(browser);
    const view = await checked.newPage();
    const seen = watchConsole(view);
    await view.goto(service.baseUrl + invoice.path);
    await view.getByRole('button', { name: 'Show the USDC address' }).click();
    // Asking again gives the same address (the invoice's own).
    await expect(view.locator('section[aria-labelledby="usdc-heading"] dd').nth(2).textContent()).resolves.toBe(
      address,
    );
    await expectAccessibleAndCspClean(view, seen);

    // The sandbox chain: exactly the amount due arrives at the address.
    const incoming = await service.call('POST', '/v1/test-helpers/usdc/incoming', {
      key: org.key,
      body: { address, amount: '1169.50' },
    });
    expect(incoming.status, incoming.text).toBe(200);
    expect(incoming.body).toMatchObject({ outcome: 'PAID', invoiceId: invoice.id });
    await view.goto(`${service.baseUrl}${invoice.path}/receipt`);
    await expect(h1(view)).resolves.toBe('Receipt');
    await expect(view.locator('main').textContent()).resolves.toContain('USDC');
    await expectAccessibleAndCspClean(view, seen);
    // USDC fees: 0.50 flat and 0.5% = 5.85: the wallet gets 1,163.15.
    expect(await api.invoice(invoice.id)).toMatchObject({ status: 'PAID', netAmount: '1163.15' });
    await checked.close();
  });

  it('answers a voided invoice and an unknown one with their refusal pages', async () => {
    const customer = await api.customer();
    const invoice = await api.finalizedInvoice(customer.id, org.mainWalletId);
    const voided = await service.call('POST', `/v1/invoices/${invoice.id}/void`, { key: org.key });
    expect(voided.status, voided.text).toBe(200);
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    const response = await page.goto(`${service.baseUrl}${invoice.path}/checkout`);
    expect(response?.status()).toBe(410);
    await expect(h1(page)).resolves.toBe('This invoice was cancelled');
    await expectAccessibleAndCspClean(page, seen);
    await page.goto(`${service.baseUrl}/hosted/invoices/not-an-invoice-slug`);
    await expect(h1(page)).resolves.toBe('This link is not valid');
    await context.close();
  });
});
