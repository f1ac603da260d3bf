import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { created, ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { createOrganizationBody, kybDecisionBody } from './schemas.js';

const organizations = () => container().services.organizations;

/** Operator endpoints; also serves the catch-all route (unknown paths answer NOT_FOUND). */
export const handler = createHttpHandler(
  'internal',
  {
    createOrganization: operation({
      body: createOrganizationBody,
      run: async ({ auth, body }) => {
        const result = await organizations().create(auth, body);
        return created({
          organization: { id: result.organization.id, name: result.organization.name },
          sandboxKey: result.sandboxKey,
          sandboxKeyId: result.sandboxKeyId,
          mainWalletId: result.mainWalletId,
        });
      },
    }),
    decideKyb: operation({
      body: kybDecisionBody,
      run: async ({ auth, params, body }) => ok(await organizations().decideKyb(auth, params.id!, body.status)),
    }),
    getCompliance: operation({ run: async () => ok(await container().services.compliance.check()) }),
    suspendMerchant: operation({
      run: async ({ auth, params }) => ok(await container().services.merchants.suspend(auth, params.domain!)),
    }),
  },
  container,
);
