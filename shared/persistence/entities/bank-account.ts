import type { BankAccount } from '../../domain/bank-accounts/types.js';
import type { Environment } from '../../domain/tenancy.js';
import { readInt } from '../client.js';
import { recordOf, type Item, type ItemKey } from '../item.js';
import type { IndexUsage } from '../table-schema.js';

export const BANK_ACCOUNT_ENTITY = 'BANK_ACCOUNT';

/** A bank account: its own item (`BANK_ACCOUNT#id`); the account number only sealed. */
export const bankAccountKeys = {
  primary: (bankAccountId: string): ItemKey => ({ PK: `BANK_ACCOUNT#${bankAccountId}`, SK: 'BANK_ACCOUNT' }),
  /** GSI1: the live bank accounts of an organization environment, newest first (removed on delete). */
  ofOrganization: (organizationId: string, environment: Environment) => ({
    GSI1PK: `BANK_ACCOUNTS#${organizationId}#${environment}`,
  }),
  ofOrganizationSort: (account: Pick<BankAccount, 'createdAt' | 'id'>) => ({
    GSI1SK: `${account.createdAt}#${account.id}`,
  }),
};

export const bankAccountCodec = {
  toItem(account: BankAccount): Item {
    return {
      ...bankAccountKeys.primary(account.id),
      entityType: BANK_ACCOUNT_ENTITY,
      ...(account.status === 'DELETED'
        ? {}
        : {
            ...bankAccountKeys.ofOrganization(account.organizationId, account.environment),
            ...bankAccountKeys.ofOrganizationSort(account),
          }),
      ...account,
    };
  },
  fromItem(item: Item): BankAccount {
    const record = recordOf(item) as unknown as BankAccount;
    return {
      ...record,
      accountNumberSealed: typeof item.accountNumberSealed === 'string' ? item.accountNumberSealed : '',
      microDepositsSealed: typeof item.microDepositsSealed === 'string' ? item.microDepositsSealed : null,
      failedVerificationAttempts: readInt(item.failedVerificationAttempts),
      verifiedAt: typeof item.verifiedAt === 'string' ? item.verifiedAt : null,
      deletedAt: typeof item.deletedAt === 'string' ? item.deletedAt : null,
    };
  },
};

/** What each index of BANK_ACCOUNT items serves (one entry of INDEX_USAGE, entities/index-usage.ts). */
export const BANK_ACCOUNT_INDEXES = {
  BANK_ACCOUNT: { GSI1: 'bank accounts of an organization environment (removed on delete)' },
} as const satisfies IndexUsage;
