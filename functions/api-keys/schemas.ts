import { z } from 'zod';
import { ENVIRONMENTS, ORGANIZATION_PERMISSIONS } from '../../shared/domain/tenancy.js';
import { nonEmptyName } from '../../shared/http/schemas.js';

export const createApiKeyBody = z.strictObject({
  name: nonEmptyName,
  permissions: z.array(z.enum(ORGANIZATION_PERMISSIONS)).min(1, 'must name at least one permission'),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  environment: z.enum(ENVIRONMENTS).optional(),
});
