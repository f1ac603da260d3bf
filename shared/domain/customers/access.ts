import { scopeOf } from '../access.js';
import { ApiError, notFound } from '../errors.js';
import type { RequestContext } from '../tenancy.js';
import type { Customer } from './types.js';

/**
 * A customer the caller may see (decisions.md section 1): another organization's answers as absent,
 * and so does, for a wallet-scoped (agent) key, a customer of another wallet or of the organization;
 * the caller's own customer in the other environment answers ENVIRONMENT_MISMATCH.
 */
export function accessibleCustomer(ctx: RequestContext, customer: Customer | undefined, customerId: string): Customer {
  const scope = scopeOf(ctx.principal);
  if (!customer || customer.organizationId !== scope.organizationId) throw notFound('CUSTOMER_NOT_FOUND', customerId);
  if (ctx.principal.walletId !== null && customer.walletId !== ctx.principal.walletId)
    throw notFound('CUSTOMER_NOT_FOUND', customerId);
  if (customer.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
  return customer;
}
