import { isValidAccountNumber, isValidRoutingNumber, last4Of } from '../bank-accounts/bank-account-rules.js';
import { isLuhnValid } from '../cards/card-numbers.js';
import type { Clock } from '../clock.js';
import { validationError } from '../errors.js';
import type { ChargeResult, DeclineCode, PaymentMethodInput, PaymentProcessor, TokenizedMethod } from './processor.js';

/** The sandbox's card numbers with a fixed outcome (decisions.md section 6); other Luhn-valid numbers succeed. */
export const SANDBOX_CARDS = {
  succeeds: '4242424242424242',
  declines: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** A sandbox bank debit fails at settlement when the account number ends with this (decisions.md section 4). */
export const FAILING_ACCOUNT_SUFFIX = '0002';

/** The test helper's and the docs' defaults. */
export const SANDBOX_BANK_ACCOUNT = { routingNumber: '110000000', accountNumber: '000123456789' } as const;

export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;
const MAX_CARD_YEARS_AHEAD = 20;
const SANDBOX_BANK_LABEL = 'Sandbox Bank';
const MONTHS = 12;

/**
 * What a sandbox token says about the charges it will get: a real processor's token is opaque and
 * the processor decides; the sandbox's carries the outcome, so charging needs no stored state.
 */
type Outcome = 'ok' | DeclineCode;
const OUTCOMES: readonly Outcome[] = ['ok', 'card_declined', 'insufficient_funds', 'expired_card', 'bank_debit_failed'];
const TOKEN_PREFIX = 'sbxpm';
const CHARGE_PREFIX = 'sbxch';
const REFERENCE = /^[A-Za-z0-9_.:-]{1,200}$/;

/** The card's network from its leading digits (IIN ranges); `unknown` for the rest. */
export function cardBrandOf(number: string): string {
  const prefix = (digits: number) => Number(number.slice(0, digits));
  if (number.startsWith('4')) return 'visa';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)) return 'mastercard';
  if (number.startsWith('34') || number.startsWith('37')) return 'amex';
  if (number.startsWith('6011') || number.startsWith('65') || (prefix(3) >= 644 && prefix(3) <= 649)) return 'discover';
  return 'unknown';
}

function cardOutcome(number: string): Outcome {
  if (number === SANDBOX_CARDS.declines) return 'card_declined';
  if (number === SANDBOX_CARDS.insufficientFunds) return 'insufficient_funds';
  return 'ok';
}

/** Valid through the last day of its month (as printed), not after MAX_CARD_YEARS_AHEAD. */
function checkExpiry(expMonth: number, expYear: number, now: Date): void {
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > MONTHS)
    throw validationError('expMonth', 'must be a month, 1 to 12');
  const thisYear = now.getUTCFullYear();
  if (!Number.isInteger(expYear) || expYear > thisYear + MAX_CARD_YEARS_AHEAD)
    throw validationError('expYear', `must be a four-digit year at most ${MAX_CARD_YEARS_AHEAD} years ahead`);
  if (expYear * MONTHS + expMonth < thisYear * MONTHS + now.getUTCMonth() + 1)
    throw validationError('expYear', 'the card has expired');
}

export interface SandboxProcessorDeps {
  clock: Clock;
  /** A fresh random hex string (>= 64 bits) naming a vaulted method. */
  randomHex: () => string;
}

/**
 * The sandbox adapter of the processor port. tokenize validates as a processor would (Luhn,
 * expiry, CVC; ABA checksum) and vaults nothing: the token names the outcome of later charges.
 * Charges are idempotent by `reference` (the charge id is derived from it and the token), and a
 * pending bank debit's charge id says whether `settle` fails it. Numbers never leave this call.
 */
