import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { acceptTosBody, billingMethodBody, kybBody } from './schemas.js';

const activation = () => container().services.activation;

export const handler = createHttpHandler(
  'activation',
  {
    getStatus: operation({ run: async ({ auth }) => ok(await activation().status(auth)) }),
    acceptTos: operation({ body: acceptTosBody, run: async ({ auth, body }) => ok(await activation().acceptTos(auth, body)) }),
    submitKyb: operation({ body: kybBody, run: async ({ auth, body }) => ok(await activation().submitKyb(auth, body)) }),
    addBillingMethod: operation({ body: billingMethodBody, run: async ({ auth, body }) => ok(await activation().addBillingMethod(auth, body)) }),
    activateProduction: operation({ run: async ({ auth }) => ok(await activation().activateProduction(auth)) }),
  },
  container,
);
