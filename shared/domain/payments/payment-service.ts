import type { ExpiryScheduler } from '../expiries/ports.js';
import type { ServiceDeps } from '../ports.js';
import { createPaymentBatch } from './payment-batch.js';
import { createPaymentCreation } from './payment-creation.js';
import { createPaymentLookups } from './payment-lookups.js';
import { createPaymentReads } from './payment-reads.js';
import { createPaymentReversal } from './payment-reversal.js';
import { domainLog } from '../telemetry.js';
import type { PaymentStore } from './ports.js';

export type { CreatePaymentInput } from './payment-creation.js';
export { MAX_BATCH_SIZE } from './payment-batch.js';

/** Payments between wallets (interface-spec 4.2, decisions.md section 3). */
export interface PaymentServiceOptions {
  /** Schedules the expiry of each approval created (after its commit). Absent: the sweep alone expires it. */
  expiries?: ExpiryScheduler | undefined;
  log?: Pick<Console, 'error'>;
}

/**
 * The one payment service the rest of the code gets, composed of: one payment created
 * (payment-creation.ts), a batch of them (payment-batch.ts), the reversal (payment-reversal.ts)
 * and the reads (payment-reads.ts), each built from the same `ServiceDeps<PaymentStore>`.
 */
export function createPaymentService(deps: ServiceDeps<PaymentStore>, options: PaymentServiceOptions = {}) {
  const { freshLookups, batchLookups } = createPaymentLookups(deps.store);
  const { create } = createPaymentCreation(deps, {
    freshLookups,
    expiries: options.expiries,
    log: options.log ?? domainLog,
  });
  const { get, list } = createPaymentReads(deps);
  const { reverse } = createPaymentReversal(deps, { get });
  const { batch } = createPaymentBatch(deps, { create, batchLookups });
  return { create, get, list, reverse, batch };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
export type { PaymentView } from './payment-view.js';
