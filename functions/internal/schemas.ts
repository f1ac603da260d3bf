import { z } from 'zod';
import { nonEmptyName } from '../../shared/http/schemas.js';

export const createOrganizationBody = z.strictObject({ name: nonEmptyName });

export const kybDecisionBody = z.strictObject({ status: z.enum(['VERIFIED', 'REJECTED']) });
