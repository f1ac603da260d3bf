import { resolveIdempotencyKey } from '../../shared/domain/idempotency/idempotency.js';
import { presentMerchant } from '../../shared/domain/merchants/merchant-service.js';
import { presentPayment } from '../../shared/domain/payments/payment-view.js';
import { createHttpHandler, operation } from '../../shared/http/middleware.js';
import { pageRequestOf, pageResponse } from '../../shared/http/pagination.js';
import { idempotentResult, ok } from '../../shared/http/responses.js';
import { container } from '../../shared/runtime/container.js';
import { batchBody, createPaymentBody, listPaymentsQuery, merchantProfileBody, reverseBody } from './schemas.js';

const services = () => container().services;
const headerKey = (headers: Record<string, string | undefined>) => headers['idempotency-key'];


export const handler = createHttpHandler(
  'payments',
  {
    createPayment: operation({
      body: createPaymentBody,
      run: async ({ auth, body, headers }) => {
        const idempotencyKey = resolveIdempotencyKey(body.idempotencyKey, headerKey(headers));
        return idempotentResult(await services().payments.create(auth, { ...body, idempotencyKey }));
      },
    }),
    listPayments: operation({
      query: listPaymentsQuery,
      run: async ({ auth, query, routeKey }) => {
        const cursors = await container().cursors();
        const binding = `${routeKey}|${auth.principal.keyId}|${query.walletId ?? ''}|${query.status ?? ''}`;
        const page = await services().payments.list(auth, { walletId: query.walletId, status: query.status }, pageRequestOf(cursors, query, binding));
        return ok(pageResponse(cursors, page, binding, presentPayment));
      },
    }),
    getPayment: operation({
      run: async ({ auth, params }) => ok(presentPayment(await services().payments.get(auth, params.id!))),
    }),
    reversePayment: operation({
      body: reverseBody,
      run: async ({ auth, params, body, headers }) => {
        const idempotencyKey = resolveIdempotencyKey(body.idempotencyKey, headerKey(headers));
        return idempotentResult(await services().payments.reverse(auth, params.id!, idempotencyKey));
      },
    }),
    createBatch: operation({
      body: batchBody,
      run: async ({ auth, body, headers }) => {
        const batchKey = resolveIdempotencyKey(body.idempotencyKey, headerKey(headers));
        return idempotentResult(await services().payments.batch(auth, body.payments, batchKey));
      },
    }),
    putMerchantProfile: operation({
      body: merchantProfileBody,
      run: async ({ auth, body }) => ok(presentMerchant(await services().merchants.upsert(auth, body))),
    }),
  },
  container,
);
