import { API_KEY_STATES } from '../../domain/api-keys/api-key-states.js';
import type { ApiKeyChange } from '../../domain/api-keys/ports.js';
import { ApiError } from '../../domain/errors.js';
import { fromStatesOf, targetOf } from '../../domain/state-table.js';
import { apiKeyCodec, apiKeyKeys, apiKeyPointerCodec } from '../entities/api-key.js';
import { inStates, put, update, type ChangeWriters } from '../write-builders.js';

export const apiKeyWriters: ChangeWriters<ApiKeyChange> = {
  createApiKey: (tableName, change) => [put(tableName, apiKeyCodec.toItem(change.apiKey)), put(tableName, apiKeyPointerCodec.toItem(change.apiKey))],
  revokeApiKey: (tableName, change) => {
    const from = inStates('#status', fromStatesOf(API_KEY_STATES, 'revoke'), ':from');
    return [
      update(
        tableName,
        apiKeyKeys.byHash(change.apiKey.hash),
        'SET #status = :revoked, revokedAt = :at',
        from.condition,
        { ...from.values, ':revoked': targetOf(API_KEY_STATES, 'revoke'), ':at': change.revokedAt },
        { '#status': 'status' },
        () => new ApiError('INVALID_STATE', 'The API key is already revoked.'),
      ),
    ];
  },
};
