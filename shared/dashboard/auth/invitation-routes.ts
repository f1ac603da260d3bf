import type { AuthRoute } from './types.js';

/** Accepting an invitation (password, then a TOTP app or a passkey, then the recovery codes once). */
export const INVITATION_ROUTES: readonly AuthRoute[] = [];
