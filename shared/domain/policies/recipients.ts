import { DEFAULT_USDC_CHAIN, usdcAccountKey, usdcAddressProblem, usdcChainNamed, type UsdcChain } from '../usdc/addresses.js';

/** The payee form of a merchant: `merchant:<domain>` (decisions.md section 3). */
export const MERCHANT_PREFIX = 'merchant:';

const MERCHANT_NAME = /^merchant:/i;

/**
 * The recipient name of a USDC account (withdrawals): `usdc:<chain>:<address>`, or `usdc:<address>`
 * for the default chain (Ethereum), as a transfer without `chain` (docs/api.md "Transfers").
 */
export const USDC_RECIPIENT_PREFIX = 'usdc:';
const USDC_NAME = /^usdc:/i;

/** The chain and address a `usdc:` recipient names, or undefined when it names no valid address of a supported chain. */
export function usdcRecipientOf(name: string): { chain: UsdcChain; address: string } | undefined {
  if (!USDC_NAME.test(name)) return undefined;
  const rest = name.slice(USDC_RECIPIENT_PREFIX.length);
  const colon = rest.indexOf(':');
  const chain = colon < 0 ? DEFAULT_USDC_CHAIN : usdcChainNamed(rest.slice(0, colon));
  const address = rest.slice(colon + 1);
  if (!chain || usdcAddressProblem(chain, address) !== undefined) return undefined;
  return { chain, address };
}

/** Whether a name is a `usdc:` recipient (valid or not: `usdcRecipientOf` says which). */
export const isUsdcRecipient = (name: string): boolean => USDC_NAME.test(name);

/** The recipient name of a withdrawal to a USDC address. */
export const usdcRecipientName = (chain: UsdcChain, address: string): string => `${USDC_RECIPIENT_PREFIX}${chain}:${address}`;

/**
 * A payee or recipient as it is stored when it enters (payment `to`, policy recipient lists):
 * merchant domains are case-insensitive, so `merchant:<domain>` is lower-cased (prefix included);
 * everything else (wallet ids, linked bank accounts, USDC addresses) is kept as given.
 */
export function recipientAsEntered(name: string): string {
  return MERCHANT_NAME.test(name) ? `${MERCHANT_PREFIX}${name.slice(MERCHANT_PREFIX.length).toLowerCase()}` : name;
}

/**
 * A payee or recipient as every rule compares them: merchant domains lower-cased; a USDC account
 * as `usdc:<chain>:<address>` with the chain lower-cased and an EVM address lower-cased (one
 * account whatever its case), a Solana address exact, so an entry matches only the same address on
 * the same chain; wallet ids and linked bank accounts are case-sensitive and kept as they are.
 * Applied to both sides where the rules compare them (lists stored before this rule included).
 */
export function normalizeRecipient(name: string): string {
  if (MERCHANT_NAME.test(name)) return recipientAsEntered(name);
  if (USDC_NAME.test(name)) {
    const usdc = usdcRecipientOf(name);
    // An entry stored before addresses were checked, naming no valid address: compared as it was (lower-cased).
    return usdc ? `${USDC_RECIPIENT_PREFIX}${usdcAccountKey(usdc.chain, usdc.address)}` : name.toLowerCase();
  }
  return name;
}
