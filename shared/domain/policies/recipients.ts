/** The payee form of a merchant: `merchant:<domain>` (decisions.md section 3). */
export const MERCHANT_PREFIX = 'merchant:';

const MERCHANT_NAME = /^merchant:/i;

/** The recipient name of a USDC address (withdrawals): `usdc:<address>`, compared case-insensitively. */
export const USDC_RECIPIENT_PREFIX = 'usdc:';
const USDC_NAME = /^usdc:/i;

/**
 * A payee or recipient as one name, for every rule that compares them: merchant domains are
 * case-insensitive, so `merchant:<domain>` is lower-cased (prefix included), and so is a USDC
 * address `usdc:<address>` (a withdrawal's recipient); wallet ids and linked bank accounts are
 * case-sensitive and kept as they are. Applied where names enter (payment `to`, policy recipient
 * lists) and, for policies stored before, where the rules compare them.
 */
export function normalizeRecipient(name: string): string {
  if (MERCHANT_NAME.test(name)) return `${MERCHANT_PREFIX}${name.slice(MERCHANT_PREFIX.length).toLowerCase()}`;
  // USDC addresses (EVM chains: hex, case-insensitive) are one recipient whatever their case.
  if (USDC_NAME.test(name)) return `${USDC_RECIPIENT_PREFIX}${name.slice(USDC_RECIPIENT_PREFIX.length).toLowerCase()}`;
  return name;
}
