import { randomInt } from 'node:crypto';
import { createBankAccountService, type BankAccountService } from '../../domain/bank-accounts/bank-account-service.js';
import type { BankAccountStore } from '../../domain/bank-accounts/ports.js';
import { createBankAccountStore } from '../../persistence/bank-account-store.js';
import type { Core } from '../core.js';
import { dataSealer } from '../sealing.js';

/** Production micro-deposits: 1 to 99 cents each, drawn from the CSPRNG. */
const MICRO_DEPOSIT_CENTS = { min: 1, maxExclusive: 100 };

export function bankAccountService(
  core: Core,
  { store = createBankAccountStore(core.table) }: { store?: BankAccountStore } = {},
): BankAccountService {
  return createBankAccountService({
    store,
    clock: core.clock,
    ids: core.ids,
    sealer: dataSealer(core),
    randomCents: () => randomInt(MICRO_DEPOSIT_CENTS.min, MICRO_DEPOSIT_CENTS.maxExclusive),
  });
}
