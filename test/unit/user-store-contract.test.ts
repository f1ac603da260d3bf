import { describeUserStoreContract } from '../contracts/user-store-contract.js';
import { memoryUserStore } from '../fakes/memory-user-store.js';

describeUserStoreContract('in-memory fake', async () => {
  const { store, organizations } = memoryUserStore();
  return {
    store,
    addOrganization: async (organizationId) => {
      organizations.add(organizationId);
    },
  };
});
