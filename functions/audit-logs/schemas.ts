import { z } from 'zod';

export const listAuditLogsQuery = z.strictObject({
  action: z.string().min(1).max(100).optional(),
  resource: z.string().min(1).max(300).optional(),
  actorId: z.string().min(1).max(300).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});