export function createSandboxProcessor(deps: SandboxProcessorDeps): PaymentProcessor {
  const parseToken = (token: string): { type: 'card' | 'bank'; outcome: Outcome } => {
    const [prefix, type, written, random, ...rest] = token.split('_');
    const outcome = written?.replaceAll('-', '_') as Outcome;
    if (
      prefix !== TOKEN_PREFIX ||
      (type !== 'card' && type !== 'bank') ||
      !OUTCOMES.includes(outcome) ||
      !random ||
      rest.length
    )
      throw new Error('not a sandbox processor token');
    return { type, outcome };
  };
  // Underscores separate the token's parts, so an outcome is written with dashes inside it.
  const tokenOf = (type: 'card' | 'bank', outcome: Outcome) =>
    `${TOKEN_PREFIX}_${type}_${outcome.replaceAll('_', '-')}_${deps.randomHex()}`;

  return {
    async tokenize(input: PaymentMethodInput): Promise<TokenizedMethod> {
      if (input.type === 'card') {
        const digits = new RegExp(`^\\d{${CARD_NUMBER_MIN_DIGITS},${CARD_NUMBER_MAX_DIGITS}}$`);
        if (!digits.test(input.number) || !isLuhnValid(input.number))
          throw validationError('number', 'must be a card number (12 to 19 digits, valid checksum)');
        checkExpiry(input.expMonth, input.expYear, deps.clock.now());
        const brand = cardBrandOf(input.number);
        if (input.cvc !== undefined && !(brand === 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(input.cvc))
          throw validationError('cvc', brand === 'amex' ? 'must be 4 digits' : 'must be 3 digits');
        return {
          type: 'card',
          processorToken: tokenOf('card', cardOutcome(input.number)),
          brand,
          last4: last4Of(input.number),
          expMonth: input.expMonth,
          expYear: input.expYear,
        };
      }
      if (!isValidRoutingNumber(input.routingNumber))
        throw validationError('routingNumber', 'must be 9 digits with a valid ABA checksum');
      if (!isValidAccountNumber(input.accountNumber)) throw validationError('accountNumber', 'must be 4 to 17 digits');
      const outcome: Outcome = input.accountNumber.endsWith(FAILING_ACCOUNT_SUFFIX) ? 'bank_debit_failed' : 'ok';
      return {
        type: 'us_bank_account',
        processorToken: tokenOf('bank', outcome),
        brand: SANDBOX_BANK_LABEL,
        last4: last4Of(input.accountNumber),
      };
    },

    async charge(request): Promise<ChargeResult> {
      if (!REFERENCE.test(request.reference)) throw new Error('a charge reference is 1 to 200 of [A-Za-z0-9_.:-]');
      if (request.amount.lte(0)) throw new Error('a charge is of a positive amount');
      const { type, outcome } = parseToken(request.processorToken);
      if (type === 'card') {
        if (outcome !== 'ok') return { outcome: 'declined', declineCode: outcome };
        return { outcome: 'succeeded', processorChargeId: `${CHARGE_PREFIX}_card_ok_${request.reference}` };
      }
      // A bank debit is accepted now and decided when the ACH rail settles.
      const settles = outcome === 'ok' ? 'ok' : 'fail';
      return { outcome: 'pending', processorChargeId: `${CHARGE_PREFIX}_bank_${settles}_${request.reference}` };
    },

    async settle(processorChargeId: string) {
      if (processorChargeId.startsWith(`${CHARGE_PREFIX}_bank_ok_`)) return 'succeeded';
      if (processorChargeId.startsWith(`${CHARGE_PREFIX}_bank_fail_`)) return 'failed';
      throw new Error('not a pending sandbox bank debit');
    },

    async refund(request) {
      if (!isSandboxCharge(request.processorChargeId)) throw new Error('not a sandbox charge');
      if (request.amount.lte(0)) throw new Error('a refund is of a positive amount');
    },
  };
}

const isSandboxCharge = (id: string) =>
  id.startsWith(`${CHARGE_PREFIX}_card_ok_`) || id.startsWith(`${CHARGE_PREFIX}_bank_`);

/** What the sandbox test helper may leave out. */
export interface SandboxMethodRequest {
  type?: PaymentMethodInput['type'] | undefined;
  number?: string | undefined;
  expMonth?: number | undefined;
  expYear?: number | undefined;
  cvc?: string | undefined;
  routingNumber?: string | undefined;
  accountNumber?: string | undefined;
  accountHolderName?: string | undefined;
  accountType?: 'checking' | 'savings' | undefined;
}

/** Years ahead of a test helper card's default expiry. */
const DEFAULT_CARD_YEARS = 3;

/** The test helper's request with the sandbox defaults filled in (card 4242..., December three years out; the sandbox bank account). */
export function sandboxMethodInput(request: SandboxMethodRequest, now: Date): PaymentMethodInput {
  if ((request.type ?? 'card') === 'card')
    return {
      type: 'card',
      number: request.number ?? SANDBOX_CARDS.succeeds,
      expMonth: request.expMonth ?? MONTHS,
      expYear: request.expYear ?? now.getUTCFullYear() + DEFAULT_CARD_YEARS,
      ...(request.cvc !== undefined ? { cvc: request.cvc } : {}),
    };
  return {
    type: 'us_bank_account',
    routingNumber: request.routingNumber ?? SANDBOX_BANK_ACCOUNT.routingNumber,
    accountNumber: request.accountNumber ?? SANDBOX_BANK_ACCOUNT.accountNumber,
    accountHolderName: request.accountHolderName ?? 'Sandbox Customer',
    accountType: request.accountType ?? 'checking',
  };
}
