import type { StateTable } from '../state-table.js';
import type { ApiKeyStatus } from '../types.js';

export type ApiKeyTrigger = 'revoke';

/** A key is issued ACTIVE and revoked for good (DELETE /v1/api-keys, rotation, agent deletion). */
export const API_KEY_STATES = {
  revoke: { from: ['ACTIVE'], to: 'REVOKED' },
} as const satisfies StateTable<ApiKeyStatus, ApiKeyTrigger>;
