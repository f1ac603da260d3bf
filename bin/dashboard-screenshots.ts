/**
 * The dashboard's part of `npm run screenshots`: an organization with an agent, held payments, a
 * webhook and a key (made through the API), an owner with a password and an authenticator (written
 * through the sign-in store by test/fixtures/dashboard-session.ts, with its session's cookie); the
 * sign-in pages signed out, then each page photographed at both sizes.
 */
import type { Browser, Page } from 'playwright-core';
import { signedInContext } from '../test/fixtures/dashboard-browser.js';
import { signInAs } from '../test/fixtures/dashboard-session.js';
import type { TestService } from '../test/fixtures/local-service.js';

type Api = (method: string, path: string, key: string, body?: unknown) => Promise<any>;

interface Size {
  name: string;
  width: number;
  height: number;
}

/** One page to photograph once signed in: a file name, a path, and what to do on it first. */
interface DashboardShot {
  name: string;
  path: string;
  before?: (page: Page) => Promise<void>;
}

export async function dashboardScreenshots(options: {
  api: Api;
  adminKey: string;
  baseUrl: string;
  browser: Browser;
  sizes: readonly Size[];
  write: (page: Page, name: string) => Promise<void>;
}): Promise<void> {
  const { api, baseUrl, browser } = options;
  const org = await api('POST', '/v1/internal/organizations', options.adminKey, { name: 'Acme Analytics' });
  const key = org.sandboxKey as string;
  const data = await makeData(api, key, org.mainWalletId as string);
  for (const size of options.sizes) {
    const viewport = { width: size.width, height: size.height };
    const write = (page: Page, name: string) => options.write(page, `dashboard-${name}-${size.name}`);
    // signInAs writes through this process's table, the one the script's own server serves.
    const owner = await signInAs({} as TestService, {
      organizationId: org.organization.id as string,
      role: 'owner',
      email: `owner.${size.name}@acme.example`,
    });
    const signedOut = await browser.newContext({ viewport });
    const signIn = await signedOut.newPage();
    await signIn.goto(`${baseUrl}/dashboard/sign-in`);
    await write(signIn, 'sign-in');
    await signIn.goto(`${baseUrl}/dashboard/sign-in/recovery`);
    await write(signIn, 'sign-in-recovery');
    const invited = await api('POST', '/v1/users', key, {
      email: `invited.${size.name}@acme.example`,
      role: 'approver',
    });
    await signIn.goto(baseUrl + new URL(invited.inviteUrl as string).pathname);
    await write(signIn, 'invitation');
    await signedOut.close();
    const context = await signedInContext(browser, baseUrl, owner, { viewport });
    const page = await context.newPage();
    for (const shot of shotsOf(data)) {
      await page.goto(baseUrl + shot.path);
      if (shot.before) await shot.before(page);
      await write(page, shot.name);
    }
    await context.close();
  }
}

interface Data {
  agentId: string;
  approvalId: string;
  webhookId: string;
}

/** An agent over its approval threshold with three held payments, one posted; a webhook; a key. */
async function makeData(api: Api, key: string, mainWalletId: string): Promise<Data> {
  await api('POST', `/v1/wallets/${mainWalletId}/fund`, key, { amount: '5000.00' });
  const agent = await api('POST', '/v1/agents', key, { name: 'Research agent' });
  await api('POST', `/v1/agents/${agent.id}/adjust-budget`, key, { amount: '250.00' });
  await api('POST', '/v1/policies', key, {
    walletId: agent.id,
    name: 'Ask above 25.00',
    maxTransactionAmount: '500.00',
    requireHumanApproval: false,
    dailyLimit: '300.00',
    approvalThreshold: '25.00',
  });
  const vendor = await api('POST', '/v1/wallets', key, { name: 'Data vendor' });
  const pay = async (amount: string, description: string) => {
    const response = await fetch(new URL('/v1/payments', process.env.PUBLIC_BASE_URL), {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: agent.id, to: vendor.id, amount, description }),
    });
    return (await response.json()) as any;
  };
  await pay('12.50', 'Map tiles');
  const held = await pay('40.00', 'Dataset licence (quarterly)');
  await pay('64.99', 'Survey panel, 200 answers');
  await pay('31.20', 'Transcription, 2 hours');
  const webhook = await api('POST', '/v1/webhooks', key, {
    url: 'http://127.0.0.1:9/allowance',
    events: ['payment.posted', 'approval.requested'],
    description: 'Ops alerts',
  });
  await api('POST', '/v1/api-keys', key, { name: 'Reporting job', permissions: ['wallets:read', 'payments:read'] });
  return { agentId: agent.id, approvalId: held.error.details.approvalId, webhookId: webhook.id };
}

function shotsOf(data: Data): DashboardShot[] {
  return [
    { name: 'overview', path: '/dashboard' },
    { name: 'approvals', path: '/dashboard/approvals' },
    {
      name: 'approvals-bulk-confirm',
      path: '/dashboard/approvals',
      before: async (page) => {
        for (const box of await page.locator('tbody input[type="checkbox"]').all()) await box.check();
        await page.getByRole('button', { name: 'Approve selected' }).click();
        await page.locator('dialog[data-bulk-dialog][open]').waitFor();
      },
    },
    { name: 'approval', path: `/dashboard/approvals/${data.approvalId}` },
    { name: 'agents', path: '/dashboard/agents' },
    { name: 'agent', path: `/dashboard/agents/${data.agentId}` },
    { name: 'agent-new', path: '/dashboard/agents/new' },
    { name: 'wallets', path: '/dashboard/wallets' },
    { name: 'wallet', path: `/dashboard/wallets/${data.agentId}` },
    { name: 'activation', path: '/dashboard/activation' },
    { name: 'api-keys', path: '/dashboard/api-keys' },
    { name: 'webhooks', path: '/dashboard/webhooks' },
    { name: 'webhook', path: `/dashboard/webhooks/${data.webhookId}` },
    { name: 'audit', path: '/dashboard/audit' },
    { name: 'team', path: '/dashboard/team' },
    { name: 'verify', path: '/dashboard/verify?next=%2Fdashboard%2Factivation' },
    { name: 'security', path: '/dashboard/security' },
  ];
}
