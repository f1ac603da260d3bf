import type Big from 'big.js';
import * as z from 'zod/mini';
import { formatAmount } from '../money.js';
import {
  type Conforms,
  describe,
  flag,
  id,
  integer,
  lazy,
  money,
  nullableMoney,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';
import type { PolicyService } from './policy-service.js';
import type { AllowedHours, Policy } from './policy-types.js';

const recipients = (description: string) => describe(z.nullable(z.array(z.string())), description);

export const policyView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('policy', 'Policy id.'),
      object: objectTag('policy'),
      walletId: id('wallet', 'The wallet whose outgoing payments the policy governs.'),
      name: text('Display name of the policy.'),
      maxTransactionAmount: money(
        'Largest amount a single payment may have; "0.00" denies every payment (read-only wallet).',
      ),
      requireHumanApproval: flag(
        'Whether every payment from the wallet waits for human approval (answered 202 APPROVAL_REQUIRED).',
      ),
      dailyLimit: nullableMoney('Most the wallet may pay per UTC calendar day, or null for no daily limit.'),
      weeklyLimit: nullableMoney('Most the wallet may pay per ISO week (UTC), or null for no weekly limit.'),
      monthlyLimit: nullableMoney('Most the wallet may pay per UTC calendar month, or null for no monthly limit.'),
      approvalThreshold: nullableMoney('Payments above this amount wait for human approval, or null for no threshold.'),
      allowedRecipients: recipients(
        'If set, the only payees allowed: wallet ids or `merchant:<domain>` entries; null allows any payee.',
      ),
      blockedRecipients: recipients(
        'Payees that are refused: wallet ids or `merchant:<domain>` entries; null blocks none.',
      ),
      allowedHoursUtc: describe(
        z.nullable(
          z.object({
            start: integer('First allowed hour, 0..23 (UTC, inclusive).'),
            end: integer('End hour, 0..24 (UTC, exclusive), different from start; start > end wraps around midnight.'),
          }),
        ),
        'Hours of the day (UTC) in which payments are allowed, or null for any time.',
      ),
      createdAt: timestamp('When the policy was created.'),
      updatedAt: timestamp('When the policy was last changed.'),
    },
    'A spend policy of a wallet. Every active policy of the wallet applies to each payment from it: deny rules first (POLICY_DENIED), then approval rules (APPROVAL_REQUIRED).',
    {
      id: 'pol_yuz6d9LmU9onFzpanwoj9ory',
      object: 'policy',
      walletId: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      name: 'Research agent limits',
      maxTransactionAmount: '50.00',
      requireHumanApproval: false,
      dailyLimit: '500.00',
      weeklyLimit: null,
      monthlyLimit: '5000.00',
      approvalThreshold: '25.00',
      allowedRecipients: null,
      blockedRecipients: ['merchant:casino.example'],
      allowedHoursUtc: { start: 8, end: 20 },
      createdAt: '2026-03-14T09:35:00.000Z',
      updatedAt: '2026-03-14T09:35:00.000Z',
    },
  ),
);
export type PolicyView = z.infer<typeof policyView>;

export function presentPolicy(policy: Policy): PolicyView {
  const money = (value: Big | undefined) => (value === undefined ? null : formatAmount(value));
  return {
    id: policy.id,
    object: 'policy',
    walletId: policy.walletId,
    name: policy.name,
    maxTransactionAmount: formatAmount(policy.maxTransactionAmount),
    requireHumanApproval: policy.requireHumanApproval,
    dailyLimit: money(policy.dailyLimit),
    weeklyLimit: money(policy.weeklyLimit),
    monthlyLimit: money(policy.monthlyLimit),
    approvalThreshold: money(policy.approvalThreshold),
    allowedRecipients: policy.allowedRecipients ?? null,
    blockedRecipients: policy.blockedRecipients ?? null,
    allowedHoursUtc: policy.allowedHoursUtc ?? null,
    createdAt: policy.createdAt,
    updatedAt: policy.updatedAt,
  };
}

export const policyPageView = /* @__PURE__ */ lazy(() =>
  pageOf(
    policyView,
    "A page of the active policies the key can see (an agent key sees only its own wallet's policies).",
  ),
);

export const policyDeletedView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('policy', 'The deleted policy.'),
      deleted: describe(z.literal(true), 'Always true.'),
    },
    'The answer of a policy deletion: the policy stops applying at once (it stays stored for the audit trail and then reads as POLICY_NOT_FOUND).',
    { id: 'pol_yuz6d9LmU9onFzpanwoj9ory', deleted: true },
  ),
);
export type PolicyDeletedView = z.infer<typeof policyDeletedView>;

/** Type-only: what the policy service answers as is must fit its view (a drift fails to compile). */
export type PolicyAnswersConform = [
  Conforms<Awaited<ReturnType<PolicyService['remove']>>, PolicyDeletedView>,
  Conforms<AllowedHours, NonNullable<PolicyView['allowedHoursUtc']>>,
];
