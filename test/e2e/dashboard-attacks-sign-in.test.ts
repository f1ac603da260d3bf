import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { createSignInStore } from '../../shared/persistence/sign-in-store.js';
import { core } from '../../shared/runtime/core.js';
import { sessionsOf } from '../../shared/runtime/services/sign-in.js';
import { hashPassword } from '../../shared/sign-in/passwords.js';
import { newId } from '../../shared/domain/ids.js';
import type { AnyUserRole } from '../../shared/domain/users/types.js';
import { DASHBOARD_ENV, dashboardFetch, SESSION_COOKIE } from '../fixtures/dashboard-session.js';
import { setupE2e } from '../fixtures/e2e-setup.js';

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

/**
 * An ACTIVE user with a password (no second factor needed here) and an open session, written as a
 * sign-in writes them (fixtures/dashboard-session.ts signInAs writes the user twice on main).
 */
async function signInAs(_service: unknown, options: { organizationId: string; role: AnyUserRole }) {
  const shared = core();
  const store = createSignInStore(shared.table);
  const userId = newId('user');
  const email = `${options.role}-${userId.slice(4, 14).toLowerCase()}@example.test`;
  const password = `Correct horse ${userId.slice(4, 12)} battery staple`;
  const now = shared.clock.now().toISOString();
  await store.commit([
    {
      type: 'putUser',
      user: {
        id: userId,
        organizationId: options.organizationId,
        email,
        role: options.role,
        status: 'ACTIVE',
        createdAt: now,
        invitedBy: 'test',
        acceptedAt: now,
      },
    },
    {
      type: 'putCredentials',
      credentials: {
        userId,
        passwordHash: await hashPassword(password),
        passkeys: [],
        recoveryCodeHashes: [],
        updatedAt: now,
      },
      expectUpdatedAt: null,
    },
  ]);
  const opened = await sessionsOf(shared).opening(
    { id: userId, email, role: options.role, organizationId: options.organizationId },
    { ipAddress: '127.0.0.1', userAgent: 'test' },
    true,
  );
  await store.commit(opened.changes);
  return { cookie: `${SESSION_COOKIE}=${opened.secret}`, csrfToken: opened.session.csrfToken, userId, email, password };
}

describe('dashboard sign-in attacks', () => {
  const { service, org } = setupE2e({
    env: { ...DASHBOARD_ENV, [ENV.publicRateLimitPerSecond]: '1000' },
    organizations: { org: 'Sign-in Attacks Org' },
  });

  it('the per-email limit of 5 failures holds against concurrent guesses (no more than 5 passwords checked)', async () => {
    const victim = await signInAs(service, { organizationId: org.organizationId, role: 'viewer' });
    const form = await signedOutForm(service.baseUrl, '/dashboard/sign-in');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(service.baseUrl, '/dashboard/sign-in', form.cookie, {
          _csrf: form.csrf,
          email: victim.email,
          password: `wrong guess number ${i} here`,
          code: '000000',
        }).then(async (response) => {
          await response.text();
          return response.status;
        }),
      ),
    );
    // 5 failures per email in the window; "past them every attempt is refused (429)". Each 401 is a
    // password actually checked: racing requests all pass the limit check before any failure is counted.
    // 8 concurrent attempts: at least 3 must be refused as limited without a password check.
    expect(answers.filter((status) => status === 429).length, `answers: ${answers.join(',')}`).toBeGreaterThanOrEqual(
      3,
    );
  });

  it('sign out everywhere ends a session older than the 100 newest (hidden behind ended sessions)', async () => {
    const victim = await signInAs(service, { organizationId: org.organizationId, role: 'admin' });
    // The old session works.
    expect((await dashboardFetch(service, victim, '/dashboard/security')).status).toBe(200);
    const shared = core();
    const store = createSignInStore(shared.table);
    const sessions = sessionsOf(shared);
    const user = { id: victim.userId, email: victim.email, role: 'admin' as const, organizationId: org.organizationId };
    const meta = { ipAddress: '127.0.0.1', userAgent: 'test' };
    // 100 newer sessions, each signed in and out again (the open count stays small).
    for (let i = 0; i < 100; i += 1) {
      const opened = await sessions.opening(user, meta, true);
      await store.commit([
        { type: 'putSession', session: { ...opened.session, revokedAt: shared.clock.now().toISOString() } },
      ]);
    }
    const fresh = await sessions.opening(user, meta, true);
    await store.commit(fresh.changes);
    const current = { cookie: `${SESSION_COOKIE}=${fresh.secret}`, csrfToken: fresh.session.csrfToken };
    const everywhere = await dashboardFetch(service, current, '/dashboard/security/sign-out-everywhere', { form: {} });
    expect(everywhere.status).toBe(303);
    expect((await dashboardFetch(service, current, '/dashboard/security')).status).toBe(303);
    // The first session must have ended too.
    const old = await dashboardFetch(service, victim, '/dashboard/security');
    expect(old.status).toBe(303);
  });

  it('a short (10-byte) TOTP secret posted with an invitation answers 400, not a failure page (500)', async () => {
    const invited = await service.call('POST', '/v1/users', {
      key: org.key,
      body: { email: 'short-secret@example.test', role: 'viewer' },
    });
    expect(invited.status).toBe(201);
    const path = new URL(invited.body.inviteUrl as string).pathname;
    const page = await signedOutForm(service.baseUrl, path);
    expect(page.status).toBe(200);
    // 16 base32 characters pass the page's own pattern (/^[A-Z2-7]{16,64}$/) but are 10 bytes:
    // otplib's guardrail (at least 16 bytes) throws inside checkTotp.
    const answer = await post(service.baseUrl, path, page.cookie, {
      _csrf: page.csrf,
      password: 'a long walk by the river 42',
      confirm: 'a long walk by the river 42',
      totpSecret: 'AAAAAAAAAAAAAAAA',
      code: '123456',
      factor: 'totp',
    });
    await answer.text();
    expect(answer.status).toBe(400);
  });

  it('a huge totpSecret echoed back on a refused invitation form answers 400, not a failure page (500)', async () => {
    const invited = await service.call('POST', '/v1/users', {
      key: org.key,
      body: { email: 'huge-secret@example.test', role: 'viewer' },
    });
    expect(invited.status).toBe(201);
    const path = new URL(invited.body.inviteUrl as string).pathname;
    const page = await signedOutForm(service.baseUrl, path);
    // The password is refused first; the page is drawn again with the posted secret as its QR code
    // (serveInvitation keeps `field('totpSecret')`), and a 4000-character secret does not fit a QR code.
    const answer = await post(service.baseUrl, path, page.cookie, {
      _csrf: page.csrf,
      password: 'short',
      confirm: 'short',
      totpSecret: 'A'.repeat(4000),
      code: '123456',
      factor: 'totp',
    });
    const html = await answer.text();
    expect(answer.status).toBe(400);
    expect(html).toContain('at least 12 characters');
  });
});
