import { walletIdField } from '../../shared/http/schemas.js';
import { z } from 'zod';

export const approveBody = z.strictObject({ note: z.string().max(1024).optional() });
export const rejectBody = z.strictObject({ reason: z.string().max(1024).optional() });

export const listApprovalsQuery = z.strictObject({
  status: z.enum(['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'FAILED']).optional(),
  walletId: walletIdField.optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});
