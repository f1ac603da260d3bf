import { z } from 'zod';

export { createPolicyBody, updatePolicyBody } from '../../shared/http/policy-schemas.js';

export const listPoliciesQuery = z.strictObject({
  walletId: z.string().optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});
