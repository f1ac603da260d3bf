import { describePaymentStoreContract } from '../contracts/payment-store-contract.js';
import { createMemoryPaymentStore } from '../fakes/memory-payment-store.js';

describePaymentStoreContract('in-memory fake', async () => {
  const { store, table } = createMemoryPaymentStore();
  return { store, addWallet: async (wallet) => table.addWallet(wallet) };
});
