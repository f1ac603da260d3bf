import { createInvoiceCollectionStore } from '../../shared/persistence/invoice-collection-store.js';
import { describeInvoiceCollectionStoreContract } from '../contracts/invoice-collection-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organization.
let table: ReturnType<typeof createTestTable> | undefined;

describeInvoiceCollectionStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return { store: createInvoiceCollectionStore(context) };
});
