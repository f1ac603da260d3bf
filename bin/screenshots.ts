/**
 * npm run screenshots: every hosted page and the dashboard's pages (bin/dashboard-screenshots.ts), at
 * 1280x800 and 390x844, into docs/screenshots/ (PNG).
 * Starts its own DynamoDB Local and local server (as npm start does, on a free port and an
 * in-memory table), makes the data through the API (an organization, a customer, links, invoices),
 * then opens each page in Debian's chromium (CHROMIUM_PATH). Looked at, never pixel-diffed: fonts
 * differ by machine. Needs Java (DynamoDB Local) and Chromium, as the tests do.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENV } from '../shared/config/env-names.js';
import { loadConfig } from '../shared/config/config.js';
import { createContainer } from '../shared/runtime/container.js';
import { launchChromium } from '../test/fixtures/chromium.js';
import { dashboardScreenshots } from './dashboard-screenshots.js';
import { ensureOperatorKey } from './local/bootstrap.js';
import { ensureTable, freePort, startDynamoLocal } from './local/dynamodb-local.js';
import { createLocalServer } from './local/server.js';
import { startLocalWorkers } from './local/workers.js';

const OUT_DIR = resolve('docs/screenshots');
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const;
const CARD = { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };

type Api = (method: string, path: string, key: string, body?: unknown) => Promise<any>;

/** Each page to photograph: a file name and how to reach it (a path, or a form to send first). */
interface Shot {
  name: string;
  path: string;
  /** Fill and send the page's form before the picture (the answer page is photographed). */
  submit?: { fields: Record<string, string>; button: string };
}

