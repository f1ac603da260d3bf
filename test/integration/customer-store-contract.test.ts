import { createCustomerStore } from '../../shared/persistence/customer-store.js';
import { describeCustomerStoreContract } from '../contracts/customer-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organization and customers.
let table: ReturnType<typeof createTestTable> | undefined;

describeCustomerStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createCustomerStore(context),
    addOrganization: (id, name) =>
      context.store.commit([
        {
          type: 'createOrganization',
          organization: { id, name, createdAt: '2026-11-27T10:00:00.000Z', kybStatus: 'NOT_SUBMITTED' },
        },
      ]),
  };
});
