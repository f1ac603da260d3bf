import Big from 'big.js';
import type { Environment } from '../tenancy.js';

/** Wrong micro-deposit answers allowed: the third one fails the account (decisions.md section 4). */
export const MAX_VERIFICATION_ATTEMPTS = 3;

/** The sandbox's micro-deposits, always these two (decisions.md section 4). */
export const SANDBOX_MICRO_DEPOSITS = ['0.32', '0.45'] as const;

export const ROUTING_NUMBER_DIGITS = 9;

const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

/**
 * An ABA routing number: nine digits whose weighted sum 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9)
 * is a multiple of 10. Catches every single-digit error and most transpositions.
 */
export function isValidRoutingNumber(value: string): boolean {
  if (!new RegExp(`^\\d{${ROUTING_NUMBER_DIGITS}}$`).test(value)) return false;
  const sum = ABA_WEIGHTS.reduce((total, weight, i) => total + weight * Number(value[i]), 0);
  return sum % 10 === 0;
}

export const ACCOUNT_NUMBER_MIN_DIGITS = 4;
export const ACCOUNT_NUMBER_MAX_DIGITS = 17;
export const LAST4_DIGITS = 4;

/** A US account number: 4 to 17 digits (leading zeros are significant). */
export function isValidAccountNumber(value: string): boolean {
  return new RegExp(`^\\d{${ACCOUNT_NUMBER_MIN_DIGITS},${ACCOUNT_NUMBER_MAX_DIGITS}}$`).test(value);
}

export const last4Of = (accountNumber: string) => accountNumber.slice(-LAST4_DIGITS);

/**
 * The two micro-deposits of a new account. The sandbox always sends 0.32 and 0.45. In production a
 * banking provider would send two random amounts (`randomCents`, 1 to 99 cents each) and only it
 * and the account holder would know them; the service keeps them sealed and never returns them.
 */
export function microDepositsFor(environment: Environment, randomCents: () => number): [string, string] {
  if (environment === 'SANDBOX') return [...SANDBOX_MICRO_DEPOSITS];
  const cents = () => new Big(randomCents()).div(100).toFixed(2);
  return [cents(), cents()];
}

/** Whether the answered amounts are the expected ones, in any order, compared as money ("0.3" = "0.30"). */
export function microDepositsMatch(expected: readonly string[], answered: readonly Big[]): boolean {
  if (expected.length !== answered.length) return false;
  const sort = (values: Big[]) => [...values].sort((a, b) => a.cmp(b));
  const want = sort(expected.map((amount) => new Big(amount)));
  const got = sort([...answered]);
  return want.every((amount, i) => amount.eq(got[i]!));
}