async function main() {
  const dynamo = await startDynamoLocal();
  const port = await freePort();
  // localhost, as npm start: the dashboard's cookies and passkeys want a host name.
  const baseUrl = `http://localhost:${port}`;
  Object.assign(process.env, {
    [ENV.dynamodbEndpoint]: dynamo.endpoint,
    [ENV.tableName]: `screenshots-${randomBytes(4).toString('hex')}`,
    [ENV.localRun]: '1',
    [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
    [ENV.webhookEncryptionKey]: randomBytes(32).toString('hex'),
    [ENV.publicBaseUrl]: baseUrl,
  });
  const config = loadConfig();
  await ensureTable(dynamo.endpoint, config.tableName);
  const adminKey = await ensureOperatorKey(createContainer(config), undefined);
  const server = createLocalServer();
  const workers = startLocalWorkers({
    log: { log: () => undefined, error: console.error, warn: () => undefined } as never,
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', () => done()));
  const browser = await launchChromium();
  try {
    console.log(`browser: Chromium ${browser.version()}`);
    const api: Api = async (method, path, key, body) => {
      const response = await fetch(baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await response.json()) as any;
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    const shots = await makeData(api, adminKey);
    mkdirSync(OUT_DIR, { recursive: true });
    for (const size of SIZES) {
      for (const shot of shots) {
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
        const page = await context.newPage();
        await page.goto(baseUrl + shot.path);
        if (shot.submit) {
          for (const [label, value] of Object.entries(shot.submit.fields)) await page.getByLabel(label).fill(value);
          await page.getByRole('button', { name: shot.submit.button }).click();
          await page.waitForLoadState('load');
        }
        const file = `${OUT_DIR}/${shot.name}-${size.name}.png`;
        await page.screenshot({ path: file, fullPage: true });
        console.log(`wrote ${file}`);
        await context.close();
      }
    }
    await dashboardScreenshots({
      api,
      adminKey,
      baseUrl,
      browser,
      sizes: SIZES,
      write: async (page, name) => {
        const file = `${OUT_DIR}/${name}.png`;
        await page.screenshot({ path: file, fullPage: true });
        console.log(`wrote ${file}`);
      },
    });
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
    await workers.stop();
    await dynamo.stop();
  }
}

/** The organization, customers, links and invoices the pages show; the shots in order. */
async function makeData(api: Api, adminKey: string): Promise<Shot[]> {
  const org = await api('POST', '/v1/internal/organizations', adminKey, { name: 'Acme Analytics' });
  const key = org.sandboxKey as string;
  const customer = async (name: string, email: string) => (await api('POST', '/v1/customers', key, { email, name })).id;
  const linkPath = async (path: string) => new URL((await api('POST', path, key)).url).pathname;
  const dana = await customer('Dana Client', 'dana@example.com');
  const setup = await linkPath(`/v1/customers/${dana}/payment-methods/setup`);
  const used = await linkPath(`/v1/customers/${dana}/payment-methods/setup`);
  await api('POST', `/v1/payment-method-sessions/${used.split('/').pop()}`, key, CARD);
  const update = await linkPath(`/v1/customers/${dana}/payment-update-url`);
  const shots: Shot[] = [
    { name: 'unknown-link', path: '/hosted/invoices/this-link-does-not-exist' },
    { name: 'payment-method-setup-card', path: setup },
    { name: 'payment-method-setup-bank', path: `${setup}?method=bank` },
    {
      name: 'payment-method-setup-refused',
      path: setup,
      submit: {
        fields: {
          'Card number': '4242 4242 4242 4241',
          'Expiry month': '12',
          'Expiry year': '2030',
          'Security code': '123',
        },
        button: 'Save payment method',
      },
    },
    { name: 'payment-method-used-link', path: used },
    { name: 'payment-method-update', path: update },
  ];
  if (!(await catalogHas('/v1/invoices/pay/none-such-slug'))) {
    console.log('no invoice operations in this catalog: invoice pages skipped');
    return shots;
  }
  const invoice = async () => {
    const created = await api('POST', '/v1/invoices', key, {
      walletId: org.mainWalletId,
      customerId: dana,
      lineItems: [
        { description: 'Research hours (November)', quantity: 12, unitPrice: '85.00' },
        { description: 'Data export', unitPrice: '149.50' },
      ],
      dueDate: '2026-12-15',
      memo: 'Thank you for your business.',
    });
    const finalized = await api('POST', `/v1/invoices/${created.id}/finalize`, key);
    return { id: created.id as string, path: new URL(finalized.hostedUrl).pathname };
  };
  const open = await invoice();
  const paid = await invoice();
  await api('POST', `/v1/invoices/pay/${paid.path.split('/').pop()}/payments`, key, CARD);
  const voided = await invoice();
  await api('POST', `/v1/invoices/${voided.id}/void`, key);
  const card = {
    'Card number': '4000 0000 0000 0002',
    'Expiry month': '12',
    'Expiry year': '2030',
    'Security code': '123',
  };
  const linkShots = (await catalogHas('/v1/payment-links/claim/none-such-slug'))
    ? await paymentLinkShots(api, key)
    : (console.log('no payment-link operations in this catalog: claim pages skipped'), []);
  return [
    ...shots,
    ...linkShots,
    { name: 'invoice-open', path: open.path },
    { name: 'checkout-card', path: `${open.path}/checkout?method=card` },
    { name: 'checkout-bank', path: `${open.path}/checkout?method=bank` },
    {
      name: 'checkout-declined',
      path: `${open.path}/checkout?method=card`,
      submit: { fields: card, button: 'Pay $1,169.50' },
    },
    { name: 'invoice-paid', path: paid.path },
    { name: 'receipt', path: `${paid.path}/receipt` },
    { name: 'invoice-voided', path: voided.path },
  ];
}

/** Whether the running catalog serves a route (an unknown route answers 404 NOT_FOUND; an unknown resource its own code). */
async function catalogHas(path: string): Promise<boolean> {
  const answer = await fetch(new URL(path, process.env[ENV.publicBaseUrl]));
  return !(answer.status === 404 && ((await answer.json()) as any).error?.code === 'NOT_FOUND');
}

/** The claim page of payment links in each state a person meets (a wallet of 500.00 funds them). */
async function paymentLinkShots(api: Api, key: string): Promise<Shot[]> {
  const wallet = async (name: string) => (await api('POST', '/v1/wallets', key, { name })).id as string;
  const funds = await wallet('Bounties');
  await api('POST', `/v1/wallets/${funds}/fund`, key, { amount: '500.00' });
  const earnings = await wallet('Earnings');
  const link = async (body: Record<string, unknown> = {}) => {
    const created = await api('POST', '/v1/payment-links', key, {
      walletId: funds,
      amount: '40.00',
      description: 'Bug bounty #12: the export crash',
      ...body,
    });
    return { id: created.id as string, path: new URL(created.url).pathname };
  };
  const open = await link();
  const restricted = await link({ recipientRestrictions: { emails: ['robin@example.com'] } });
  const claimed = await link();
  await api('POST', `/v1/payment-links/claim/${claimed.path.split('/').pop()}/claim`, key, {
    method: 'wallet',
    destination: { type: 'WALLET', walletId: earnings },
  });
  const cancelled = await link();
  await api('PATCH', `/v1/payment-links/${cancelled.id}`, key, { status: 'CANCELLED' });
  return [
    { name: 'payment-link-claim-wallet', path: open.path },
    { name: 'payment-link-claim-bank', path: `${open.path}?method=bank` },
    { name: 'payment-link-claim-usdc', path: `${open.path}?method=usdc` },
    { name: 'payment-link-restricted', path: restricted.path },
    {
      name: 'payment-link-refused-email',
      path: restricted.path,
      submit: {
        fields: { 'Email address': 'someone@example.com', 'Wallet ID': earnings },
        button: 'Claim $40.00',
      },
    },
    { name: 'payment-link-sent', path: `${claimed.path}?claimed=wallet` },
    { name: 'payment-link-claimed', path: claimed.path },
    { name: 'payment-link-cancelled', path: cancelled.path },
  ];
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
