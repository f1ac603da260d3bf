import { z } from 'zod';
import { TEMPLATE_IDS } from '../../shared/domain/agents/agent-templates.js';
import { amountInput, nonEmptyName } from '../../shared/http/schemas.js';
import { policyRulesBody } from '../../shared/http/policy-schemas.js';

export const createAgentBody = z.strictObject({
  name: nonEmptyName,
  permissions: z.array(z.string()).min(1, 'must name at least one permission').optional(),
  policies: z.array(policyRulesBody).max(10, 'at most 10 policies').optional(),
});

export const fromTemplateBody = z.strictObject({
  name: nonEmptyName,
  templateId: z.enum(TEMPLATE_IDS, { error: `must be one of ${TEMPLATE_IDS.join(', ')}` }),
});

export const adjustBudgetBody = z.strictObject({
  amount: amountInput,
  idempotencyKey: z.string().max(255).optional(),
});

export const listAgentsQuery = z.strictObject({
  includeDeleted: z.enum(['true', 'false']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});
