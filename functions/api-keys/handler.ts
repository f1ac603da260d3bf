import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { pageRequestOf, pageResponse } from '../../shared/http/pagination.js';
import { presentApiKey } from '../../shared/http/presenters.js';
import { created, ok } from '../../shared/http/responses.js';
import { listQuery } from '../../shared/http/schemas.js';
import { container } from '../../shared/runtime/container.js';
import { createApiKeyBody } from './schemas.js';

const apiKeys = () => container().services.apiKeys;

export const handler = createHttpHandler(
  'api-keys',
  {
    createApiKey: operation({
      body: createApiKeyBody,
      run: async ({ auth, body }) => {
        const { apiKey, raw } = await apiKeys().create(auth, body);
        // The raw key is shown exactly once; only its SHA-256 hash is stored.
        return created({ ...presentApiKey(apiKey), key: raw });
      },
    }),
    listApiKeys: operation({
      query: listQuery,
      run: async ({ auth, query, routeKey }) => {
        const cursors = await container().cursors();
        const binding = `${routeKey}|${auth.principal.keyId}`;
        const page = await apiKeys().list(auth, pageRequestOf(cursors, query, binding));
        return ok(pageResponse(cursors, page, binding, presentApiKey));
      },
    }),
    revokeApiKey: operation({
      run: async ({ auth, params }) => ok(presentApiKey(await apiKeys().revoke(auth, params.id!))),
    }),
  },
  container,
);
