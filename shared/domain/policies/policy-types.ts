import type Big from 'big.js';

export interface AllowedHours {
  /** Inclusive start hour, 0..23 (UTC). */
  start: number;
  /** Exclusive end hour, 1..24 (UTC); start > end wraps midnight. */
  end: number;
}

/** Policy status: ACTIVE, or DELETED (kept for the audit trail, no longer applied). */
export interface Policy {
  id: string;
  walletId: string;
  organizationId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  name: string;
  maxTransactionAmount: Big;
  requireHumanApproval: boolean;
  dailyLimit?: Big;
  weeklyLimit?: Big;
  monthlyLimit?: Big;
  allowedRecipients?: string[];
  blockedRecipients?: string[];
  allowedHoursUtc?: AllowedHours;
  approvalThreshold?: Big;
  status: 'ACTIVE' | 'DELETED';
  createdAt: string;
  updatedAt: string;
  /**
   * Incremented by every write (a new policy is 1); each change is conditioned on the version it
   * read (decisions.md section 3). Absent on policies written before versioning (read as 0).
   */
  version?: number;
}

export type Period = 'DAY' | 'WEEK' | 'MONTH';

export const PERIOD_RULE: Record<Period, 'dailyLimit' | 'weeklyLimit' | 'monthlyLimit'> = {
  DAY: 'dailyLimit',
  WEEK: 'weeklyLimit',
  MONTH: 'monthlyLimit',
};

/** Spend of one wallet in one calendar period (UTC), counted inside the posting transaction. */
export interface SpendCounter {
  walletId: string;
  period: Period;
  /** e.g. "2026-11-21", "2026-W47", "2026-11". */
  periodKey: string;
  spent: Big;
}

/** A period limit the posting must respect: the counter grows by `amount` only while it stays within `limit`. */
export interface PeriodLimitCheck {
  walletId: string;
  period: Period;
  periodKey: string;
  limit: Big;
  amount: Big;
  /** When the counter may be deleted (after the period ends). */
  expiresAtEpochS: number;
}
