import { createUserStore } from '../../shared/persistence/user-store.js';
import { describeUserStoreContract } from '../contracts/user-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organizations and users.
let table: ReturnType<typeof createTestTable> | undefined;

describeUserStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createUserStore(context),
    addOrganization: (id) =>
      context.store.commit([
        {
          type: 'createOrganization',
          organization: { id, name: 'Users Co', createdAt: '2026-11-27T10:00:00.000Z', kybStatus: 'NOT_SUBMITTED' },
        },
      ]),
  };
});
