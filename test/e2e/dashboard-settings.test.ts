import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_PATHS } from '../../shared/dashboard/paths.js';
import { DASHBOARD_ENV, signInAs } from '../fixtures/dashboard-session.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { eventually } from '../fixtures/eventually.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

type Signed = Awaited<ReturnType<typeof signInAs>>;

/** The settings pages as a browser would use them (cookie, CSRF field, same-origin POSTs), without following redirects. */
function pagesFor(baseUrl: string, who: Signed) {
  const request = async (method: string, path: string, form?: Record<string, string>) => {
    const headers: Record<string, string> = { cookie: who.cookie };
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = baseUrl;
      headers['sec-fetch-site'] = 'same-origin';
      body = new URLSearchParams({ _csrf: who.csrfToken, ...form }).toString();
    }
    const response = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual' });
    return {
      status: response.status,
      location: response.headers.get('location'),
      headers: response.headers,
      text: await response.text(),
    };
  };
  return {
    get: (path: string) => request('GET', path),
    post: (path: string, form: Record<string, string> = {}) => request('POST', path, form),
  };
}

const secretIn = (html: string) => /id="created-secret"[^>]*value="([^"]+)"/.exec(html)?.[1];

describe('dashboard settings pages over the real edge', () => {
  // KYB decided at once (the local run's option); retries at their real pace, so a resend is what delivers.
  const { service, org } = setupE2e({
    env: {
      ...DASHBOARD_ENV,
      KYB_AUTO_APPROVE: '1',
      TIME_SCALE: '1',
      WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    organizations: { org: 'Settings Org' },
  });
  // An owner whose second factor was proven at sign-in (the fixture's default), and one whose proof is older than the window.
  let owner: ReturnType<typeof pagesFor>;
  let ownerUserId: string;
  let staleOwner: ReturnType<typeof pagesFor>;

  beforeAll(async () => {
    const signed = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    owner = pagesFor(service.baseUrl, signed);
    ownerUserId = signed.userId;
    const stale = await signInAs(service, { organizationId: org.organizationId, role: 'owner', verified: false });
    staleOwner = pagesFor(service.baseUrl, stale);
  });

  it('goes live: KYB, terms, billing card, then the second factor again, then production is active', async () => {
    const first = await owner.get(DASHBOARD_PATHS.activation);
    expect(first.status).toBe(200);
    expect(first.text.match(/data-missing="/g)).toHaveLength(3);
    const kyb = await owner.post(DASHBOARD_PATHS.activationKyb, {
      legalName: 'Settings Org LLC',
      taxId: '12-3456789',
      line1: '1 Main St',
      city: 'Springfield',
      postalCode: '62701',
      country: 'US',
    });
    expect(kyb.status, kyb.text).toBe(303);
    expect(kyb.location).toBe('/dashboard/activation?done=kyb');
    expect((await owner.post(DASHBOARD_PATHS.activationTerms, { accept: 'yes' })).status).toBe(303);
    expect((await owner.post(DASHBOARD_PATHS.activationBilling, { number: '4242 4242 4242 4242' })).status).toBe(303);
    const ready = await owner.get(DASHBOARD_PATHS.activation);
    expect(ready.text).toContain('>Go live</button>');

    // Without a recent second factor: to the verify page, and nothing happens.
    const asked = await staleOwner.post(DASHBOARD_PATHS.activationGoLive);
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(DASHBOARD_PATHS.verify(DASHBOARD_PATHS.activation));
    const before = await service.call('GET', '/v1/activation/status', { key: org.key });
    expect(before.body.productionActivated).toBe(false);

    const live = await owner.post(DASHBOARD_PATHS.activationGoLive);
    expect(live.status, live.text).toBe(303);
    expect(live.location).toBe('/dashboard/activation?done=live');
    const after = await service.call('GET', '/v1/activation/status', { key: org.key });
    expect(after.body).toMatchObject({
      productionActivated: true,
      kybVerified: true,
      tosAccepted: true,
      billingMethodAdded: true,
    });
    await service.projected();
    const audit = await service.call('GET', '/v1/audit-logs?action=organization.production.activate', { key: org.key });
    expect(audit.body.data[0]).toMatchObject({ actorType: 'USER', actorId: ownerUserId });
  });

  it('creates a key (its secret once), which works, and revokes it, which stops it', async () => {
    expect((await staleOwner.get(DASHBOARD_PATHS.newApiKey)).location).toBe(
      DASHBOARD_PATHS.verify(DASHBOARD_PATHS.newApiKey),
    );
    const form = await owner.get(DASHBOARD_PATHS.newApiKey);
    expect(form.status).toBe(200);
    const created = await owner.post(DASHBOARD_PATHS.newApiKey, {
      name: 'Dashboard key',
      'permission.wallets:read': 'yes',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.headers.get('cache-control')).toContain('no-store');
    const raw = secretIn(created.text)!;
    expect(raw).toMatch(/^svc_test_/);
    expect((await service.call('GET', '/v1/wallets', { key: raw })).status).toBe(200);

    const list = await owner.get(DASHBOARD_PATHS.apiKeys);
    expect(list.text).toContain('Dashboard key');
    expect(list.text).not.toContain(raw);
    const id = /data-key-id="(key_[^"]+)"/.exec(list.text)![1]!;
    expect((await owner.get(DASHBOARD_PATHS.revokeApiKey(id))).text).toContain('>Revoke key</button>');
    const revoked = await owner.post(DASHBOARD_PATHS.revokeApiKey(id));
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/dashboard/api-keys?done=revoked');
    const refused = await service.call('GET', '/v1/wallets', { key: raw });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('API_KEY_REVOKED');
  });

  describe('a webhook whose receiver fails', () => {
    let failing = true;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    beforeAll(async () => {
      receiver = await startReceiver(() => (failing ? 500 : 200));
    });
    afterAll(() => receiver.close());

    it('shows the failed delivery, and resend delivers it once the receiver answers 200', async () => {
      const stale = await staleOwner.post(DASHBOARD_PATHS.newWebhook, {
        url: receiver.url('/hooks'),
        'event.*': 'yes',
      });
      expect(stale.location).toBe(DASHBOARD_PATHS.verify(DASHBOARD_PATHS.newWebhook));
      const created = await owner.post(DASHBOARD_PATHS.newWebhook, { url: receiver.url('/hooks'), 'event.*': 'yes' });
      expect(created.status, created.text).toBe(200);
      expect(secretIn(created.text)).toMatch(/^whsec_/);
      const webhookId = /href="\/dashboard\/webhooks\/(whk_[^"]+)"/.exec(created.text)![1]!;
      const page = DASHBOARD_PATHS.webhook(webhookId);

      const tested = await owner.post(DASHBOARD_PATHS.webhookTest(webhookId));
      expect(tested.location).toBe(`${page}?done=test`);
      const failed = await eventually(async () => {
        const html = (await owner.get(page)).text;
        expect(html).toMatch(/data-outcome="RETRYING"/);
        return html;
      });
      expect(failed).toContain('<td>500</td>');
      const deliveryId = /data-delivery-id="(dlv_[^"]+)"/.exec(failed)![1]!;
      const eventId = /(evt_[A-Za-z0-9]+)/.exec(failed)![1]!;

      failing = false;
      const resent = await owner.post(DASHBOARD_PATHS.webhookResend(webhookId, deliveryId));
      expect(resent.status).toBe(303);
      expect(resent.location).toBe(`${page}?done=resent`);
      const delivered = await eventually(async () => {
        const html = (await owner.get(page)).text;
        expect(html).toMatch(/data-outcome="SUCCEEDED"/);
        return html;
      });
      expect(delivered).toContain('<td>200</td>');
      // The failed attempt and the resent one, the same event (the automatic retry is 15 s away at TIME_SCALE=1).
      const sent = receiver.at('/hooks').filter((hit) => hit.headers['webhook-id'] === eventId);
      expect(sent).toHaveLength(2);
    });
  });

  it('filters the audit log from the URL and exports the same range as CSV', async () => {
    await service.projected();
    const html = (await owner.get('/dashboard/audit?action=api-key.create')).text;
    const rows = html.match(/data-audit-id="/g) ?? [];
    expect(rows.length).toBeGreaterThan(0);
    const actions = [
      ...html.matchAll(
        /<tr data-audit-id="[^"]+">(?:<td>[^<]*<\/td>)<td>[\s\S]*?<\/td><td class="mono">([^<]+)<\/td>/g,
      ),
    ].map((m) => m[1]);
    expect(actions.length).toBe(rows.length);
    expect(new Set(actions)).toEqual(new Set(['api-key.create']));
    const csv = await owner.get('/dashboard/audit.csv?action=api-key.create');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-log-sandbox-/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('createdAt,id,actorType,actorId,action,resource,resourceId,ipAddress,metadata');
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines.slice(1).every((line) => line.includes(',api-key.create,'))).toBe(true);
    expect(csv.text).toContain(`USER,${ownerUserId},api-key.create`);
  });

  it('shows a developer only the permissions it holds and refuses a forged one; a viewer gets the operations’ 403', async () => {
    const developer = pagesFor(
      service.baseUrl,
      await signInAs(service, { organizationId: org.organizationId, role: 'developer' }),
    );
    const form = await developer.get(DASHBOARD_PATHS.newApiKey);
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="permission.wallets:write"');
    expect(form.text).not.toContain('permission.payments:write');
    const forged = await developer.post(DASHBOARD_PATHS.newApiKey, {
      name: 'forged',
      'permission.payments:write': 'yes',
    });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('it needs the permission payments:write');
    const keys = await service.call('GET', '/v1/api-keys?limit=100', { key: org.key });
    expect(keys.body.data.map((key: { name: string }) => key.name)).not.toContain('forged');

    const viewer = pagesFor(
      service.baseUrl,
      await signInAs(service, { organizationId: org.organizationId, role: 'viewer' }),
    );
    const page = await viewer.get(DASHBOARD_PATHS.apiKeys);
    expect(page.status).toBe(403);
    expect(page.text).toContain('Your role (viewer) does not allow this');
    expect(page.text).not.toContain(`href="${DASHBOARD_PATHS.apiKeys}"`);
    const goLive = await viewer.post(DASHBOARD_PATHS.activationGoLive);
    expect(goLive.status).toBe(403);
    const webhook = await viewer.post(DASHBOARD_PATHS.newWebhook, { url: 'http://127.0.0.1:9/x', 'event.*': 'yes' });
    expect(webhook.status).toBe(403);
    expect((await viewer.get(DASHBOARD_PATHS.audit)).status).toBe(200);
  });
});
