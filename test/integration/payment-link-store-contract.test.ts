import { createPaymentLinkStore } from '../../shared/persistence/payment-link-store.js';
import { describePaymentLinkStoreContract } from '../contracts/payment-link-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organization and wallets.
let table: ReturnType<typeof createTestTable> | undefined;

describePaymentLinkStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createPaymentLinkStore(context),
    addWallet: (wallet) => context.store.commit([{ type: 'createWallet', wallet }]),
  };
});
