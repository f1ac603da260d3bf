import { describeTransferStoreContract } from '../contracts/transfer-store-contract.js';
import { createMemoryTransferStore } from '../fakes/memory-transfer-store.js';

describeTransferStoreContract('in-memory fake', async () => {
  const { store, table, addPolicy } = createMemoryTransferStore();
  return {
    store,
    addWallet: async (wallet) => table.addWallet(wallet),
    addPolicy: async (policy) => void addPolicy(policy.walletId, policy),
  };
});
