import { z } from 'zod';
import { amountInput, nonEmptyName, walletIdField } from './schemas.js';

/** Spend policy request fields, shared by the policies and agents endpoints. */
const hour = z.number().int().min(0).max(24);
const recipients = z.array(z.string().min(1).max(300)).max(500);

const optionalRules = {
  dailyLimit: amountInput.nullable().optional(),
  weeklyLimit: amountInput.nullable().optional(),
  monthlyLimit: amountInput.nullable().optional(),
  allowedRecipients: recipients.nullable().optional(),
  blockedRecipients: recipients.nullable().optional(),
  allowedHoursUtc: z
    .strictObject({ start: hour.max(23), end: hour })
    .refine((h) => h.start !== h.end, { message: 'start and end must differ' })
    .nullable()
    .optional(),
  approvalThreshold: amountInput.nullable().optional(),
};

/** A complete policy without its wallet (agent creation supplies the wallet). */
export const policyRulesBody = z.strictObject({
  name: nonEmptyName,
  maxTransactionAmount: amountInput,
  requireHumanApproval: z.boolean(),
  ...optionalRules,
});

export const createPolicyBody = z.strictObject({
  walletId: walletIdField,
  name: nonEmptyName,
  maxTransactionAmount: amountInput,
  requireHumanApproval: z.boolean(),
  ...optionalRules,
});

export const updatePolicyBody = z.strictObject({
  name: nonEmptyName.optional(),
  maxTransactionAmount: amountInput.optional(),
  requireHumanApproval: z.boolean().optional(),
  ...optionalRules,
});
