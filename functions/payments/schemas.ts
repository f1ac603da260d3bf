import { walletIdField } from '../../shared/http/schemas.js';
import { z } from 'zod';
import { MAX_BATCH_SIZE } from '../../shared/domain/payments/payment-service.js';
import { amountInput } from '../../shared/http/schemas.js';

const walletRef = z.string().trim().min(1, 'must not be empty').max(300);
const idempotencyKey = z.string().max(255).optional();

export const paymentFields = {
  from: walletRef,
  to: walletRef,
  amount: amountInput,
  description: z.string().max(1024, 'must be at most 1,024 characters').optional(),
  idempotencyKey,
};

export const createPaymentBody = z.strictObject(paymentFields);

export const batchBody = z.strictObject({
  payments: z.array(z.strictObject(paymentFields)).min(1, 'must hold at least one payment').max(MAX_BATCH_SIZE, `must hold at most ${MAX_BATCH_SIZE} payments`),
  idempotencyKey,
});

export const reverseBody = z.strictObject({ idempotencyKey });

export const listPaymentsQuery = z.strictObject({
  walletId: walletIdField.optional(),
  status: z.enum(['POSTED', 'QUEUED', 'REJECTED', 'FAILED', 'REVERSED']).optional(),
  limit: z.string().optional(),
  cursor: z.string().optional(),
});

export const merchantProfileBody = z.strictObject({
  domain: z.string().trim().toLowerCase().regex(/^(?=.{3,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/, 'must be a domain name such as shop.example.com'),
  displayName: z.string().trim().min(1).max(200),
  walletId: walletIdField,
  closedLoop: z.boolean(),
});
