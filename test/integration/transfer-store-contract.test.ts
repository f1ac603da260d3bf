import { createTransferStore } from '../../shared/persistence/transfer-store.js';
import { describeTransferStoreContract } from '../contracts/transfer-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organization and wallets.
let table: ReturnType<typeof createTestTable> | undefined;

describeTransferStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createTransferStore(context),
    addWallet: (wallet) => context.store.commit([{ type: 'createWallet', wallet }]),
    addPolicy: (policy) => context.store.commit([{ type: 'putPolicy', policy, isNew: true }]),
  };
});
