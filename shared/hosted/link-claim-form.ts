import { randomBase62 } from '../domain/ids.js';

/** The three places a payment link's money can go, as `?method=` values of the claim page. */
export type ClaimChoice = 'wallet' | 'bank' | 'usdc';

export const CLAIM_CHOICE_LABEL: Readonly<Record<ClaimChoice, string>> = {
  wallet: 'Allowance wallet',
  bank: 'US bank account',
  usdc: 'USDC address',
};

/** What the claim form shows again after a refusal: never the routing or account number. */
export interface ClaimKept {
  walletId?: string;
  accountName?: string;
  address?: string;
  chain?: string;
  recipientEmail?: string;
}

const KEPT_FIELDS = ['walletId', 'accountName', 'address', 'chain', 'recipientEmail'] as const;

/** The hidden field that carries the claim's idempotency key (one per rendered form). */
export const CLAIM_KEY_FIELD = 'idempotencyKey';
const CLAIM_KEY_RANDOM_CHARS = 22;

/** A fresh key for one rendered form: its double submit claims once, a corrected form is a new claim. */
export const newClaimKey = (): string => `page_${randomBase62(CLAIM_KEY_RANDOM_CHARS)}`;

export function claimChoiceOf(value: string | undefined): ClaimChoice | undefined {
  return value === 'wallet' || value === 'bank' || value === 'usdc' ? value : undefined;
}

const digits = (value: string | undefined) => (value ?? '').replace(/[\s-]/g, '');
const trimmed = (value: string | undefined) => (value ?? '').trim();
const optional = (value: string | undefined) => trimmed(value) || undefined;

/**
 * The claim body of `claimPaymentLink` from the form: the destination of the chosen kind only (the
 * operation's strict schema refuses anything else), numbers without the spaces people type.
 */
export function claimInput(choice: ClaimChoice, fields: Map<string, string>): Record<string, unknown> {
  const recipientEmail = optional(fields.get('recipientEmail'));
  const destination =
    choice === 'wallet'
      ? { type: 'WALLET', walletId: trimmed(fields.get('walletId')) }
      : choice === 'bank'
        ? {
            type: 'ACH',
            routingNumber: digits(fields.get('routingNumber')),
            accountNumber: digits(fields.get('accountNumber')),
            accountName: optional(fields.get('accountName')),
          }
        : { type: 'USDC', address: trimmed(fields.get('address')), chain: optional(fields.get('chain')) };
  const method = choice === 'bank' ? 'ach' : choice;
  return { method, destination, ...(recipientEmail ? { recipientEmail } : {}) };
}

export function claimKept(fields: Map<string, string>, cleared?: keyof ClaimKept): ClaimKept {
  const kept: ClaimKept = {};
  for (const name of KEPT_FIELDS) {
    if (name === cleared) continue;
    const value = fields.get(name);
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** The form's key, if it sent one (the operation checks its shape). */
export function claimKeyOf(fields: Map<string, string>): string | undefined {
  return fields.get(CLAIM_KEY_FIELD) || undefined;
}
