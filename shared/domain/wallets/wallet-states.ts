import type { StateTable } from '../state-table.js';
import type { WalletStatus } from '../types.js';

/** CLOSED is a deleted wallet: stored as `deletedAt` (its status stays FROZEN); it never changes again. */
export type WalletState = WalletStatus | 'CLOSED';
export type WalletTrigger = 'freeze' | 'unfreeze' | 'close';

/** ACTIVE <-> FROZEN (pause and resume); either closes for good (agent deletion). */
export const WALLET_STATES = {
  freeze: { from: ['ACTIVE'], to: 'FROZEN' },
  unfreeze: { from: ['FROZEN'], to: 'ACTIVE' },
  close: { from: ['ACTIVE', 'FROZEN'], to: 'CLOSED' },
} as const satisfies StateTable<WalletState, WalletTrigger>;
