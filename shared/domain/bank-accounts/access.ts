import { ApiError, notFound } from '../errors.js';
import type { OrganizationScope } from '../tenancy.js';
import type { BankAccount } from './types.js';

/**
 * A bank account the scope may use (decisions.md section 1): absent, deleted or another
 * organization's answers BANK_ACCOUNT_NOT_FOUND; the organization's own account in the other
 * environment answers ENVIRONMENT_MISMATCH. `field` names the request field that carried the id.
 */
export function accessibleBankAccount(scope: OrganizationScope, account: BankAccount | undefined, field?: string, id: string | undefined = account?.id): BankAccount {
  const details = field ? { field } : undefined;
  if (!account || account.status === 'DELETED' || account.organizationId !== scope.organizationId) throw notFound('BANK_ACCOUNT_NOT_FOUND', id, details);
  if (account.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH', 'The bank account belongs to the other environment.', details);
  return account;
}
