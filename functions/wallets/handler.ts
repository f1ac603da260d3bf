import { listQuery } from '../../shared/http/schemas.js';
import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { pageRequestOf, pageResponse } from '../../shared/http/pagination.js';
import { presentBalance, presentStatementEntry, presentWallet } from '../../shared/http/presenters.js';
import { created, ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { createWalletBody, fundWalletBody } from './schemas.js';

const services = () => container().services;

export const handler = createHttpHandler(
  'wallets',
  {
    createWallet: operation({
      body: createWalletBody,
      run: async ({ auth, body }) => created(presentWallet(await services().wallets.create(auth, body))),
    }),
    listWallets: operation({
      query: listQuery,
      run: async ({ auth, query, routeKey }) => {
        const cursors = await container().cursors();
        const binding = `${routeKey}|${auth.principal.keyId}`;
        const page = await services().wallets.list(auth, pageRequestOf(cursors, query, binding));
        return ok(pageResponse(cursors, page, binding, presentWallet));
      },
    }),
    getWallet: operation({
      run: async ({ auth, params }) => ok(presentWallet(await services().wallets.get(auth, params.id!))),
    }),
    getBalance: operation({
      run: async ({ auth, params }) => ok(presentBalance(await services().wallets.get(auth, params.id!))),
    }),
    fundWallet: operation({
      body: fundWalletBody,
      run: async ({ auth, params, body }) => ok(await services().wallets.fund(auth, params.id!, body.amount)),
    }),
    getStatement: operation({
      query: listQuery,
      run: async ({ auth, params, query, routeKey }) => {
        const cursors = await container().cursors();
        const binding = `${routeKey}|${params.id}|${auth.principal.keyId}`;
        const page = await services().wallets.statement(auth, params.id!, pageRequestOf(cursors, query, binding));
        return ok(pageResponse(cursors, page, binding, presentStatementEntry));
      },
    }),
  },
  container,
);
