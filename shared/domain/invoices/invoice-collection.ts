import type { ExpiryMessage } from '../expiries/ports.js';
import type { CollectionDeps, InvoicePayingSeams } from './collection-seams.js';
import { invoiceRecurring, stepOf, type ClockOutcome } from './invoice-recurring.js';
import { invoiceUsdc } from './invoice-usdc.js';

export type { CollectionDeps, InvoicePayingSeams } from './collection-seams.js';

/**
 * Collecting invoices (docs/api.md "Invoices: collection"), over the invoice service's seams:
 * invoice-usdc.ts (deposit addresses, incoming USDC, unmatched receipts), invoice-recurring.ts
 * (the ACH settlement's clock, recurring charges, retries -> UNCOLLECTIBLE). `expire` is the
 * expiry worker's entry for the collection's kinds.
 */
export function createInvoiceCollectionService(deps: CollectionDeps, seams: InvoicePayingSeams) {
  const usdc = invoiceUsdc(deps, seams);
  const clocks = invoiceRecurring(deps, seams);

  /** One expiry message of the collection: settle a bank debit, run a recurring charge, retry a charge. */
  async function expire(message: ExpiryMessage): Promise<ClockOutcome> {
    if (message.kind === 'invoiceSettlement') return clocks.settle(message.id);
    const step = stepOf(message.id);
    if (!step) return 'done';
    if (message.kind === 'invoiceRecurring') return clocks.runRecurring(step.invoiceId, step.n);
    if (message.kind === 'invoiceRetry') return clocks.retry(step.invoiceId, step.n);
    return 'done';
  }

  return {
    depositBySlug: usdc.depositBySlug,
    incoming: usdc.incoming,
    listReceipts: usdc.listReceipts,
    scheduleSettlement: clocks.scheduleSettlement,
    chargeCollected: clocks.chargeCollected,
    cancelRecurring: clocks.cancelRecurring,
    recurringOf: clocks.recurringOf,
    expire,
  };
}

export type InvoiceCollectionService = ReturnType<typeof createInvoiceCollectionService>;
