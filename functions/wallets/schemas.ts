import { z } from 'zod';
import { amountInput, nonEmptyName } from '../../shared/http/schemas.js';

export const createWalletBody = z.strictObject({
  name: nonEmptyName,
  agentName: nonEmptyName.optional(),
});

export const fundWalletBody = z.strictObject({
  amount: amountInput,
});
