import type { StateTable } from '../state-table.js';

export type HoldStatus = 'HELD' | 'CAPTURED' | 'VOIDED';
export type HoldTrigger = 'capture' | 'void';

/**
 * A hold moves money from a wallet's available balance to its held balance (status HELD). It ends
 * once: captured (fully or partly, the rest released to available) or voided (all released).
 * The capture or void is conditioned on HELD in its own transaction, so it can never run twice.
 */
export const HOLD_STATES = {
  capture: { from: ['HELD'], to: 'CAPTURED' },
  void: { from: ['HELD'], to: 'VOIDED' },
} as const satisfies StateTable<HoldStatus, HoldTrigger>;
