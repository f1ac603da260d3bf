import Big from 'big.js';
import { isValidAccountNumber, isValidRoutingNumber } from '../bank-accounts/bank-account-rules.js';
import { ApiError, validationError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import { transferFeeOf, usdcCounterparty } from '../transfers/transfer-rules.js';
import type { RailClaimDestination } from './rail-claim-port.js';
import type { ClaimMethod, PaymentLink, RecipientRestrictions } from './types.js';

/** Bounds of a link (docs/api.md "Payment links"). */
export const MAX_LINK_DESCRIPTION = 1_024;
export const MAX_RESTRICTION_ENTRIES = 20;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_ACCOUNT_NAME = 200;
/** Default lifetime, and the furthest `expiresAt` may be. */
export const DEFAULT_LINK_LIFETIME_MS = 30 * 24 * 3600_000;
export const MAX_LINK_LIFETIME_MS = 90 * 24 * 3600_000;

/** 22 base62 characters from the CSPRNG: about 131 bits (decisions.md section 6 asks >= 128). */
export const PAYMENT_LINK_SLUG_LENGTH = 22;
export const newPaymentLinkSlug = (): string => randomBase62(PAYMENT_LINK_SLUG_LENGTH);

/** The fee an ach or usdc claim costs (a withdrawal's: 0.5 %, at least 0.25), reserved in the hold. */
export const linkFeeOf = (amount: Big): Big => transferFeeOf('WITHDRAWAL', amount);

/** What the hold reserves: the amount and the fee. */
export const heldOf = (link: Pick<PaymentLink, 'amount' | 'fee'>): Big => new Big(link.amount).plus(link.fee);

/** `expiresAt` as given (default: 30 days), in the future and at most 90 days away. */
export function expiresAtOf(given: string | undefined, now: Date): string {
  if (given === undefined) return new Date(now.getTime() + DEFAULT_LINK_LIFETIME_MS).toISOString();
  const at = Date.parse(given);
  if (Number.isNaN(at)) throw validationError('expiresAt', 'must be an ISO 8601 date-time');
  if (at <= now.getTime()) throw validationError('expiresAt', 'must be in the future');
  if (at > now.getTime() + MAX_LINK_LIFETIME_MS) throw validationError('expiresAt', 'must be at most 90 days away');
  return new Date(at).toISOString();
}

/** Restrictions as stored: emails lower-cased and deduplicated, wallet ids deduplicated; undefined when none. */
export function normalizedRestrictions(
  input: { emails?: string[] | undefined; walletIds?: string[] | undefined } | undefined,
): RecipientRestrictions | undefined {
  const emails = [...new Set((input?.emails ?? []).map((email) => email.toLowerCase()))];
  const walletIds = [...new Set(input?.walletIds ?? [])];
  return emails.length === 0 && walletIds.length === 0 ? undefined : { emails, walletIds };
}

/**
 * The status a link has for a claimant: EXPIRED once `expiresAt` has passed, even before its
 * schedule has fired and released the hold (the schedule's transaction does that).
 */
export function claimableStatusOf(link: Pick<PaymentLink, 'status' | 'expiresAt'>, now: Date): PaymentLink['status'] {
  const due = Date.parse(link.expiresAt) <= now.getTime();
  return due && (link.status === 'ACTIVE' || link.status === 'PENDING_APPROVAL') ? 'EXPIRED' : link.status;
}

export const isRestricted = (link: Pick<PaymentLink, 'recipientRestrictions'>): boolean =>
  (link.recipientRestrictions?.emails.length ?? 0) > 0 || (link.recipientRestrictions?.walletIds.length ?? 0) > 0;

/**
 * A claim passes if the link has no restriction, or a wallet claim names one of its wallets, or the
 * claimant's email (lower-cased) is one of its emails; otherwise 403 RECIPIENT_NOT_ALLOWED.
 */
export function assertRecipientAllowed(
  link: Pick<PaymentLink, 'recipientRestrictions'>,
  claim: { method: ClaimMethod; walletId?: string | undefined; recipientEmail?: string | undefined },
): void {
  if (!isRestricted(link)) return;
  const { emails, walletIds } = link.recipientRestrictions!;
  if (claim.method === 'wallet' && claim.walletId !== undefined && walletIds.includes(claim.walletId)) return;
  if (claim.recipientEmail !== undefined && emails.includes(claim.recipientEmail.toLowerCase())) return;
  throw new ApiError('RECIPIENT_NOT_ALLOWED', 'This payment link is restricted to other recipients.');
}

/** A claim's destination as the request gives it (the operation's schema checked shapes and bounds). */
export type ClaimDestinationInput =
  | { type: 'WALLET'; walletId: string }
  | { type: 'ACH'; routingNumber: string; accountNumber: string; accountName?: string | undefined }
  | { type: 'USDC'; address: string; chain?: string | undefined };

const TYPE_OF_METHOD: Record<ClaimMethod, ClaimDestinationInput['type']> = {
  wallet: 'WALLET',
  ach: 'ACH',
  usdc: 'USDC',
};

/** `destination.type` must be the method's. */
export function assertDestinationMatches(method: ClaimMethod, destination: ClaimDestinationInput): void {
  if (destination.type !== TYPE_OF_METHOD[method])
    throw validationError('destination.type', `must be ${TYPE_OF_METHOD[method]} for the method ${method}`);
}

/** An ach or usdc destination checked: routing number checksum, account number 4-17 digits; a USDC address of its chain. */
export function railDestinationOf(
  destination: Exclude<ClaimDestinationInput, { type: 'WALLET' }>,
): RailClaimDestination {
  if (destination.type === 'USDC') {
    const { address, chain } = usdcCounterparty('destination', destination.address, destination.chain);
    return { type: 'USDC', address, chain };
  }
  if (!isValidRoutingNumber(destination.routingNumber))
    throw validationError('destination.routingNumber', 'is not a valid ABA routing number (9 digits, checksum)');
  if (!isValidAccountNumber(destination.accountNumber))
    throw validationError('destination.accountNumber', 'must be 4 to 17 digits');
  return {
    type: 'ACH',
    routingNumber: destination.routingNumber,
    accountNumber: destination.accountNumber,
    ...(destination.accountName !== undefined ? { accountName: destination.accountName } : {}),
  };
}

/** A claim's destination as its idempotency fingerprint compares it (the chain's default filled in). */
export function fingerprintDestinationOf(destination: ClaimDestinationInput): Record<string, unknown> {
  if (destination.type !== 'USDC') return destination;
  return { ...destination, chain: (destination.chain ?? 'Ethereum').toLowerCase() };
}
