import { describePaymentLinkStoreContract } from '../contracts/payment-link-store-contract.js';
import { createMemoryPaymentLinkStore } from '../fakes/memory-payment-link-store.js';

describePaymentLinkStoreContract('in-memory fake', async () => {
  const { store, table } = createMemoryPaymentLinkStore();
  return { store, addWallet: async (wallet) => table.addWallet(wallet) };
});
