import { createPaymentStore } from '../../shared/persistence/payment-store.js';
import { describePaymentStoreContract } from '../contracts/payment-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organization and wallets.
let table: ReturnType<typeof createTestTable> | undefined;

describePaymentStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createPaymentStore(context),
    addWallet: (wallet) => context.store.commit([{ type: 'createWallet', wallet }]),
  };
});
