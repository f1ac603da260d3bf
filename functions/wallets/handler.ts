import { createHttpHandler } from '../../shared/http/middleware.js';
import { WALLETS } from '../../shared/operations/wallets.js';
import { core } from '../../shared/runtime/core.js';
import { walletService } from '../../shared/runtime/services/wallets.js';

export const handler = createHttpHandler(WALLETS, core, () => ({ wallets: walletService(core()) }));
