import type { StateTable } from '../state-table.js';
import type { AuthorizationStatus, CardStatus } from './types.js';

/**
 * Card states (interface-spec 3.6): PATCH status INACTIVE freezes, ACTIVE unfreezes (also
 * POST /v1/cards/:id/freeze and /unfreeze); DELETE cancels for good; a single-use card is
 * cancelled by its capture. Each write is conditioned on the trigger's `from` states.
 */
export type CardTrigger = 'freeze' | 'unfreeze' | 'cancel';

export const CARD_STATES = {
  freeze: { from: ['ACTIVE'], to: 'INACTIVE' },
  unfreeze: { from: ['INACTIVE'], to: 'ACTIVE' },
  cancel: { from: ['ACTIVE', 'INACTIVE'], to: 'CANCELLED' },
} as const satisfies StateTable<CardStatus, CardTrigger>;

/**
 * Authorization states: an approved authorization (its hold HELD) is captured (the hold captured,
 * fully or partly) or reversed (the hold voided), once, in the same transaction as its movement.
 * A DECLINED one never changes. Refunds of a CAPTURED one keep its status and add to `refundedAmount`.
 */
export type AuthorizationTrigger = 'capture' | 'reverse';

export const AUTHORIZATION_STATES = {
  capture: { from: ['APPROVED'], to: 'CAPTURED' },
  reverse: { from: ['APPROVED'], to: 'REVERSED' },
} as const satisfies StateTable<AuthorizationStatus, AuthorizationTrigger>;
