import { describe, expect, it } from 'vitest';
import { DASHBOARD_ASSETS } from '../../shared/dashboard/assets.js';
import { PAGE_CSP } from '../../shared/hosted/headers.js';
import { DASHBOARD_ENV, dashboardFetch, signInAs } from '../fixtures/dashboard-session.js';
import { setupE2e } from '../fixtures/e2e-setup.js';

describe('dashboard edge', () => {
  const { service, org } = setupE2e({ env: DASHBOARD_ENV, organizations: { org: 'Dashboard Org' } });

  it('sends a visitor without a session to sign-in, coming back to the page after', async () => {
    const response = await dashboardFetch(service, undefined, '/dashboard/approvals?tab=decided');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/dashboard/sign-in?next=${encodeURIComponent('/dashboard/approvals?tab=decided')}`,
    );
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
  });

  it('serves the sign-in page with the login-CSRF cookie (HttpOnly, SameSite=Strict, under /dashboard)', async () => {
    const response = await dashboardFetch(service, undefined, '/dashboard/sign-in');
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^allowance_signin=[A-Za-z0-9_-]+; Path=\/dashboard; HttpOnly; SameSite=Strict/);
    const html = await response.text();
    expect(html).toContain('autocomplete="current-password"');
    expect(html).toContain('autocomplete="one-time-code"');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/\sstyle=|<style/);
  });

  it('serves its assets by hash, cached for a year', async () => {
    const response = await dashboardFetch(service, undefined, DASHBOARD_ASSETS.script.path);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
  });

  it('knows a signed-in user: an unknown page is a 404 in the signed-in frame', async () => {
    const owner = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    const response = await dashboardFetch(service, owner, '/dashboard/no-such-page');
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain(owner.email);
    expect(html).toContain('Sandbox');
  });

  it('refuses a POST without the session CSRF token, or from another site', async () => {
    const owner = await signInAs(service, { organizationId: org.organizationId, role: 'owner' });
    const form = { environment: 'SANDBOX', next: '/dashboard' };
    const without = await dashboardFetch(service, owner, '/dashboard/environment', { form, csrf: false });
    expect(without.status).toBe(403);
    const wrong = await dashboardFetch(service, owner, '/dashboard/environment', {
      form: { ...form, _csrf: 'x'.repeat(43) },
    });
    expect(wrong.status).toBe(403);
    const crossSite = await dashboardFetch(service, owner, '/dashboard/environment', {
      form,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const byHeader = await fetch(`${service.baseUrl}/dashboard/environment`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: owner.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        'x-csrf-token': owner.csrfToken,
      },
      body: new URLSearchParams(form).toString(),
    });
    expect(byHeader.status).toBe(303);
  });

  it('keeps Live closed until the organization is activated (the check runs as the organization)', async () => {
    const approver = await signInAs(service, { organizationId: org.organizationId, role: 'approver' });
    const response = await dashboardFetch(service, approver, '/dashboard/environment', {
      form: { environment: 'PRODUCTION', next: '/dashboard' },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/activation?live=closed');
    const page = await dashboardFetch(service, approver, '/dashboard/no-such-page');
    expect(await page.text()).toContain('Sandbox');
  });

  it('signs out: the session ends, its cookie no longer opens a page', async () => {
    const viewer = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    const out = await dashboardFetch(service, viewer, '/dashboard/sign-out', { form: {} });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/dashboard/sign-in?signedOut=1');
    expect(out.headers.get('set-cookie')).toMatch(
      /^allowance_session=; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=0/,
    );
    const after = await dashboardFetch(service, viewer, '/dashboard/no-such-page');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toMatch(/^\/dashboard\/sign-in\?next=/);
  });

  it('serves the operator people in the operator frame', async () => {
    const operator = await signInAs(service, { organizationId: null, role: 'operator' });
    const response = await dashboardFetch(service, operator, '/dashboard/no-such-page');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Operator');
  });
});
