import { BANK_ACCOUNT_STATES } from '../../shared/domain/bank-accounts/bank-account-states.js';
import type { BankAccountChange, BankAccountStore } from '../../shared/domain/bank-accounts/ports.js';
import type { BankAccount } from '../../shared/domain/bank-accounts/types.js';
import type { AuditChange } from '../../shared/domain/audit/ports.js';
import { ApiError } from '../../shared/domain/errors.js';
import { fromStatesOf, targetOf } from '../../shared/domain/state-table.js';
import type { AuditEntry } from '../../shared/domain/types.js';

/**
 * An in-memory BankAccountStore with the writers' conditions (state table from-states, the count
 * read), all changes of a commit applied or none. `beforeCommit` lets a test interleave another
 * request between a service's read and its write.
 */
export function memoryBankAccountStore() {
  const accounts = new Map<string, BankAccount>();
  const audit: AuditEntry[] = [];
  let beforeCommit: (() => void | Promise<void>) | undefined;

  const gone = (account: BankAccount | undefined): account is undefined => !account || account.status === 'DELETED';
  const refusal = (account: BankAccount | undefined) =>
    gone(account)
      ? new ApiError('BANK_ACCOUNT_NOT_FOUND')
      : new ApiError('INVALID_STATE', undefined, { status: account.status });

  function apply(next: Map<string, BankAccount>, change: BankAccountChange) {
    const account = 'bankAccountId' in change ? next.get(change.bankAccountId) : undefined;
    switch (change.type) {
      case 'putBankAccount':
        if (next.has(change.bankAccount.id)) throw new Error('id collision');
        next.set(change.bankAccount.id, structuredClone(change.bankAccount));
        return;
      case 'verifyBankAccount':
        if (gone(account) || !fromStatesOf(BANK_ACCOUNT_STATES, 'verify').includes(account.status as never))
          throw refusal(account);
        if (account.failedVerificationAttempts !== change.failedAttempts) throw new ApiError('CONCURRENT_UPDATE');
        next.set(account.id, {
          ...account,
          status: targetOf(BANK_ACCOUNT_STATES, 'verify'),
          verifiedAt: change.verifiedAt,
          microDepositsSealed: null,
        });
        return;
      case 'countFailedBankAccountVerification':
        if (gone(account) || !fromStatesOf(BANK_ACCOUNT_STATES, 'verify').includes(account.status as never))
          throw refusal(account);
        if (account.failedVerificationAttempts !== change.failedAttempts) throw new ApiError('CONCURRENT_UPDATE');
        next.set(account.id, {
          ...account,
          failedVerificationAttempts: change.failedAttempts + 1,
          ...(change.fail
            ? { status: targetOf(BANK_ACCOUNT_STATES, 'failVerification'), microDepositsSealed: null }
            : {}),
        });
        return;
      case 'deleteBankAccount':
        if (gone(account)) throw new ApiError('BANK_ACCOUNT_NOT_FOUND');
        next.set(account.id, {
          ...account,
          status: 'DELETED',
          deletedAt: change.deletedAt,
          accountNumberSealed: '',
          microDepositsSealed: null,
        });
        return;
    }
  }

  const store: BankAccountStore = {
    async getBankAccount(scope, id) {
      const account = accounts.get(id);
      return gone(account) || account.organizationId !== scope.organizationId ? undefined : structuredClone(account);
    },
    async listBankAccounts(scope, page) {
      const items = [...accounts.values()]
        .filter(
          (a) =>
            a.status !== 'DELETED' && a.organizationId === scope.organizationId && a.environment === scope.environment,
        )
        .sort((a, b) =>
          a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt),
        );
      return { items: items.slice(0, page.limit) };
    },
    commit: async (changes: (BankAccountChange | AuditChange)[]) => {
      const hook = beforeCommit;
      beforeCommit = undefined;
      await hook?.();
      const next = new Map(accounts);
      const entries: AuditEntry[] = [];
      for (const change of changes) {
        if (change.type === 'audit') entries.push(change.entry);
        else if (change.type === 'event') continue;
        else apply(next, change);
      }
      accounts.clear();
      for (const [id, account] of next) accounts.set(id, account);
      audit.push(...entries);
    },
  };
  return { store, accounts, audit, interleave: (fn: () => void | Promise<void>) => (beforeCommit = fn) };
}
