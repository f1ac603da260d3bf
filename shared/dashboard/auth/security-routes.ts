import type { AuthRoute } from './types.js';

/** The security page (factors, recovery codes, sessions) and the step-up page. */
export const SECURITY_ROUTES: readonly AuthRoute[] = [];
