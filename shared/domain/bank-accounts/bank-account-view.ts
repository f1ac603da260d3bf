import type * as z from 'zod/mini';
import {
  enumOf,
  environment,
  id,
  lazy,
  nullableTimestamp,
  objectTag,
  pageOf,
  text,
  timestamp,
  view,
} from '../views.js';
import { BANK_ACCOUNT_STATUSES, BANK_ACCOUNT_TYPES, type BankAccount } from './types.js';

/** A linked bank account: never its account number (last4 only) nor its micro-deposits. */
export const bankAccountView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id(
        'bankAccount',
        'The bank account id; pass it as `bankAccountId` to deposits and withdrawals once VERIFIED.',
      ),
      object: objectTag('bank_account'),
      accountName: text("The account holder's name as given at creation."),
      accountType: enumOf(BANK_ACCOUNT_TYPES, 'CHECKING or SAVINGS.'),
      routingNumber: text('The 9-digit ABA routing number (not secret: it names the bank).'),
      last4: text('The last 4 digits of the account number; the full number is stored encrypted and never returned.'),
      status: enumOf(
        BANK_ACCOUNT_STATUSES,
        'PENDING_VERIFICATION (confirm the two micro-deposits with POST /v1/bank-accounts/{id}/verify), VERIFIED (usable for transfers), VERIFICATION_FAILED (three wrong answers: link the account again) or DELETED (only in the answer of a deletion).',
      ),
      environment: environment(),
      createdAt: timestamp('When it was linked.'),
      verifiedAt: nullableTimestamp('When it was verified, or null.'),
    },
    'A bank account linked for deposits and withdrawals (the account number is shown as last4 only).',
    {
      id: 'ba_Tq8Lm2Zp4Rw9Xb1KLm2Zp4Rw',
      object: 'bank_account',
      accountName: 'Acme Operating',
      accountType: 'CHECKING',
      routingNumber: '011000015',
      last4: '6789',
      status: 'PENDING_VERIFICATION',
      environment: 'SANDBOX',
      createdAt: '2026-11-22T10:00:00.000Z',
      verifiedAt: null,
    },
  ),
);

export const bankAccountPageView = /* @__PURE__ */ lazy(() => pageOf(bankAccountView, 'A page of bank accounts.'));

/** Field by field, so nothing sealed (account number, micro-deposits) can slip into an answer. */
export function presentBankAccount(account: BankAccount): z.output<typeof bankAccountView> {
  return {
    id: account.id,
    object: 'bank_account',
    accountName: account.accountName,
    accountType: account.accountType,
    routingNumber: account.routingNumber,
    last4: account.last4,
    status: account.status,
    environment: account.environment,
    createdAt: account.createdAt,
    verifiedAt: account.verifiedAt,
  };
}
