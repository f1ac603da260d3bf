/** The payee form of a merchant: `merchant:<domain>` (decisions.md section 3). */
export const MERCHANT_PREFIX = 'merchant:';

const MERCHANT_NAME = /^merchant:/i;

/**
 * A payee or recipient as one name, for every rule that compares them: merchant domains are
 * case-insensitive, so `merchant:<domain>` is lower-cased (prefix included); wallet ids are
 * case-sensitive and kept as they are. Applied where names enter (payment `to`, policy recipient
 * lists) and, for policies stored before, where the rules compare them.
 */
export function normalizeRecipient(name: string): string {
  return MERCHANT_NAME.test(name) ? `${MERCHANT_PREFIX}${name.slice(MERCHANT_PREFIX.length).toLowerCase()}` : name;
}
