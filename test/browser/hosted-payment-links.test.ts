import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ENV } from '../../shared/config/env-names.js';
import { freshContext, launchChromium } from '../fixtures/chromium.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectAccessibleAndCspClean, watchConsole } from '../fixtures/page-checks.js';

const h1 = (page: Page) => page.locator('h1').textContent();

/** How long a link made to expire in the test lives (the in-process scheduler fires at expiresAt). */
const SHORT_LIFE_MS = 3_000;
const EXPIRY_WAIT_MS = 20_000;

describe('hosted pages in a browser: the payment-link claim page', () => {
  const { service, ledger, sender, claimant } = setupE2e({
    organizations: { sender: 'Sender Org', claimant: 'Claimant Org' },
    // A bank claim seals the account number (with the transfer it starts).
    env: { [ENV.dataEncryptionKey]: randomBytes(32).toString('hex') },
  });
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    console.log(`browser: Chromium ${browser.version()}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A wallet of the sender with 100.00, and a link of `body` on it: its page path and id. */
  async function linkOn(body: Record<string, unknown> = {}) {
    const walletId = await ledger.fundedWallet(sender, '100.00', 'Bounties');
    const created = await service.call('POST', '/v1/payment-links', {
      key: sender.key,
      body: { walletId, amount: '40.00', description: 'Bug bounty #12', ...body },
    });
    expect(created.status, created.text).toBe(201);
    return { walletId, id: created.body.id as string, path: new URL(created.body.url as string).pathname };
  }

  async function balances(key: string, walletId: string) {
    const response = await service.call('GET', `/v1/wallets/${walletId}/balance`, { key });
    expect(response.status, response.text).toBe(200);
    return { available: response.body.balance as string, held: response.body.heldBalance as string };
  }

  async function linkStatus(id: string) {
    const response = await service.call('GET', `/v1/payment-links/${id}`, { key: sender.key });
    expect(response.status, response.text).toBe(200);
    return response.body.status as string;
  }

  /** The claimant's new wallet (another organization), empty. */
  const claimantWallet = () => ledger.createWallet(claimant.key, 'Earnings');

  it("claims a link to another organization's wallet: the SETTLED page, balances to the cent", async () => {
    const link = await linkOn();
    // 40.00 + the fee reserve 0.25 (0.5%, at least 0.25) held at creation.
    expect(await balances(sender.key, link.walletId)).toEqual({ available: '59.75000000', held: '40.25000000' });
    const target = await claimantWallet();
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    const response = await page.goto(service.baseUrl + link.path);
    expect(response?.status()).toBe(200);
    await expect(h1(page)).resolves.toBe('Claim $40.00');
    await expect(page.locator('main').textContent()).resolves.toContain('Bug bounty #12');
    await expect(page.locator('header').textContent()).resolves.toContain('Sandbox');
    await expect(page.getByLabel('Email address').count()).resolves.toBe(0);
    await expectAccessibleAndCspClean(page, seen);
    // The other forms are a link away, each accessible.
    await page.getByRole('link', { name: 'US bank account' }).click();
    await expect(page.getByLabel('Routing number').count()).resolves.toBe(1);
    await expectAccessibleAndCspClean(page, seen);
    await page.getByRole('link', { name: 'USDC address' }).click();
    await expect(page.getByLabel('Network').inputValue()).resolves.toBe('Ethereum');
    await expectAccessibleAndCspClean(page, seen);
    await page.getByRole('link', { name: 'Allowance wallet' }).click();

    await page.getByLabel('Wallet ID').fill(target);
    await page.getByRole('button', { name: 'Claim $40.00' }).click();
    await page.waitForURL(/\?claimed=wallet$/);
    await expect(h1(page)).resolves.toBe('Sent to your wallet');
    await expect(page.getByRole('status').textContent()).resolves.toBe('$40.00 is in your Allowance wallet now.');
    await expectAccessibleAndCspClean(page, seen);
    expect(seen.errors).toEqual([]);
    await context.close();

    expect(await linkStatus(link.id)).toBe('SETTLED');
    // The hold is gone, the fee reserve is back: the wallet paid exactly the amount.
    expect(await balances(sender.key, link.walletId)).toEqual({ available: '60.00000000', held: '0.00000000' });
    expect(await balances(claimant.key, target)).toEqual({ available: '40.00000000', held: '0.00000000' });
  });

  it('claims a link with JavaScript disabled', async () => {
    const link = await linkOn({ amount: '12.34' });
    const target = await claimantWallet();
    const context = await freshContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(service.baseUrl + link.path);
    await page.getByRole('link', { name: 'US bank account' }).click();
    await page.getByRole('link', { name: 'Allowance wallet' }).click();
    await page.getByLabel('Wallet ID').fill(target);
    await page.getByRole('button', { name: 'Claim $12.34' }).click();
    await expect(h1(page)).resolves.toBe('Sent to your wallet');
    // Opened again later, the link says it was claimed.
    await page.goto(service.baseUrl + link.path);
    await expect(h1(page)).resolves.toBe('This link has been claimed');
    await context.close();
    // Fee reserve of 12.34: 0.25 (the minimum), back to available.
    expect(await balances(sender.key, link.walletId)).toEqual({ available: '87.66000000', held: '0.00000000' });
    expect(await balances(claimant.key, target)).toEqual({ available: '12.34000000', held: '0.00000000' });
  });

  it('claims a link to a bank account: the page says the money is on its way (CLAIMED)', async () => {
    const link = await linkOn();
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(`${service.baseUrl}${link.path}?method=bank`);
    await page.getByLabel('Account holder name').fill('Robin Claimant');
    await page.getByLabel('Routing number').fill('110000000');
    await page.getByLabel('Account number').fill('000123456789');
    await page.getByRole('button', { name: 'Claim $40.00' }).click();
    await page.waitForURL(/\?claimed=bank$/);
    await expect(h1(page)).resolves.toMatch(/^(On its way to|Sent to) your bank account$/);
    await expect(page.locator('body').textContent()).resolves.not.toContain('000123456789');
    await expectAccessibleAndCspClean(page, seen);
    await context.close();
    expect(['CLAIMED', 'SETTLED']).toContain(await linkStatus(link.id));
  });

  it('shows a link as expired once its expiresAt has passed, its hold released', async () => {
    const link = await linkOn({ expiresAt: new Date(Date.now() + SHORT_LIFE_MS).toISOString() });
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(service.baseUrl + link.path);
    await expect(h1(page)).resolves.toBe('Claim $40.00');
    await expect
      .poll(async () => (await page.goto(service.baseUrl + link.path))?.status(), {
        timeout: EXPIRY_WAIT_MS,
        interval: 500,
      })
      .toBe(410);
    await expect(h1(page)).resolves.toBe('This link has expired');
    await expectAccessibleAndCspClean(page, seen);
    await context.close();
    // The page says EXPIRED from expiresAt on; the expiry's schedule releases the hold (at about the same time).
    await expect.poll(() => linkStatus(link.id), { timeout: EXPIRY_WAIT_MS }).toBe('EXPIRED');
    await expect
      .poll(() => balances(sender.key, link.walletId), { timeout: EXPIRY_WAIT_MS })
      .toEqual({ available: '100.00000000', held: '0.00000000' });
  });

  it('shows a cancelled link as cancelled', async () => {
    const link = await linkOn();
    const cancelled = await service.call('PATCH', `/v1/payment-links/${link.id}`, {
      key: sender.key,
      body: { status: 'CANCELLED' },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    const response = await page.goto(service.baseUrl + link.path);
    expect(response?.status()).toBe(410);
    await expect(h1(page)).resolves.toBe('This link was cancelled');
    await expectAccessibleAndCspClean(page, seen);
    await context.close();
  });

  it('refuses a wrong email on a restricted link in an alert, then claims with the right one', async () => {
    const link = await linkOn({ recipientRestrictions: { emails: ['Robin.Claimant@example.com'] } });
    const target = await claimantWallet();
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(service.baseUrl + link.path);
    await expectAccessibleAndCspClean(page, seen);
    await page.getByLabel('Email address').fill('someone.else@example.com');
    await page.getByLabel('Wallet ID').fill(target);
    await page.getByRole('button', { name: 'Claim $40.00' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /^Email address: this link is only for the recipients the sender named/,
    );
    await expect(page.getByLabel('Email address').getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessibleAndCspClean(page, seen);
    expect(await linkStatus(link.id)).toBe('ACTIVE');

    await page.getByLabel('Email address').fill('robin.claimant@example.com');
    await page.getByRole('button', { name: 'Claim $40.00' }).click();
    await expect(h1(page)).resolves.toBe('Sent to your wallet');
    await context.close();
    expect(await balances(claimant.key, target)).toEqual({ available: '40.00000000', held: '0.00000000' });
  });

  it('shows an unknown wallet id in an alert naming the field, and claims nothing', async () => {
    const link = await linkOn();
    const context = await freshContext(browser);
    const page = await context.newPage();
    const seen = watchConsole(page);
    await page.goto(service.baseUrl + link.path);
    await page.getByLabel('Wallet ID').fill('wal_doesNotExist0000000000');
    await page.getByRole('button', { name: 'Claim $40.00' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/^Wallet ID: /);
    await expectAccessibleAndCspClean(page, seen);
    await context.close();
    expect(await linkStatus(link.id)).toBe('ACTIVE');
  });
});
