import { createHttpHandler } from '../../shared/http/middleware.js';
import { API_KEYS } from '../../shared/operations/api-keys.js';
import { core } from '../../shared/runtime/core.js';
import { apiKeyService } from '../../shared/runtime/services/api-keys.js';

export const handler = createHttpHandler(API_KEYS, core, () => ({ apiKeys: apiKeyService(core()) }));
