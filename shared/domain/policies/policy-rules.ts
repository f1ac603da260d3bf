import Big from 'big.js';
import { ApiError } from '../errors.js';
import { formatAmount } from '../money.js';
import { PERIOD_RULE, type Period, type PeriodLimitCheck, type Policy, type SpendCounter } from './policy-types.js';
import { recipientEntryMatches, type RecipientList } from './recipients.js';

/** Counters are kept this long after their period ends, then DynamoDB's TTL removes them. */
export const COUNTER_RETENTION_S = 35 * 24 * 3600;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 week-numbering year and week of a UTC date. */
export function isoWeek(date: Date): { year: number; week: number } {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  return { year: d.getUTCFullYear(), week: Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7) };
}

export function periodKeyOf(period: Period, at: Date): string {
  if (period === 'DAY') return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  if (period === 'MONTH') return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}`;
  const { year, week } = isoWeek(at);
  return `${year}-W${pad(week)}`;
}

/** The key of the period just before the one `at` falls in (its start minus a millisecond). */
export function previousPeriodKeyOf(period: Period, at: Date): string {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  const start =
    period === 'DAY'
      ? Date.UTC(y, m, d)
      : period === 'MONTH'
        ? Date.UTC(y, m, 1)
        : Date.UTC(y, m, d - ((at.getUTCDay() || 7) - 1));
  return periodKeyOf(period, new Date(start - 1));
}

function periodEndEpochS(period: Period, at: Date): number {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  const end =
    period === 'DAY'
      ? Date.UTC(y, m, d + 1)
      : period === 'MONTH'
        ? Date.UTC(y, m + 1, 1)
        : Date.UTC(y, m, d + 8 - (at.getUTCDay() || 7));
  return Math.floor(end / 1000);
}

export type PolicyDecision =
  | { kind: 'ALLOW'; periodLimits: PeriodLimitCheck[] }
  | { kind: 'APPROVAL'; periodLimits: PeriodLimitCheck[]; reason: string };

export interface PaymentIntent {
  walletId: string;
  /** The payee wallet id. */
  to: string;
  /** Other names of the payee as the request gave them (e.g. "merchant:shop.example.com"). */
  toAliases?: string[];
  amount: Big;
  at: Date;
}

function deny(rule: string, message: string, extra: Record<string, unknown> = {}): never {
  throw new ApiError('POLICY_DENIED', message, { rule, ...extra });
}

function withinHours(hours: { start: number; end: number }, at: Date): boolean {
  const hour = at.getUTCHours();
  return hours.start <= hours.end ? hour >= hours.start && hour < hours.end : hour >= hours.start || hour < hours.end;
}

/**
 * Evaluates every active policy of the paying wallet (decisions.md section 3), in order: deny rules
 * (POLICY_DENIED with details.rule and, for limits, the remaining headroom), then approval. The
 * frozen check comes before and the funds check after (both in the posting transaction too).
 * Period limits are returned as checks the posting transaction enforces atomically.
 */
export function evaluatePolicies(policies: Policy[], counters: SpendCounter[], intent: PaymentIntent): PolicyDecision {
  const active = policies.filter((p) => p.status === 'ACTIVE');
  // Merchant domains are case-insensitive (decisions.md section 3), lists stored before that rule
  // included; a USDC entry covers the chains recipients.ts says (a blocked address: all of its family).
  const names = [intent.to, ...(intent.toAliases ?? [])];
  const listed = (list: string[], kind: RecipientList) =>
    list.some((entry) => names.some((name) => recipientEntryMatches(entry, name, kind)));
  for (const policy of active) {
    if (intent.amount.gt(policy.maxTransactionAmount)) {
      deny('maxTransactionAmount', `The amount exceeds the policy "${policy.name}" maximum per transaction.`, {
        policyId: policy.id,
        limit: formatAmount(policy.maxTransactionAmount),
        remaining: formatAmount(policy.maxTransactionAmount),
      });
    }
    if (policy.blockedRecipients && listed(policy.blockedRecipients, 'blocked')) {
      deny('blockedRecipients', `The recipient is blocked by the policy "${policy.name}".`, { policyId: policy.id });
    }
    if (
      policy.allowedRecipients &&
      policy.allowedRecipients.length > 0 &&
      !listed(policy.allowedRecipients, 'allowed')
    ) {
      deny('allowedRecipients', `The recipient is not on the allow list of the policy "${policy.name}".`, {
        policyId: policy.id,
      });
    }
    if (policy.allowedHoursUtc && !withinHours(policy.allowedHoursUtc, intent.at)) {
      deny(
        'allowedHoursUtc',
        `Payments are allowed only between ${policy.allowedHoursUtc.start}:00 and ${policy.allowedHoursUtc.end}:00 UTC.`,
        {
          policyId: policy.id,
          allowedHoursUtc: policy.allowedHoursUtc,
        },
      );
    }
  }

  const periodLimits = periodLimitChecks(active, intent);
  for (const check of periodLimits) {
    const spent =
      counters.find((c) => c.period === check.period && c.periodKey === check.periodKey)?.spent ?? new Big(0);
    if (spent.plus(check.amount).gt(check.limit)) throw periodLimitDenied(check, spent);
  }

  const approval = active.find(
    (p) => p.requireHumanApproval || (p.approvalThreshold !== undefined && intent.amount.gt(p.approvalThreshold)),
  );
  if (approval) {
    const reason = approval.requireHumanApproval ? 'requireHumanApproval' : 'approvalThreshold';
    return { kind: 'APPROVAL', periodLimits, reason };
  }
  return { kind: 'ALLOW', periodLimits };
}

/** The tightest limit per period across all active policies. */
export function periodLimitChecks(policies: Policy[], intent: PaymentIntent): PeriodLimitCheck[] {
  const checks: PeriodLimitCheck[] = [];
  for (const period of ['DAY', 'WEEK', 'MONTH'] as const) {
    const limits = policies.map((p) => p[PERIOD_RULE[period]]).filter((l): l is Big => l !== undefined);
    if (limits.length === 0) continue;
    const limit = limits.reduce((min, l) => (l.lt(min) ? l : min));
    checks.push({
      walletId: intent.walletId,
      period,
      periodKey: periodKeyOf(period, intent.at),
      limit,
      amount: intent.amount,
      expiresAtEpochS: periodEndEpochS(period, intent.at) + COUNTER_RETENTION_S,
    });
  }
  return checks;
}

/**
 * The one refusal of a period limit (POLICY_DENIED with the rule, the limit, the spend and the
 * headroom): the evaluation's and the commit's (shared/persistence/writers/posting-writers.ts,
 * when a concurrent payment took the headroom between the read and the write).
 */
export function periodLimitDenied(check: Pick<PeriodLimitCheck, 'period' | 'limit'>, spent: Big): ApiError {
  const remaining = check.limit.minus(spent);
  const rule = PERIOD_RULE[check.period];
  return new ApiError('POLICY_DENIED', `The payment would exceed the ${rule} of ${formatAmount(check.limit)}.`, {
    rule,
    limit: formatAmount(check.limit),
    spent: formatAmount(spent),
    remaining: formatAmount(remaining.lt(0) ? new Big(0) : remaining),
  });
}
