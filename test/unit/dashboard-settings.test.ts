import { describe, expect, it } from 'vitest';
import { AUDIT_CSV_MAX_ROWS } from '../../shared/dashboard/pages/settings/audit.js';
import type { AuditEntryView } from '../../shared/domain/audit/audit-view.js';
import { htmlOf, settingsWorld } from '../fixtures/settings-dashboard.js';

const verifyOf = (next: string) => `/dashboard/verify?next=${encodeURIComponent(next)}`;
const callsOf = (world: ReturnType<typeof settingsWorld>, name: string) =>
  world.state.calls.filter((c) => c.operation === name);

const KYB = {
  legalName: 'Acme Robots LLC',
  taxId: '12-3456789',
  line1: '1 Main St',
  line2: '',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  country: 'us',
};

describe('dashboard settings: activation', () => {
  it('lists the requirements, the forms of what is left, and what going live still needs', async () => {
    const world = settingsWorld();
    const html = htmlOf(await world.serve('GET', '/dashboard/activation'), 200);
    for (const text of [
      'Business verification (KYB) approved (not submitted yet)',
      'Terms of service accepted',
      'Billing method added',
      'Production activated',
      'Submit business details',
      'Accept the terms',
      'Sandbox: use the test card 4242 4242 4242 4242',
      'Add billing method',
      'Going live needs, first:',
    ])
      expect(html).toContain(text);
    expect(html.match(/data-missing="/g)).toHaveLength(3);
    expect(html).not.toContain('>Go live</button>');
    for (const name of Object.keys(KYB)) expect(html).toContain(`name="${name}"`);
  });

  it('submits the business details as the operation takes them, then says so after the redirect', async () => {
    const world = settingsWorld();
    const answer = await world.serve('POST', '/dashboard/activation/kyb', KYB);
    expect(answer).toEqual({ status: 303, location: '/dashboard/activation?done=kyb' });
    expect(callsOf(world, 'submitKyb')[0]!.input.body).toEqual({
      legalName: 'Acme Robots LLC',
      taxId: '12-3456789',
      address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    });
    const html = htmlOf(await world.serve('GET', '/dashboard/activation?done=kyb'), 200);
    expect(html).toContain('Business details submitted.');
    expect(html).toContain('waiting for the operator');
    expect(html).not.toContain('Submit business details');
  });

  it('names the field a refusal is about and keeps what was typed', async () => {
    const world = settingsWorld();
    const html = htmlOf(await world.serve('POST', '/dashboard/activation/kyb', { ...KYB, country: 'USA' }), 400);
    expect(html).toMatch(
      /role="alert" data-error-code="VALIDATION_ERROR">Country \(2 letters, e\.g\. US\): must be an ISO 3166-1 alpha-2 code/,
    );
    expect(html).toContain('value="Acme Robots LLC"');
    expect(world.state.status.kybStatus).toBe('NOT_SUBMITTED');
  });

  it('accepts the terms only with the box ticked, recording the dashboard’s terms version', async () => {
    const world = settingsWorld();
    htmlOf(await world.serve('POST', '/dashboard/activation/terms', {}), 400);
    expect(callsOf(world, 'acceptTos')).toHaveLength(0);
    expect(await world.serve('POST', '/dashboard/activation/terms', { accept: 'yes' })).toEqual({
      status: 303,
      location: '/dashboard/activation?done=terms',
    });
    expect(callsOf(world, 'acceptTos')[0]!.input.body).toEqual({ tosVersion: '2026-01' });
  });

  it('adds the billing card without its spaces, and never writes a refused number back into the page', async () => {
    const world = settingsWorld();
    const declined = htmlOf(
      await world.serve('POST', '/dashboard/activation/billing', { number: '4000 0000 0000 0002' }),
      400,
    );
    expect(declined).toContain('Card number: the card was declined.');
    expect(declined).not.toContain('4000 0000 0000 0002');
    expect(declined).not.toContain('4000000000000002');
    const answer = await world.serve('POST', '/dashboard/activation/billing', { number: '4242 4242 4242 4242' });
    expect(answer).toEqual({ status: 303, location: '/dashboard/activation?done=billing' });
    expect(callsOf(world, 'addBillingMethod')[1]!.input.body).toEqual({ type: 'card', number: '4242424242424242' });
  });

  it('goes live only after the second factor again, then shows production as active', async () => {
    const world = settingsWorld({ verified: false });
    world.state.status = {
      ...world.state.status,
      kybVerified: true,
      kybStatus: 'VERIFIED',
      tosAccepted: true,
      billingMethodAdded: true,
    };
    const page = htmlOf(await world.serve('GET', '/dashboard/activation'), 200);
    expect(page).toContain('>Go live</button>');
    expect(page).toContain('You will be asked for your second factor first.');
    expect(await world.serve('POST', '/dashboard/activation/go-live')).toEqual({
      status: 303,
      location: verifyOf('/dashboard/activation'),
    });
    expect(callsOf(world, 'activateProduction')).toHaveLength(0);
    world.state.verified = true;
    expect(await world.serve('POST', '/dashboard/activation/go-live')).toEqual({
      status: 303,
      location: '/dashboard/activation?done=live',
    });
    const live = htmlOf(await world.serve('GET', '/dashboard/activation?done=live'), 200);
    expect(live).toContain('Production is active since 2026-11-28');
    expect(live).not.toContain('>Go live</button>');
  });

  it('answers a go-live with requirements missing with the list of what is missing', async () => {
    const world = settingsWorld();
    world.state.status = { ...world.state.status, tosAccepted: true };
    const html = htmlOf(await world.serve('POST', '/dashboard/activation/go-live'), 400);
    expect(html).toContain(
      'Not ready to go live. Missing: Business verification (KYB) approved; Billing method added.',
    );
  });

  it('shows a viewer the 403 of the operation, on the page and on a forged POST (no step-up first)', async () => {
    const world = settingsWorld({ role: 'viewer', verified: false });
    const html = htmlOf(await world.serve('GET', '/dashboard/activation'), 403);
    expect(html).toContain('Your role (viewer) does not allow this: it needs the permission admin.');
    expect(html).not.toContain('href="/dashboard/activation"');
    htmlOf(await world.serve('POST', '/dashboard/activation/go-live'), 403);
    htmlOf(await world.serve('POST', '/dashboard/activation/terms', { accept: 'yes' }), 403);
    expect(world.state.status.tosAccepted).toBe(false);
  });
});

describe('dashboard settings: API keys', () => {
  it('asks for the second factor before the creation form and before a creation', async () => {
    const world = settingsWorld({ verified: false });
    expect(await world.serve('GET', '/dashboard/api-keys/new')).toEqual({
      status: 303,
      location: verifyOf('/dashboard/api-keys/new'),
    });
    const post = await world.serve('POST', '/dashboard/api-keys/new', { name: 'ci', 'permission.wallets:read': 'yes' });
    expect(post).toEqual({ status: 303, location: verifyOf('/dashboard/api-keys/new') });
    expect(world.state.keys).toHaveLength(0);
  });

  it('offers as checkboxes only the permissions the role holds', async () => {
    const owner = htmlOf(await settingsWorld().serve('GET', '/dashboard/api-keys/new'), 200);
    expect(owner).toContain('name="permission.payments:write"');
    expect(owner).toContain('name="permission.cards:sensitive_read"');
    const developer = htmlOf(await settingsWorld({ role: 'developer' }).serve('GET', '/dashboard/api-keys/new'), 200);
    for (const held of ['wallets:read', 'wallets:write', 'payments:read', 'invoices:read', 'invoices:write', 'admin'])
      expect(developer).toContain(`name="permission.${held}"`);
    expect(developer).not.toContain('permission.payments:write');
    expect(developer).not.toContain('permission.cards:sensitive_read');
    expect(developer).not.toContain('approvals:decide');
  });

  it('creates a key and shows its secret once, in the POST’s own answer; the list shows metadata only', async () => {
    const world = settingsWorld();
    const form = {
      name: 'Billing job',
      'permission.wallets:read': 'yes',
      'permission.payments:write': 'yes',
      expiresOn: '2027-01-31',
    };
    const created = htmlOf(await world.serve('POST', '/dashboard/api-keys/new', form), 200);
    expect(created).toContain('value="svc_test_SecretOfTheNewKeyShownOnce0000AbCd"');
    expect(created).toContain('it is shown only this once');
    expect(callsOf(world, 'createApiKey')[0]!.input.body).toEqual({
      name: 'Billing job',
      permissions: ['wallets:read', 'payments:write'],
      expiresAt: '2027-01-31T23:59:59Z',
    });
    const list = htmlOf(await world.serve('GET', '/dashboard/api-keys'), 200);
    expect(list).toContain('Billing job');
    expect(list).toContain('svc_test_…AbCd');
    expect(list).toContain('wallets:read, payments:write');
    expect(list).not.toContain('SecretOfTheNewKey');
  });

  it('refuses a developer’s forged permission with the operation’s 403, naming it', async () => {
    const world = settingsWorld({ role: 'developer' });
    const form = { name: 'forged', 'permission.payments:write': 'yes' };
    const html = htmlOf(await world.serve('POST', '/dashboard/api-keys/new', form), 403);
    expect(html).toContain('Your role (developer) does not allow this: it needs the permission payments:write.');
    expect(world.state.keys).toHaveLength(0);
  });

  it('keeps the form with the reason when the input is refused', async () => {
    const world = settingsWorld();
    const html = htmlOf(await world.serve('POST', '/dashboard/api-keys/new', { name: 'no permissions' }), 400);
    expect(html).toContain('Permissions: must name at least one permission.');
    expect(html).toContain('value="no permissions"');
  });

  it('revokes a key after a confirm page; a second revoke finds it revoked already', async () => {
    const world = settingsWorld();
    await world.serve('POST', '/dashboard/api-keys/new', { name: 'Old job', 'permission.wallets:read': 'yes' });
    const id = world.state.keys[0]!.id;
    const confirm = htmlOf(await world.serve('GET', `/dashboard/api-keys/${id}/revoke`), 200);
    expect(confirm).toContain('Revoke “Old job”');
    expect(confirm).toContain('>Revoke key</button>');
    const revoked = { status: 303, location: '/dashboard/api-keys?done=revoked' };
    expect(await world.serve('POST', `/dashboard/api-keys/${id}/revoke`)).toEqual(revoked);
    expect(world.state.keys[0]!.status).toBe('REVOKED');
    expect(await world.serve('POST', `/dashboard/api-keys/${id}/revoke`)).toEqual(revoked);
    const list = htmlOf(await world.serve('GET', '/dashboard/api-keys?done=revoked'), 200);
    expect(list).toContain('The key is revoked');
    expect(list).not.toContain(`/dashboard/api-keys/${id}/revoke`);
    htmlOf(await world.serve('GET', '/dashboard/api-keys/key_nobody/revoke'), 404);
  });

  it('refuses a viewer the keys pages with the operation’s 403', async () => {
    const world = settingsWorld({ role: 'viewer' });
    htmlOf(await world.serve('GET', '/dashboard/api-keys'), 403);
    htmlOf(await world.serve('GET', '/dashboard/api-keys/new'), 403);
    htmlOf(await world.serve('POST', '/dashboard/api-keys/new', { name: 'x', 'permission.wallets:read': 'yes' }), 403);
    expect(world.state.keys).toHaveLength(0);
  });
});

describe('dashboard settings: webhooks', () => {
  const seedAttempts = (world: ReturnType<typeof settingsWorld>, webhookId: string) => {
    const base = {
      object: 'webhook_delivery_attempt',
      webhookId,
      eventId: 'evt_000000000000000000000001',
      eventType: 'payment.posted',
      durationMs: 12,
    };
    world.state.attempts.push(
      {
        ...base,
        deliveryId: 'dlv_000000000000000000000001',
        attempt: 2,
        statusCode: 500,
        error: 'HTTP 500',
        attemptedAt: '2026-11-28T09:00:30.000Z',
        nextAttemptAt: '2026-11-28T09:05:30.000Z',
        outcome: 'RETRYING',
      },
      {
        ...base,
        deliveryId: 'dlv_000000000000000000000001',
        attempt: 1,
        statusCode: null,
        error: 'timeout',
        attemptedAt: '2026-11-28T09:00:00.000Z',
        nextAttemptAt: '2026-11-28T09:00:30.000Z',
        outcome: 'RETRYING',
      },
    );
  };

  it('asks for the second factor before a creation, then shows the signing secret once', async () => {
    const world = settingsWorld({ verified: false });
    const form = {
      url: 'https://example.com/hooks',
      'event.*': 'yes',
      'event.payment.posted': 'yes',
      description: 'Ops',
    };
    expect(await world.serve('POST', '/dashboard/webhooks/new', form)).toEqual({
      status: 303,
      location: verifyOf('/dashboard/webhooks/new'),
    });
    world.state.verified = true;
    const html = htmlOf(await world.serve('POST', '/dashboard/webhooks/new', form), 200);
    expect(html).toContain('value="whsec_TheSigningSecretShownOnce000000"');
    expect(callsOf(world, 'createWebhook')[0]!.input.body).toEqual({
      url: 'https://example.com/hooks',
      events: ['*'],
      description: 'Ops',
    });
    const list = htmlOf(await world.serve('GET', '/dashboard/webhooks'), 200);
    expect(list).toContain('https://example.com/hooks');
    expect(list).not.toContain('whsec_');
  });

  it('offers every emitted event and keeps the choice when the input is refused', async () => {
    const world = settingsWorld();
    const form = htmlOf(await world.serve('GET', '/dashboard/webhooks/new'), 200);
    expect(form).toContain('name="event.approval.requested"');
    const refused = htmlOf(await world.serve('POST', '/dashboard/webhooks/new', { url: 'https://example.com/h' }), 400);
    expect(refused).toMatch(/role="alert" data-error-code="VALIDATION_ERROR">Events: /);
    expect(refused).toContain('value="https://example.com/h"');
  });

  it('shows the delivery log (time, result, response code), resends a delivery and sends a test event', async () => {
    const world = settingsWorld();
    await world.serve('POST', '/dashboard/webhooks/new', { url: 'https://example.com/hooks', 'event.*': 'yes' });
    const id = world.state.webhooks[0]!.id;
    seedAttempts(world, id);
    const html = htmlOf(await world.serve('GET', `/dashboard/webhooks/${id}`), 200);
    expect(html).toContain('2026-11-28 09:00 UTC');
    expect(html).toContain('<td>500</td>');
    expect(html).toContain('<td>no answer</td>');
    expect(html).toContain('HTTP 500');
    expect(html.match(/>Resend<span/g)).toHaveLength(1);
    expect(html).toContain('>Send a test event</button>');
    const resend = await world.serve(
      'POST',
      `/dashboard/webhooks/${id}/deliveries/dlv_000000000000000000000001/resend`,
    );
    expect(resend).toEqual({ status: 303, location: `/dashboard/webhooks/${id}?done=resent` });
    expect(callsOf(world, 'retryWebhookDelivery')[0]!.input.params).toEqual({
      id,
      deliveryId: 'dlv_000000000000000000000001',
    });
    expect(await world.serve('POST', `/dashboard/webhooks/${id}/test`)).toEqual({
      status: 303,
      location: `/dashboard/webhooks/${id}?done=test`,
    });
    expect(htmlOf(await world.serve('GET', `/dashboard/webhooks/${id}?done=resent`), 200)).toContain(
      'Delivery queued again',
    );
    htmlOf(await world.serve('POST', `/dashboard/webhooks/${id}/deliveries/dlv_nobody/resend`), 404);
    htmlOf(await world.serve('GET', '/dashboard/webhooks/whk_nobody'), 404);
  });

  it('refuses a viewer with the operation’s 403', async () => {
    const world = settingsWorld({ role: 'viewer' });
    htmlOf(await world.serve('GET', '/dashboard/webhooks'), 403);
    htmlOf(
      await world.serve('POST', '/dashboard/webhooks/new', { url: 'https://example.com/h', 'event.*': 'yes' }),
      403,
    );
    expect(world.state.webhooks).toHaveLength(0);
  });
});

describe('dashboard settings: audit log', () => {
  const entry = (n: number, overrides: Partial<AuditEntryView> = {}): AuditEntryView => ({
    id: `log_${String(n).padStart(24, '0')}`,
    organizationId: 'org_fake0000000000000000001',
    actorType: 'USER',
    actorId: 'usr_fake0000000000000000001',
    action: 'wallet.fund',
    resource: 'wallet',
    resourceId: 'wal_000000000000000000000001',
    metadata: { amount: '10.00', currency: 'USD' },
    ipAddress: '198.51.100.7',
    createdAt: new Date(Date.UTC(2026, 10, 28, 12, 0, 0) - n * 60_000).toISOString(),
    ...overrides,
  });

  it('filters by action, actor, resource and dates from the URL, keeping them in the form, the next page and the CSV link', async () => {
    const world = settingsWorld({ role: 'viewer' });
    world.state.audit.push(
      ...Array.from({ length: 60 }, (_, n) => entry(n)),
      entry(100, {
        action: 'api-key.create',
        resource: 'api-key',
        resourceId: 'key_x',
        createdAt: '2026-11-20T08:00:00.000Z',
      }),
    );
    const html = htmlOf(
      await world.serve(
        'GET',
        '/dashboard/audit?action=wallet.fund&actor=usr_fake0000000000000000001&resource=wal_000000000000000000000001&from=2026-11-28&to=2026-11-28',
      ),
      200,
    );
    expect(html.match(/data-audit-id="/g)).toHaveLength(50);
    expect(html).toContain('<option value="wallet.fund" selected="">wallet.fund</option>');
    expect(html).toContain('value="2026-11-28"');
    expect(html).toContain('amount=10.00, currency=USD');
    const next = /href="(\/dashboard\/audit\?[^"]*cursor=[^"]*)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect(next).toContain('action=wallet.fund');
    expect(next).toContain('from=2026-11-28');
    expect(htmlOf(await world.serve('GET', next), 200).match(/data-audit-id="/g)).toHaveLength(10);
    expect(html).toContain('href="/dashboard/audit.csv?action=wallet.fund&amp;actor=usr_fake0000000000000000001');
    expect(html).toContain('at most 5,000 entries');
    const older = htmlOf(await world.serve('GET', '/dashboard/audit?to=2026-11-27'), 200);
    expect(older.match(/data-audit-id="/g)).toHaveLength(1);
    expect(older).toContain('api-key.create');
  });

  it('names a refused filter in an alert', async () => {
    const html = htmlOf(await settingsWorld().serve('GET', '/dashboard/audit?from=yesterday'), 400);
    expect(html).toContain('From (UTC date): must be an ISO 8601 date');
  });

  it('exports the filtered range as a CSV attachment, formulas defused', async () => {
    const world = settingsWorld();
    world.state.audit.push(
      entry(1, { resourceId: '=HYPERLINK("x")', metadata: { note: 'a, b' } }),
      entry(2, { action: 'api-key.create', resource: 'api-key' }),
    );
    const answer = await world.serve('GET', '/dashboard/audit.csv?action=wallet.fund');
    expect(answer).toMatchObject({
      status: 200,
      contentType: 'text/csv; charset=utf-8',
      headers: {
        'Content-Disposition': expect.stringMatching(/^attachment; filename="audit-log-sandbox-\d{8}T\d{4}Z\.csv"$/),
        'X-Export-Truncated': 'false',
      },
    });
    const lines = (answer as { body: string }).body.split('\r\n');
    expect(lines[0]).toBe('createdAt,id,actorType,actorId,action,resource,resourceId,ipAddress,metadata');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      `2026-11-28T11:59:00.000Z,${entry(1).id},USER,usr_fake0000000000000000001,wallet.fund,wallet,"'=HYPERLINK(""x"")",198.51.100.7,"{""note"":""a, b""}"`,
    );
  });

  it('caps the CSV and says so in a header', async () => {
    const world = settingsWorld();
    world.state.audit.push(...Array.from({ length: AUDIT_CSV_MAX_ROWS + 30 }, (_, n) => entry(n)));
    const answer = (await world.serve('GET', '/dashboard/audit.csv')) as {
      body: string;
      headers: Record<string, string>;
    };
    expect(answer.body.split('\r\n')).toHaveLength(AUDIT_CSV_MAX_ROWS + 2);
    expect(answer.headers['X-Export-Truncated']).toBe('true');
  });

  it('answers another method with 405', async () => {
    htmlOf(await settingsWorld().serve('DELETE', '/dashboard/audit'), 405);
  });
});
