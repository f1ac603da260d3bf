import { ApiError, notFound } from '../errors.js';
import type { OrganizationScope } from '../tenancy.js';
import type { BankAccount } from './types.js';

/**
 * A bank account the scope may use (decisions.md section 1): absent, deleted or another
 * organization's answers BANK_ACCOUNT_NOT_FOUND; the organization's own account in the other
 * environment answers ENVIRONMENT_MISMATCH. `id` is the id the request asked for (never one read from
 * the stored account: the message must not tell another organization's id from one that exists nowhere);
 * `field` names the request field that carried it.
 */
export function accessibleBankAccount(
  scope: OrganizationScope,
  account: BankAccount | undefined,
  id: string,
  field?: string,
): BankAccount {
  const details = field ? { field } : undefined;
  if (!account || account.status === 'DELETED' || account.organizationId !== scope.organizationId)
    throw notFound('BANK_ACCOUNT_NOT_FOUND', id, details);
  if (account.environment !== scope.environment)
    throw new ApiError('ENVIRONMENT_MISMATCH', 'The bank account belongs to the other environment.', details);
  return account;
}
