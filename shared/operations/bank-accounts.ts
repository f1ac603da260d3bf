import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { BankAccountService } from '../domain/bank-accounts/bank-account-service.js';
import {
  ACCOUNT_NUMBER_MAX_DIGITS,
  ACCOUNT_NUMBER_MIN_DIGITS,
  isValidAccountNumber,
  isValidRoutingNumber,
  ROUTING_NUMBER_DIGITS,
} from '../domain/bank-accounts/bank-account-rules.js';
import { presentBankAccount } from '../domain/bank-accounts/bank-account-view.js';
import { BANK_ACCOUNT_TYPES } from '../domain/bank-accounts/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import { amount, describe, name } from './fields.js';
import { listOperation } from './list.js';

export interface BankAccountsServices {
  bankAccounts: BankAccountService;
}

const op = operation<BankAccountsServices>();
const list = listOperation<BankAccountsServices>();
const bankAccountParam = { id: 'The bank account id (`ba_...`).' };
/** Longer than any valid number, so that only garbage is refused by length (before the digit rules). */
const MAX_NUMBER_TEXT = 32;

/**
 * Digits only, checked by the domain's rule (the message never repeats the value: an account
 * number must not come back in an error).
 */
const digits = (check: (value: string) => boolean, message: string, description: string) =>
  describe(z.string().check(z.maxLength(MAX_NUMBER_TEXT, message), z.refine(check, message)), description);

/**
 * Bank accounts (decisions.md section 4, docs/api.md "Bank accounts"). Reading needs
 * `payments:read`; linking, verifying and deleting need `payments:write` from an organization
 * key: an agent key can neither link an account money could be withdrawn to nor remove one.
 * Nothing here moves money, so no idempotency key: a repeated create links a second account.
 */
export const BANK_ACCOUNTS = defineGroup<BankAccountsServices>()(
  'bank-accounts',
  {
    // Account numbers are sealed and opened.
    grants: ['dataKey:seal'],
  },
  [
    op({
      name: 'createBankAccount',
      summary: 'Link a bank account',
      description:
        'Links a US bank account for deposits and withdrawals. The account starts PENDING_VERIFICATION: two micro-deposits are sent to it (in the sandbox always 0.32 and 0.45) and the account is verified by confirming them with POST /v1/bank-accounts/{id}/verify. The account number is stored encrypted and shown as last4 only.',
      access: 'organization',
      permission: 'payments:write',
      audit: AUDIT.bankAccount.create,
      http: { method: 'POST', path: '/v1/bank-accounts', status: 201 },
      mcp: { tool: 'create_bank_account', hints: HINTS.create },
      body: () =>
        z.strictObject({
          routingNumber: digits(
            isValidRoutingNumber,
            `must be ${ROUTING_NUMBER_DIGITS} digits with a valid ABA checksum`,
            'The 9-digit ABA routing number of the bank (checked with the ABA checksum).',
          ),
          accountNumber: digits(
            isValidAccountNumber,
            `must be ${ACCOUNT_NUMBER_MIN_DIGITS} to ${ACCOUNT_NUMBER_MAX_DIGITS} digits`,
            `The account number, ${ACCOUNT_NUMBER_MIN_DIGITS} to ${ACCOUNT_NUMBER_MAX_DIGITS} digits. Stored encrypted; only its last 4 digits are ever shown.`,
          ),
          accountName: name("The account holder's name, as the bank knows it."),
          accountType: describe(z.enum(BANK_ACCOUNT_TYPES), 'CHECKING or SAVINGS.'),
        }),
      output: 'bankAccountView',
      errors: [],
      run: ({ services, auth, audit, body }) => services.bankAccounts.create(auth, audit, body),
      present: presentBankAccount,
    }),
    list({
      name: 'listBankAccounts',
      summary: 'List bank accounts',
      description:
        'The linked bank accounts of this organization and environment, newest first (deleted ones are gone).',
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/bank-accounts', status: 200 },
      mcp: { tool: 'list_bank_accounts', hints: HINTS.read },
      filters: () => ({}),
      output: 'bankAccountPageView',
      errors: [],
      list: ({ services, auth }, page) => services.bankAccounts.list(auth, page),
      present: presentBankAccount,
    }),
    op({
      name: 'getBankAccount',
      summary: 'Get a bank account',
      description: 'One linked bank account: its status, routing number and the last 4 digits of its account number.',
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/bank-accounts/{id}', status: 200 },
      params: bankAccountParam,
      mcp: { tool: 'get_bank_account', hints: HINTS.read },
      output: 'bankAccountView',
      errors: ['BANK_ACCOUNT_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, params }) => services.bankAccounts.get(auth, params.id!),
      present: presentBankAccount,
    }),
    op({
      name: 'verifyBankAccount',
      summary: 'Verify a bank account',
      description:
        'Confirms the two micro-deposits sent to a PENDING_VERIFICATION account (in any order; in the sandbox always 0.32 and 0.45). Right: the account is VERIFIED. Wrong: BANK_ACCOUNT_VERIFICATION_FAILED with details.attemptsRemaining; the third wrong answer makes the account VERIFICATION_FAILED for good. A VERIFIED or VERIFICATION_FAILED account answers INVALID_STATE.',
      access: 'organization',
      permission: 'payments:write',
      audit: AUDIT.bankAccount.verify,
      http: { method: 'POST', path: '/v1/bank-accounts/{id}/verify', status: 200 },
      params: bankAccountParam,
      mcp: { tool: 'verify_bank_account', hints: HINTS.update },
      body: () =>
        z.strictObject({
          amounts: describe(
            z
              .array(amount('One micro-deposit amount, such as "0.32".'))
              .check(z.length(2, 'must hold exactly the 2 micro-deposit amounts')),
            'The two micro-deposit amounts, in any order, as decimal strings, e.g. ["0.32", "0.45"].',
          ),
        }),
      output: 'bankAccountView',
      errors: [
        'BANK_ACCOUNT_NOT_FOUND',
        'ENVIRONMENT_MISMATCH',
        'BANK_ACCOUNT_VERIFICATION_FAILED',
        'INVALID_STATE',
        'INVALID_AMOUNT',
        'CONCURRENT_UPDATE',
      ],
      run: ({ services, auth, audit, params, body }) =>
        services.bankAccounts.verify(auth, audit, params.id!, body.amounts),
      present: presentBankAccount,
    }),
    op({
      name: 'deleteBankAccount',
      summary: 'Delete a bank account',
      description:
        'Unlinks a bank account: it can no longer be used for transfers, its encrypted account number is erased, and later reads answer BANK_ACCOUNT_NOT_FOUND. Transfers already made keep their history.',
      access: 'organization',
      permission: 'payments:write',
      audit: AUDIT.bankAccount.delete,
      http: { method: 'DELETE', path: '/v1/bank-accounts/{id}', status: 200 },
      params: bankAccountParam,
      mcp: { tool: 'delete_bank_account', hints: HINTS.destructive },
      output: 'bankAccountView',
      errors: ['BANK_ACCOUNT_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: ({ services, auth, audit, params }) => services.bankAccounts.remove(auth, audit, params.id!),
      present: presentBankAccount,
    }),
  ],
);
