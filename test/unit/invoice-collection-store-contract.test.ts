import { describeInvoiceCollectionStoreContract } from '../contracts/invoice-collection-store-contract.js';
import { createMemoryInvoiceCollectionStore } from '../fakes/memory-invoice-collection-store.js';

describeInvoiceCollectionStoreContract('memory fake', async () => ({
  store: createMemoryInvoiceCollectionStore().store,
}));
