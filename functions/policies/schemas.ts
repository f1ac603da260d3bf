import { walletIdField } from '../../shared/http/schemas.js';
import { z } from 'zod';

export { createPolicyBody, updatePolicyBody } from '../../shared/http/policy-schemas.js';

export const listPoliciesQuery = z.strictObject({
  walletId: walletIdField.optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});
