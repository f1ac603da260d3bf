import { createApiKeyService, type ApiKeyService } from '../../domain/api-keys/api-key-service.js';
import type { ApiKeyStore } from '../../domain/api-keys/ports.js';
import { createApiKeyStore } from '../../persistence/api-key-store.js';
import type { Core } from '../core.js';

export function apiKeyService(
  core: Core,
  { store = createApiKeyStore(core.table) }: { store?: ApiKeyStore } = {},
): ApiKeyService {
  return createApiKeyService({ ...core.deps, store });
}
