import { z } from 'zod';

export const acceptTosBody = z.strictObject({
  tosVersion: z.string().trim().min(1, 'must not be empty').max(50),
});

export const kybBody = z.strictObject({
  legalName: z.string().trim().min(1).max(200),
  taxId: z.string().trim().min(1).max(50),
  address: z.strictObject({
    line1: z.string().min(1),
    line2: z.string().optional(),
    city: z.string().min(1),
    state: z.string().optional(),
    postalCode: z.string().min(1),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'),
  }),
});

export const billingMethodBody = z.strictObject({
  type: z.literal('card'),
  number: z.string().regex(/^\d{12,19}$/, 'must be 12 to 19 digits'),
});
