import { terminalStatesOf, type StateTable } from '../state-table.js';
import type { InvoiceStatus } from './types.js';

export type InvoiceTrigger = 'finalize' | 'pay' | 'void' | 'markUncollectible' | 'refund';

/**
 * Invoice states (interface-spec 3.5, decisions.md section 6). Created DRAFT; finalized (number,
 * slug, hosted URL); paid by the customer (card at once; a bank debit when the ACH rail settles);
 * voided while unpaid (and no bank debit pending); UNCOLLECTIBLE when a recurring charge's retries
 * fail; a paid invoice refunded (REFUNDED: the wallet debited the full total). Every other move
 * answers 409 INVALID_STATE; the store conditions each write on the trigger's `from` states, so a
 * second payment of the same invoice loses at commit and changes nothing.
 */
export const INVOICE_STATES = {
  finalize: { from: ['DRAFT'], to: 'FINALIZED' },
  pay: { from: ['FINALIZED'], to: 'PAID' },
  void: { from: ['FINALIZED'], to: 'VOIDED' },
  markUncollectible: { from: ['FINALIZED'], to: 'UNCOLLECTIBLE' },
  refund: { from: ['PAID'], to: 'REFUNDED' },
} as const satisfies StateTable<InvoiceStatus, InvoiceTrigger>;

/** Where an invoice's life ends. */
export const INVOICE_END_STATUSES = terminalStatesOf(INVOICE_STATES);
