import type { BankAccountReader, BankAccountStore } from '../domain/bank-accounts/ports.js';
import type { BankAccount } from '../domain/bank-accounts/types.js';
import type { OrganizationScope } from '../domain/tenancy.js';
import { createCommitter } from './change-writer.js';
import { bankAccountCodec, bankAccountKeys } from './entities/bank-account.js';
import { createQueries } from './queries.js';
import { GSI } from './table-schema.js';
import { getItem, type TableContext } from './table-context.js';
import { auditWriters } from './writers/audit-writers.js';
import { bankAccountWriters } from './writers/bank-account-writers.js';

/**
 * One consistent read of a bank account for `scope`'s organization (BankAccountReader's contract):
 * undefined when absent, deleted or another organization's; the other environment's is returned
 * for the caller to answer ENVIRONMENT_MISMATCH (accessibleBankAccount). Transfers read with it too.
 */
export async function readBankAccount(
  table: TableContext,
  scope: OrganizationScope,
  bankAccountId: string,
): Promise<BankAccount | undefined> {
  const item = await getItem(table, bankAccountKeys.primary(bankAccountId));
  if (!item) return undefined;
  const account = bankAccountCodec.fromItem(item);
  return account.status === 'DELETED' || account.organizationId !== scope.organizationId ? undefined : account;
}

export function createBankAccountReader(table: TableContext): BankAccountReader {
  return { getBankAccount: (scope, bankAccountId) => readBankAccount(table, scope, bankAccountId) };
}

export function createBankAccountStore(table: TableContext): BankAccountStore {
  const { queryIndex } = createQueries(table.client, table.tableName);
  return {
    ...createBankAccountReader(table),
    ...createCommitter(table, { ...bankAccountWriters, ...auditWriters }),
    listBankAccounts(scope, page) {
      return queryIndex(
        GSI.GSI1,
        bankAccountKeys.ofOrganization(scope.organizationId, scope.environment).GSI1PK,
        page,
        bankAccountCodec.fromItem,
      );
    },
  };
}
