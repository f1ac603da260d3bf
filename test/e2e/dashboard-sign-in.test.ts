import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ENV, dashboardFetch, signInAs } from '../fixtures/dashboard-session.js';
import { setupE2e } from '../fixtures/e2e-setup.js';

const PASSWORD = 'a long walk by the river 42';

/** The pre-session cookie and CSRF value of a signed-out page (login CSRF). */
async function signedOutForm(baseUrl: string, path: string) {
  const response = await fetch(baseUrl + path, { redirect: 'manual' });
  const html = await response.text();
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { status: response.status, html, cookie, csrf };
}

async function post(baseUrl: string, path: string, cookie: string, form: Record<string, string>) {
  return fetch(baseUrl + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(form).toString(),
  });
}

const sessionCookieOf = (response: Response) =>
  (response.headers.get('set-cookie') ?? '')
    .split(',')
    .map((part) => part.trim())
    .find((part) => part.startsWith('allowance_session='))
    ?.split(';')[0] ?? '';

async function auditActions(service: { call: (...args: never[]) => unknown }, key: string, userId: string) {
  const call = service.call as (
    method: string,
    path: string,
    options: { key: string },
  ) => Promise<{ body: { data: { action: string }[] } }>;
  const response = await call('GET', `/v1/audit-logs?actorId=${userId}&limit=100`, { key });
  return response.body.data.map((entry) => entry.action);
}

