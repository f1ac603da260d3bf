import { describeCustomerStoreContract } from '../contracts/customer-store-contract.js';
import { memoryCustomerStore } from '../fakes/memory-customer-store.js';

describeCustomerStoreContract('in-memory fake', async () => {
  const names: Record<string, string> = {};
  const { store } = memoryCustomerStore(names);
  return {
    store,
    addOrganization: async (organizationId, name) => {
      names[organizationId] = name;
    },
  };
});
