import { presentPolicy } from '../../shared/domain/policies/policy-service.js';
import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { pageRequestOf, pageResponse } from '../../shared/http/pagination.js';
import { created, ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { createPolicyBody, listPoliciesQuery, updatePolicyBody } from './schemas.js';

const policies = () => container().services.policies;

export const handler = createHttpHandler(
  'policies',
  {
    createPolicy: operation({ body: createPolicyBody, run: async ({ auth, body }) => created(presentPolicy(await policies().create(auth, body))) }),
    listPolicies: operation({
      query: listPoliciesQuery,
      run: async ({ auth, query, routeKey }) => {
        const cursors = await container().cursors();
        const binding = `${routeKey}|${auth.principal.keyId}|${query.walletId ?? ''}`;
        const page = await policies().list(auth, query.walletId, pageRequestOf(cursors, query, binding));
        return ok(pageResponse(cursors, page, binding, presentPolicy));
      },
    }),
    getPolicy: operation({ run: async ({ auth, params }) => ok(presentPolicy(await policies().get(auth, params.id!))) }),
    updatePolicy: operation({ body: updatePolicyBody, run: async ({ auth, params, body }) => ok(presentPolicy(await policies().update(auth, params.id!, body))) }),
    deletePolicy: operation({ run: async ({ auth, params }) => ok(await policies().remove(auth, params.id!)) }),
  },
  container,
);