describe('dashboard sign-in', () => {
  const { service, org } = setupE2e({ env: DASHBOARD_ENV, organizations: { org: 'Sign-in Org' } });

  it('accepts an invitation with a password and an authenticator app, shows the recovery codes once, then signs in with a code', async () => {
    const invited = await service.call('POST', '/v1/users', {
      key: org.key,
      body: { email: 'ada@example.test', role: 'admin' },
    });
    expect(invited.status).toBe(201);
    const path = new URL(invited.body.inviteUrl as string).pathname;
    const page = await signedOutForm(service.baseUrl, path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('autocomplete="new-password"');
    const secret = /name="totpSecret" value="([A-Z2-7]+)"/.exec(page.html)?.[1] ?? '';
    expect(secret).not.toBe('');
    expect(page.html).toContain('otpauth://totp/');

    // A weak password, then the email as password: refused with the field named.
    const weak = await post(service.baseUrl, path, page.cookie, {
      _csrf: page.csrf,
      password: 'password1234',
      confirm: 'password1234',
      totpSecret: secret,
      code: generateSync({ secret }),
      factor: 'totp',
    });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain('too common');
    // Without the pre-session token: refused (login CSRF).
    const forged = await post(service.baseUrl, path, '', {
      password: PASSWORD,
      confirm: PASSWORD,
      totpSecret: secret,
      code: '000000',
      factor: 'totp',
    });
    expect(forged.status).toBe(403);

    const accepted = await post(service.baseUrl, path, page.cookie, {
      _csrf: page.csrf,
      password: PASSWORD,
      confirm: PASSWORD,
      totpSecret: secret,
      code: generateSync({ secret }),
      factor: 'totp',
    });
    expect(accepted.status).toBe(200);
    const html = await accepted.text();
    const codes = [...html.matchAll(/<li>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})<\/li>/g)].map((match) => match[1]!);
    expect(codes).toHaveLength(10);
    const cookie = sessionCookieOf(accepted);
    expect(cookie).toMatch(/^allowance_session=/);

    // The invitation is single use.
    expect((await signedOutForm(service.baseUrl, path)).status).toBe(404);
    const user = await service.call('GET', `/v1/users/${invited.body.id}`, { key: org.key });
    expect(user.body.status).toBe('ACTIVE');

    // Signed in: the security page lists this session.
    const security = await fetch(`${service.baseUrl}/dashboard/security`, { headers: { cookie } });
    expect(security.status).toBe(200);
    expect(await security.text()).toContain('This session');

    // Sign out, then sign in again with the password and a code (a later time step: a code is good once).
    const csrfToken =
      /name="_csrf" value="([^"]+)"/.exec(
        await (await fetch(`${service.baseUrl}/dashboard/security`, { headers: { cookie } })).text(),
      )?.[1] ?? '';
    expect((await post(service.baseUrl, '/dashboard/sign-out', cookie, { _csrf: csrfToken })).status).toBe(303);
    const signIn = await signedOutForm(service.baseUrl, '/dashboard/sign-in');
    const wrong = await post(service.baseUrl, '/dashboard/sign-in', signIn.cookie, {
      _csrf: signIn.csrf,
      email: 'ada@example.test',
      password: 'not the password at all',
      code: '123456',
      next: '/dashboard',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('The email, password or code is not right');
    const recovered = await post(service.baseUrl, '/dashboard/sign-in/recovery', signIn.cookie, {
      _csrf: signIn.csrf,
      email: 'ADA@example.test',
      password: PASSWORD,
      recoveryCode: codes[0]!,
      next: '/dashboard/security',
    });
    expect(recovered.status).toBe(303);
    expect(recovered.headers.get('location')).toBe('/dashboard/security');
    // The recovery code is used up.
    const again = await post(service.baseUrl, '/dashboard/sign-in/recovery', signIn.cookie, {
      _csrf: signIn.csrf,
      email: 'ada@example.test',
      password: PASSWORD,
      recoveryCode: codes[0]!,
      next: '/dashboard',
    });
    expect(again.status).toBe(401);

    const actions = await auditActions(service, org.key, invited.body.id as string);
    expect(actions).toEqual(
      expect.arrayContaining([
        'user.accept',
        'user.factor.add',
        'user.login',
        'user.logout',
        'user.login.fail',
        'user.recovery-code.use',
      ]),
    );
  });

  it('asks for the second factor again (step-up) before new recovery codes; a good code opens 5 minutes', async () => {
    const owner = await signInAs(service, { organizationId: org.organizationId, role: 'owner', verified: false });
    const first = await dashboardFetch(service, owner, '/dashboard/security/recovery-codes', { form: {} });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/dashboard/verify?next=%2Fdashboard%2Fsecurity');
    const bad = await dashboardFetch(service, owner, '/dashboard/verify', {
      form: { code: '000000', next: '/dashboard/security' },
    });
    expect(bad.status).toBe(401);
    const good = await dashboardFetch(service, owner, '/dashboard/verify', {
      form: { code: generateSync({ secret: owner.totpSecret }), next: '/dashboard/security' },
    });
    expect(good.status).toBe(303);
    expect(good.headers.get('location')).toBe('/dashboard/security');
    const codes = await dashboardFetch(service, owner, '/dashboard/security/recovery-codes', { form: {} });
    expect(codes.status).toBe(200);
    expect([...(await codes.text()).matchAll(/<li>[a-z2-9-]{14}<\/li>/g)]).toHaveLength(10);
    const actions = await auditActions(service, org.key, owner.userId);
    expect(actions).toEqual(expect.arrayContaining(['user.step-up', 'user.recovery-codes.regenerate']));
  });

  it('lists sessions, signs one out by its id, and signs out everywhere', async () => {
    const first = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    const page = await (await dashboardFetch(service, first, '/dashboard/security')).text();
    expect(page).toContain(`data-session-id="${first.sessionId}"`);
    const other = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    // Another user's session id is not this user's to end: nothing happens to it.
    await dashboardFetch(service, first, '/dashboard/security/sessions/revoke', {
      form: { sessionId: other.sessionId },
    });
    expect((await dashboardFetch(service, other, '/dashboard/security')).status).toBe(200);
    const everywhere = await dashboardFetch(service, first, '/dashboard/security/sign-out-everywhere', { form: {} });
    expect(everywhere.status).toBe(303);
    expect((await dashboardFetch(service, first, '/dashboard/security')).status).toBe(303);
  });

  it('signs in with the email, the password and a TOTP code, back to the page asked for', async () => {
    const user = await signInAs(service, { organizationId: org.organizationId, role: 'approver' });
    const form = await signedOutForm(service.baseUrl, '/dashboard/sign-in?next=%2Fdashboard%2Fsecurity');
    const response = await post(service.baseUrl, '/dashboard/sign-in', form.cookie, {
      _csrf: form.csrf,
      email: user.email,
      password: user.password,
      code: generateSync({ secret: user.totpSecret }),
      next: 'https://evil.example/dashboard',
    });
    expect(response.status).toBe(303);
    // `next` is a dashboard path only: another site falls back to the overview.
    expect(response.headers.get('location')).toBe('/dashboard');
    expect(sessionCookieOf(response)).toMatch(/^allowance_session=/);
  });

  it('limits failed sign-ins per email: the sixth attempt in the window is refused even with the right password', async () => {
    const user = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    const form = await signedOutForm(service.baseUrl, '/dashboard/sign-in');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await post(service.baseUrl, '/dashboard/sign-in', form.cookie, {
        _csrf: form.csrf,
        email: user.email,
        password: 'wrong password here',
        code: '000000',
        next: '/dashboard',
      });
      expect(response.status).toBe(401);
    }
    const limited = await post(service.baseUrl, '/dashboard/sign-in', form.cookie, {
      _csrf: form.csrf,
      email: user.email,
      password: user.password,
      code: generateSync({ secret: user.totpSecret }),
      next: '/dashboard',
    });
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain('Too many attempts');
  });
});
