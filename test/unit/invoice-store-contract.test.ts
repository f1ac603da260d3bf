import { describeInvoiceStoreContract } from '../contracts/invoice-store-contract.js';
import { createMemoryInvoiceStore } from '../fakes/memory-invoice-store.js';

describeInvoiceStoreContract('in-memory fake', async () => {
  const { store, table } = createMemoryInvoiceStore();
  return { store, addWallet: async (wallet) => table.addWallet(wallet) };
});
