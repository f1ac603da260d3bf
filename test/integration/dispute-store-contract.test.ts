import { createDisputeStore } from '../../shared/persistence/dispute-store.js';
import { describeDisputeStoreContract } from '../contracts/dispute-store-contract.js';
import { createTestTable } from '../fixtures/table.js';

// One table for the file: every test makes its own organizations and wallets.
let table: ReturnType<typeof createTestTable> | undefined;

describeDisputeStoreContract('DynamoDB Local', async () => {
  const context = await (table ??= createTestTable());
  return {
    store: createDisputeStore(context),
    addWallet: (wallet) => context.store.commit([{ type: 'createWallet', wallet }]),
    setMainWallet: (organizationId, environment, mainWalletId) =>
      context.store.commit([{ type: 'createEnvironment', organizationId, environment, mainWalletId }]),
    commitPayment: (change) => context.store.commit([change]),
    freeze: (walletId) =>
      context.store.commit([{ type: 'updateWallet', walletId, trigger: 'freeze', set: { status: 'FROZEN' } }]),
  };
});
