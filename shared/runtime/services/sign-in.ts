import type { DashboardRuntime } from '../../dashboard/auth/types.js';
import { sessionService, type SessionService } from '../../sign-in/session-service.js';
import { signInFlows } from '../../sign-in/sign-in-flows.js';
import { relyingPartyOf } from '../../sign-in/webauthn.js';
import type { SessionRevoker, UserReader } from '../../domain/users/ports.js';
import { createSignInStore } from '../../persistence/sign-in-store.js';
import type { Core } from '../core.js';
import { dataSealer } from '../sealing.js';

/** A Host header as it may be used in a URL (name or address, optional port). */
const HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$/;

/** The dashboard's sessions over the table (SessionRevoker for the users area: it ends a user's sessions). */
export function sessionsOf(core: Core): SessionService {
  return sessionService({ store: createSignInStore(core.table), clock: core.clock, ids: core.ids });
}

export const sessionRevoker = (core: Core): SessionRevoker => sessionsOf(core);

/**
 * What the dashboard's edge runs on: sessions, sign-in (TOTP secrets sealed by the data sealer), the
 * per-IP limiter, the cookie policy (`Secure` and `__Host-` everywhere but the local run) and the
 * passkeys' relying party (PUBLIC_BASE_URL, else the request's Host).
 */
export function dashboardRuntime(core: Core, users: UserReader): DashboardRuntime {
  const store = createSignInStore(core.table);
  const sessions = sessionService({ store, clock: core.clock, ids: core.ids });
  const secure = !core.config.localRun;
  return {
    clock: core.clock,
    publicRateLimiter: core.publicRateLimiter,
    cookies: { secure },
    sessions,
    signIn: signInFlows({ store, clock: core.clock, ids: core.ids, users, sealer: dataSealer(core), sessions }),
    relyingParty: (host) =>
      relyingPartyOf(
        core.config.publicBaseUrl ??
          `${secure ? 'https' : 'http'}://${host !== undefined && HOST.test(host) ? host : 'localhost'}`,
      ),
  };
}
