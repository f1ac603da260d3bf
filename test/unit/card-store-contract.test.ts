import { describeCardStoreContract } from '../contracts/card-store-contract.js';
import { createMemoryCardStore } from '../fakes/memory-card-store.js';

describeCardStoreContract('in-memory fake', async () => {
  const { store, table } = createMemoryCardStore();
  return { store, addWallet: async (wallet) => table.addWallet(wallet) };
});
