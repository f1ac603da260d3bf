import * as z from 'zod/mini';
import { amount, describe, name, walletId } from './fields.js';

/** Spend policy request fields, shared by the policies and agents operations (decisions.md section 3). */
const hour = (max: number, description: string) => describe(z.int().check(z.minimum(0), z.maximum(max)), description);
const recipients = (description: string) =>
  describe(
    z.optional(z.nullable(z.array(z.string().check(z.minLength(1), z.maxLength(300))).check(z.maxLength(500)))),
    `${description} Wallet ids or \`merchant:<domain>\`; at most 500. null removes the rule.`,
  );
const optionalAmount = (description: string) => describe(z.optional(z.nullable(amount(description))), `${description} null removes the rule.`);

const optionalRules = {
  dailyLimit: optionalAmount('Most the wallet may spend per calendar day (UTC).'),
  weeklyLimit: optionalAmount('Most the wallet may spend per calendar week (Monday to Sunday, UTC).'),
  monthlyLimit: optionalAmount('Most the wallet may spend per calendar month (UTC).'),
  allowedRecipients: recipients('If set, payments may go only to these recipients.'),
  blockedRecipients: recipients('Payments to these recipients are denied.'),
  allowedHoursUtc: describe(
    z.optional(
      z.nullable(
        z.strictObject({ start: hour(23, 'First hour (0-23, UTC) in which payments are allowed.'), end: hour(24, 'Hour (1-24, UTC) at which the allowed window ends.') })
          .check(z.refine((h) => h.start !== h.end, { message: 'start and end must differ' })),
      ),
    ),
    'Hours of the day (UTC) in which payments are allowed; a window may wrap past midnight. null removes the rule.',
  ),
  approvalThreshold: optionalAmount('Payments above this amount need human approval.'),
};

const policyName = () => name('Name of the policy (1-200 characters).');
const maxTransactionAmount = () => amount('Largest single payment allowed; "0" denies every payment.');
const requireHumanApproval = () => describe(z.boolean(), 'Whether every payment needs human approval.');

/** A complete policy without its wallet (agent creation supplies the wallet). */
export const policyRulesBody = z.strictObject({
  name: policyName(),
  maxTransactionAmount: maxTransactionAmount(),
  requireHumanApproval: requireHumanApproval(),
  ...optionalRules,
});

export const createPolicyBody = z.strictObject({
  walletId: walletId('The wallet the policy governs.'),
  name: policyName(),
  maxTransactionAmount: maxTransactionAmount(),
  requireHumanApproval: requireHumanApproval(),
  ...optionalRules,
});

export const updatePolicyBody = z.strictObject({
  name: z.optional(policyName()),
  maxTransactionAmount: z.optional(maxTransactionAmount()),
  requireHumanApproval: z.optional(requireHumanApproval()),
  ...optionalRules,
});
