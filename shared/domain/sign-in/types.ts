import type { Environment } from '../tenancy.js';
import type { AnyUserRole } from '../users/types.js';

/** Sessions end after 30 minutes without a request, and 12 hours after sign-in whatever happens. */
export const SESSION_IDLE_MINUTES = 30;
export const SESSION_ABSOLUTE_HOURS = 12;
/** A proven second factor counts for showing or rotating a secret and going live this long (step-up). */
export const STEP_UP_WINDOW_MINUTES = 5;
/** The most open sessions a user has; signing in again past it ends the oldest. */
export const MAX_SESSIONS_PER_USER = 20;
/** Ten recovery codes, each usable once, shown once. */
export const RECOVERY_CODE_COUNT = 10;
/** The most passkeys a user registers. */
export const MAX_PASSKEYS = 10;

/** A passkey as stored (the credential's public key: nothing secret). */
export interface Passkey {
  /** The credential id, base64url. */
  id: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: string;
}

/** A user's sign-in factors (apart from the user item: sign-in owns them). */
export interface Credentials {
  userId: string;
  /** scrypt (shared/domain/sign-in/passwords.ts), never the password. */
  passwordHash: string;
  /** The TOTP secret, sealed with the data sealer; absent without an authenticator app. */
  totpSecretSealed?: string;
  /** The last TOTP time step used: a code is good once. */
  totpLastStep?: number;
  passkeys: Passkey[];
  /** sha256 (hex) of each unused recovery code. */
  recoveryCodeHashes: string[];
  updatedAt: string;
}

/** A dashboard session as stored: the cookie's secret only as its hash. */
export interface StoredSession {
  /** Public id (`ses_...`), what the security page lists and revokes by; never the cookie. */
  id: string;
  /** sha256 (hex) of the cookie's secret: the item's key. */
  hash: string;
  userId: string;
  email: string;
  role: AnyUserRole;
  organizationId: string | null;
  environment: Environment;
  csrfToken: string;
  createdAt: string;
  lastSeenAt: string;
  /** The absolute end (createdAt + 12 h). */
  expiresAt: string;
  /** When the second factor was last proven in this session (sign-in counts). */
  verifiedAt?: string;
  revokedAt?: string;
  ipAddress: string;
  userAgent: string;
}
