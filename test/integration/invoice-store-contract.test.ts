import { createInvoiceStore } from '../../shared/persistence/invoice-store.js';
import { describeInvoiceStoreContract } from '../contracts/invoice-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organization and wallets.
let table: ReturnType<typeof createTestTable> | undefined;

describeInvoiceStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createInvoiceStore(context),
    addWallet: (wallet) => context.store.commit([{ type: 'createWallet', wallet }]),
  };
});
