import type Big from 'big.js';
import { scopeOf } from '../access.js';
import { AUDIT, type AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import type { Clock } from '../clock.js';
import { ApiError, validationError } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { parseAmount } from '../money.js';
import type { Sealer } from '../sealing.js';
import { canTransition } from '../state-table.js';
import type { OrganizationScope, RequestContext } from '../tenancy.js';
import type { Page, PageRequest } from '../types.js';
import { accessibleBankAccount } from './access.js';
import { BANK_ACCOUNT_STATES } from './bank-account-states.js';
import {
  isValidAccountNumber,
  isValidRoutingNumber,
  last4Of,
  MAX_VERIFICATION_ATTEMPTS,
  microDepositsFor,
  microDepositsMatch,
} from './bank-account-rules.js';
import type { BankAccountStore } from './ports.js';
import { sealingContexts, type BankAccount, type BankAccountType } from './types.js';

export interface BankAccountInput {
  routingNumber: string;
  accountNumber: string;
  accountName: string;
  accountType: BankAccountType;
}

export interface BankAccountServiceDeps {
  store: BankAccountStore;
  clock: Clock;
  ids: IdGenerator;
  /** Seals the account number and the expected micro-deposits (KMS in AWS, the local key locally). */
  sealer: Sealer;
  /** 1..99, uniformly: production micro-deposit cents (what a banking provider would draw). */
  randomCents: () => number;
}

/**
 * Rounds of one answer: each answer (right or wrong) commits only on the count of wrong answers it
 * read, so a round is lost only to another answer committed meanwhile; at most three can be (two
 * counted, then the third or the right one decides the account), and the next read sees it decided.
 */
const MAX_COUNTING_ROUNDS = MAX_VERIFICATION_ATTEMPTS + 2;
const RESOURCE = 'bank-account';

/**
 * Bank accounts (decisions.md section 4). The account number is sealed before anything is written
 * and never leaves this service in clear: not in the record, the audit metadata, an error or a log.
 */
export function createBankAccountService(deps: BankAccountServiceDeps) {
  const { store, clock, ids, sealer } = deps;

  const load = async (scope: OrganizationScope, id: string) =>
    accessibleBankAccount(scope, await store.getBankAccount(scope, id), id);

  async function expectedDeposits(account: BankAccount): Promise<string[]> {
    if (!account.microDepositsSealed) throw new Error(`bank account ${account.id} has no micro-deposits to compare`);
    const opened: unknown = JSON.parse(
      await sealer.open(account.microDepositsSealed, sealingContexts.microDeposits(account.id)),
    );
    if (!Array.isArray(opened) || !opened.every((amount) => typeof amount === 'string'))
      throw new Error(`bank account ${account.id} has malformed micro-deposits`);
    return opened;
  }

  const invalidState = (account: BankAccount) =>
    new ApiError(
      'INVALID_STATE',
      `The bank account is ${account.status}; only a PENDING_VERIFICATION account can be verified.`,
      { status: account.status },
    );

  return {
    async create(ctx: RequestContext, action: AuditAction, input: BankAccountInput): Promise<BankAccount> {
      const scope = scopeOf(ctx.principal);
      // The schema checks both already; the rules are the domain's, so they hold on any edge.
      if (!isValidRoutingNumber(input.routingNumber))
        throw validationError('routingNumber', 'must be 9 digits with a valid ABA checksum');
      if (!isValidAccountNumber(input.accountNumber)) throw validationError('accountNumber', 'must be 4 to 17 digits');
      const id = ids('bankAccount');
      const at = clock.now().toISOString();
      const deposits = microDepositsFor(scope.environment, deps.randomCents);
      const account: BankAccount = {
        id,
        ...scope,
        accountName: input.accountName,
        accountType: input.accountType,
        routingNumber: input.routingNumber,
        last4: last4Of(input.accountNumber),
        accountNumberSealed: await sealer.seal(input.accountNumber, sealingContexts.accountNumber(id)),
        microDepositsSealed: await sealer.seal(JSON.stringify(deposits), sealingContexts.microDeposits(id)),
        status: 'PENDING_VERIFICATION',
        failedVerificationAttempts: 0,
        createdAt: at,
        verifiedAt: null,
        deletedAt: null,
      };
      await store.commit([
        { type: 'putBankAccount', bankAccount: account },
        auditChange(
          {
            ...scope,
            actor: ctx.actor,
            action,
            resource: RESOURCE,
            resourceId: id,
            metadata: { accountType: account.accountType, routingNumber: account.routingNumber, last4: account.last4 },
            createdAt: at,
          },
          ids,
        ),
      ]);
      return account;
    },

    list(ctx: RequestContext, page: PageRequest): Promise<Page<BankAccount>> {
      return store.listBankAccounts(scopeOf(ctx.principal), page);
    },

    get: (ctx: RequestContext, id: string) => load(scopeOf(ctx.principal), id),

    /**
     * Compares the answered micro-deposits (any order, as money). Right: VERIFIED. Wrong: counted
     * (BANK_ACCOUNT_VERIFICATION_FAILED with attemptsRemaining), and the third wrong answer fails
     * the account. Amounts are parsed before the account is looked up (validation comes first).
     * `action` (the operation's) audits a success; a refused answer is audited as
     * `bank-account.verification-failed`, a consequence named here (docs/architecture.md).
     */
    async verify(
      ctx: RequestContext,
      action: AuditAction,
      id: string,
      amounts: readonly unknown[],
    ): Promise<BankAccount> {
      const scope = scopeOf(ctx.principal);
      const answered: Big[] = amounts.map((amount, i) => parseAmount(amount, { field: `amounts.${i}` }));
      for (let round = 0; round < MAX_COUNTING_ROUNDS; round += 1) {
        const account = await load(scope, id);
        if (!canTransition(BANK_ACCOUNT_STATES, account.status, 'verify')) throw invalidState(account);
        const at = clock.now().toISOString();
        if (microDepositsMatch(await expectedDeposits(account), answered)) {
          try {
            await store.commit([
              {
                type: 'verifyBankAccount',
                bankAccountId: id,
                failedAttempts: account.failedVerificationAttempts,
                verifiedAt: at,
              },
              auditChange(
                {
                  ...scope,
                  actor: ctx.actor,
                  action,
                  resource: RESOURCE,
                  resourceId: id,
                  metadata: { status: 'VERIFIED' },
                  createdAt: at,
                },
                ids,
              ),
            ]);
          } catch (error) {
            // A wrong answer was counted since this one read the account: decided again on the new count (the third fails the account).
            if (error instanceof ApiError && error.code === 'CONCURRENT_UPDATE') continue;
            throw error;
          }
          return { ...account, status: 'VERIFIED', verifiedAt: at, microDepositsSealed: null };
        }
        const failedAttempts = account.failedVerificationAttempts + 1;
        const fail = failedAttempts >= MAX_VERIFICATION_ATTEMPTS;
        const status = fail ? 'VERIFICATION_FAILED' : account.status;
        const attemptsRemaining = Math.max(0, MAX_VERIFICATION_ATTEMPTS - failedAttempts);
        try {
          await store.commit([
            {
              type: 'countFailedBankAccountVerification',
              bankAccountId: id,
              failedAttempts: account.failedVerificationAttempts,
              fail,
              at,
            },
            auditChange(
              {
                ...scope,
                actor: ctx.actor,
                action: AUDIT.bankAccount.verificationFailed,
                resource: RESOURCE,
                resourceId: id,
                metadata: { attempt: failedAttempts, attemptsRemaining, status },
                createdAt: at,
              },
              ids,
            ),
          ]);
        } catch (error) {
          // Another answer was counted since this one read the account: read again, count this one after it.
          if (error instanceof ApiError && error.code === 'CONCURRENT_UPDATE') continue;
          throw error;
        }
        throw new ApiError(
          'BANK_ACCOUNT_VERIFICATION_FAILED',
          fail
            ? 'The micro-deposit amounts are wrong; that was the last attempt: the bank account is VERIFICATION_FAILED.'
            : `The micro-deposit amounts are wrong; ${attemptsRemaining} attempt(s) remaining.`,
          { attemptsRemaining, status },
        );
      }
      throw new ApiError(
        'CONCURRENT_UPDATE',
        'Too many concurrent verification attempts on this bank account; retry.',
        { retryAfter: 1 },
      );
    },

    async remove(ctx: RequestContext, action: AuditAction, id: string): Promise<BankAccount> {
      const scope = scopeOf(ctx.principal);
      const account = await load(scope, id);
      const at = clock.now().toISOString();
      await store.commit([
        { type: 'deleteBankAccount', bankAccountId: id, deletedAt: at },
        auditChange(
          {
            ...scope,
            actor: ctx.actor,
            action,
            resource: RESOURCE,
            resourceId: id,
            metadata: { last4: account.last4, status: account.status },
            createdAt: at,
          },
          ids,
        ),
      ]);
      return { ...account, status: 'DELETED', deletedAt: at, accountNumberSealed: '', microDepositsSealed: null };
    },
  };
}

export type BankAccountService = ReturnType<typeof createBankAccountService>;
