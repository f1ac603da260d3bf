import { createHttpHandler } from '../../shared/http/middleware.js';
import { BANK_ACCOUNTS } from '../../shared/operations/bank-accounts.js';
import { core } from '../../shared/runtime/core.js';
import { bankAccountService } from '../../shared/runtime/services/bank-accounts.js';

export const handler = createHttpHandler(BANK_ACCOUNTS, core, () => ({ bankAccounts: bankAccountService(core()) }));
