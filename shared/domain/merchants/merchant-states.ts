import type { StateTable } from '../state-table.js';
import type { MerchantProfile } from '../types.js';

export type MerchantTrigger = 'suspend';

/** A merchant profile is created ACTIVE; the operator suspends it (in every environment where it exists). */
export const MERCHANT_STATES = {
  suspend: { from: ['ACTIVE'], to: 'SUSPENDED' },
} as const satisfies StateTable<MerchantProfile['status'], MerchantTrigger>;
