import { describeDisputeStoreContract } from '../contracts/dispute-store-contract.js';
import { createMemoryDisputeStore } from '../fakes/memory-dispute-store.js';

describeDisputeStoreContract('in-memory fake', async () => {
  const { store, table, setMainWallet, payments } = createMemoryDisputeStore();
  return {
    store,
    addWallet: async (wallet) => table.addWallet(wallet),
    setMainWallet: async (organizationId, environment, walletId) =>
      void setMainWallet({ organizationId, environment }, walletId),
    commitPayment: (change) => payments.store.commit([change]),
    freeze: async (walletId) => {
      const row = table.items.wallets.get(walletId)!;
      table.items.wallets.set(walletId, { ...row, wallet: { ...row.wallet, status: 'FROZEN' } });
    },
  };
});
