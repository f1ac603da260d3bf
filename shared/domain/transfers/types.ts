import { everyOf } from '../enums.js';
import type { Environment } from '../tenancy.js';

/**
 * Transfers move money in and out of the service (interface-spec 2.6, 3.3 and 4.5; decisions.md
 * section 4): a deposit from a bank or a USDC address, a withdrawal to one, or an internal
 * transfer between two wallets of one organization.
 */
export const TRANSFER_DIRECTIONS = ['DEPOSIT', 'WITHDRAWAL', 'INTERNAL'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];

export const FIAT_RAILS = ['ACH', 'WIRE', 'FEDNOW'] as const;
export type FiatRail = (typeof FIAT_RAILS)[number];
export const EXTERNAL_RAILS = [...FIAT_RAILS, 'USDC'] as const;
export type ExternalRail = (typeof EXTERNAL_RAILS)[number];
export const RAILS = [...EXTERNAL_RAILS, 'INTERNAL'] as const;
export type Rail = (typeof RAILS)[number];

export const TRANSFER_CURRENCIES = ['USD', 'USDC'] as const;
export type TransferCurrency = (typeof TRANSFER_CURRENCIES)[number];

/** ACH deposits clear after COMPLETED (pendingBalance), then become available. */
export type ClearingStatus = 'PENDING' | 'AVAILABLE';

/**
 * The outside end of a deposit (source) or withdrawal (destination), as stored: never a full
 * account number in clear (sealed, shown as `last4`).
 */
export type Counterparty =
  | {
      type: FiatRail;
      /** A linked bank account of ours (`ba_...`), verified when the transfer was made. */
      bankAccountId?: string;
      /** The counterparty's id at the banking provider (given instead of account numbers). */
      counterpartyId?: string;
      routingNumber?: string;
      last4?: string;
      /** The account number, sealed (shared/domain/sealing.ts; context: the transfer id). */
      accountNumberSealed?: string;
    }
  | { type: 'USDC'; address: string; chain: string };

export interface Transfer {
  id: string;
  organizationId: string;
  environment: Environment;
  /** The wallet credited by a deposit or debited by a withdrawal; the paying wallet of an internal transfer. */
  walletId: string;
  direction: TransferDirection;
  rail: Rail;
  currency: TransferCurrency;
  /** Decimal strings, exact. */
  amount: string;
  fee: string;
  status: TransferStatus;
  source?: Counterparty;
  destination?: Counterparty;
  /** Internal transfers. */
  toWalletId?: string;
  description?: string;
  failureReason?: string;
  /** Withdrawals: the hold of amount + fee taken at initiation (a payment link's claim: the link's own hold). */
  holdId?: string;
  /**
   * A withdrawal that carries a payment link's claim (ach, usdc): it captures the link's hold, and
   * its end decides the link's (completed: SETTLED; failed or cancelled: ACTIVE again, or EXPIRED).
   */
  paymentLinkId?: string;
  /** The journal record that moved the money on completion (or at once, internal). */
  transactionId?: string;
  /** The rail's reference once submitted, and when it settles (sandbox: scaled). */
  railReference?: string;
  settleAt?: string;
  clearing?: ClearingStatus;
  /** ACH deposits: when the clearing funds become available. */
  availableAt?: string;
  idempotencyKey?: string;
  /**
   * While the transfer still has work ahead (submission, settlement, the end of its clearing): when
   * the reconciler (the `expiry-sweep` worker) does that work itself if the workflow or the expiry
   * has not. Absent once nothing is left to do.
   */
  reconcileAt?: string;
  createdAt: string;
  submittedAt?: string;
  completedAt?: string;
  failedAt?: string;
  cancelledAt?: string;
}

export type TransferStatus = 'INITIATED' | 'PENDING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
export const TRANSFER_STATUSES = everyOf<TransferStatus>()([
  'INITIATED',
  'PENDING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
]);
