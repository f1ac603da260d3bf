import { createWalletService, type WalletService } from '../../domain/wallets/wallet-service.js';
import type { WalletStore } from '../../domain/wallets/ports.js';
import { createWalletStore } from '../../persistence/wallet-store.js';
import type { Core } from '../core.js';

export function walletService(
  core: Core,
  { store = createWalletStore(core.table) }: { store?: WalletStore } = {},
): WalletService {
  return createWalletService({ ...core.deps, store });
}
