import type { ApiKey } from '../types.js';

/** The api-keys area's changes (a leaf: the stores of other areas write them too). */
export type ApiKeyChange =
  /** The key item (found by hash) and its pointer (found by id). */
  | { type: 'createApiKey'; apiKey: ApiKey }
  /** Revokes an ACTIVE key (API_KEY_STATES); a revoked one fails with INVALID_STATE. */
  | { type: 'revokeApiKey'; apiKey: ApiKey; revokedAt: string };
