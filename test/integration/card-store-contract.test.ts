import { createCardStore } from '../../shared/persistence/card-store.js';
import { describeCardStoreContract } from '../contracts/card-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organization, wallets and cards.
let table: ReturnType<typeof createTestTable> | undefined;

describeCardStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createCardStore(context),
    addWallet: (wallet) => context.store.commit([{ type: 'createWallet', wallet }]),
  };
});
