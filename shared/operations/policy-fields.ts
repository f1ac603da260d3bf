import * as z from 'zod/mini';
import { amount, describe, MAX_RECIPIENT_LENGTH, name, recipient, walletId, MAX_NAME_LENGTH } from './fields.js';

/** Spend policy request fields, shared by the policies and agents operations (decisions.md section 3). */
const hour = (max: number, description: string) => describe(z.int().check(z.minimum(0), z.maximum(max)), description);
/**
 * At most 500 entries of at most 262 ASCII characters: both lists of the largest policy stay far
 * below DynamoDB's 400 KB item limit (decisions.md section 9). Merchant domains are lower-cased.
 */
export const MAX_RECIPIENTS = 500;
const recipients = (description: string) =>
  describe(
    z.optional(
      z.nullable(
        z
          .array(
            recipient(
              `A wallet id, \`merchant:<domain>\`, or for withdrawals a linked bank account (\`ba_...\`) or \`usdc:<chain>:<address>\` (\`usdc:<address>\`: the address on any chain of its family) (at most ${MAX_RECIPIENT_LENGTH} characters; domains and EVM addresses are compared case-insensitively, Solana addresses exactly; a blocked EVM address is blocked on every EVM chain, an allowed entry naming a chain allows that chain only).`,
            ),
          )
          .check(z.maxLength(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} recipients`)),
      ),
    ),
    `${description} Wallet ids or \`merchant:<domain>\`; at most ${MAX_RECIPIENTS}. null removes the rule.`,
  );
const optionalAmount = (description: string) =>
  describe(z.optional(z.nullable(amount(description))), `${description} null removes the rule.`);

const optionalRules = () => ({
  dailyLimit: optionalAmount('Most the wallet may spend per calendar day (UTC).'),
  weeklyLimit: optionalAmount('Most the wallet may spend per calendar week (Monday to Sunday, UTC).'),
  monthlyLimit: optionalAmount('Most the wallet may spend per calendar month (UTC).'),
  allowedRecipients: recipients(
    'If set, payments (and withdrawals and internal transfers) may go only to these recipients.',
  ),
  blockedRecipients: recipients('Payments (and withdrawals and internal transfers) to these recipients are denied.'),
  allowedHoursUtc: describe(
    z.optional(
      z.nullable(
        z
          .strictObject({
            start: hour(23, 'First hour (0-23, UTC) in which payments are allowed.'),
            end: hour(24, 'Hour (1-24, UTC) at which the allowed window ends.'),
          })
          .check(z.refine((h) => h.start !== h.end, { message: 'start and end must differ' })),
      ),
    ),
    'Hours of the day (UTC) in which payments are allowed; a window may wrap past midnight. null removes the rule.',
  ),
  approvalThreshold: optionalAmount('Payments above this amount need human approval.'),
});

const policyName = () => name(`Name of the policy (1-${MAX_NAME_LENGTH} characters).`);
const maxTransactionAmount = () => amount('Largest single payment allowed; "0" denies every payment.');
const requireHumanApproval = () => describe(z.boolean(), 'Whether every payment needs human approval.');

/** A complete policy without its wallet (agent creation supplies the wallet). */
export const policyRulesBody = () =>
  z.strictObject({
    name: policyName(),
    maxTransactionAmount: maxTransactionAmount(),
    requireHumanApproval: requireHumanApproval(),
    ...optionalRules(),
  });

export const createPolicyBody = () =>
  z.strictObject({
    walletId: walletId('The wallet the policy governs.'),
    name: policyName(),
    maxTransactionAmount: maxTransactionAmount(),
    requireHumanApproval: requireHumanApproval(),
    ...optionalRules(),
  });

export const updatePolicyBody = () =>
  z.strictObject({
    name: z.optional(policyName()),
    maxTransactionAmount: z.optional(maxTransactionAmount()),
    requireHumanApproval: z.optional(requireHumanApproval()),
    ...optionalRules(),
  });
