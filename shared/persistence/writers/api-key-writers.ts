import { API_KEY_STATES } from '../../domain/api-keys/api-key-states.js';
import type { ApiKeyChange } from '../../domain/api-keys/changes.js';
import { ApiError } from '../../domain/errors.js';
import { apiKeyCodec, apiKeyKeys, apiKeyPointerCodec } from '../entities/api-key.js';
import { put, transitionUpdate, type ChangeWriters } from '../write-builders.js';

export const apiKeyWriters: ChangeWriters<ApiKeyChange> = {
  createApiKey: (tableName, change) => [
    put(tableName, apiKeyCodec.toItem(change.apiKey)),
    put(tableName, apiKeyPointerCodec.toItem(change.apiKey)),
  ],
  revokeApiKey: (tableName, change) => [
    transitionUpdate(tableName, apiKeyKeys.byHash(change.apiKey.hash), API_KEY_STATES.revoke, {
      set: { revokedAt: change.revokedAt },
      onConditionFailed: () => new ApiError('INVALID_STATE', 'The API key is already revoked.'),
    }),
  ],
};
