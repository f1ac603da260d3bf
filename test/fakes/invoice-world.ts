import { fixedClock } from '../../shared/domain/clock.js';
import { createInvoiceService } from '../../shared/domain/invoices/invoice-service.js';
import { fakeInvoiceParties, fakeProcessor } from './fake-invoice-parties.js';
import { createMemoryInvoiceStore } from './memory-invoice-store.js';
import { serviceWorld } from './service-world.js';

/** A US bank account a customer types (sandbox: its debit settles). */
export const BANK = {
  type: 'us_bank_account' as const,
  routingNumber: '110000000',
  accountNumber: '000123456789',
  accountHolderName: 'Jane Doe',
  accountType: 'checking' as const,
};

/** The invoice service over the memory fakes, with one wallet and one customer of its organization. */
export function invoiceWorld() {
  const clock = fixedClock(new Date('2026-11-27T10:00:00.000Z'));
  const { store, table } = createMemoryInvoiceStore();
  const world = serviceWorld(clock, table);
  const processor = fakeProcessor();
  const customers = fakeInvoiceParties();
  const service = createInvoiceService({
    ...world.deps,
    store,
    parties: customers.parties,
    processors: () => processor.processor,
    hostedUrl: (path) => `https://pay.example${path}`,
    log: { error: () => undefined },
  });
  const walletId = world.wallet('0.00');
  const customerId = customers.addCustomer(world.scope.organizationId);
  const balanceOf = async (id: string) => (await store.getWallet(id))!.balance.toFixed(2);
  return { world, clock, store, table, processor, customers, service, walletId, customerId, balanceOf };
}
