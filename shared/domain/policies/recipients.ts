import {
  USDC_CHAINS,
  usdcAddressFamilyOf,
  usdcAddressKey,
  usdcAddressProblem,
  usdcChainNamed,
  type AddressFamily,
  type UsdcChain,
} from '../usdc/addresses.js';

/** The payee form of a merchant: `merchant:<domain>` (decisions.md section 3). */
export const MERCHANT_PREFIX = 'merchant:';

const MERCHANT_NAME = /^merchant:/i;

/**
 * The recipient name of a USDC address (withdrawals): `usdc:<chain>:<address>`, or in a policy list
 * `usdc:<address>`, the address on any chain of its family (docs/api.md "Transfers").
 */
export const USDC_RECIPIENT_PREFIX = 'usdc:';
const USDC_NAME = /^usdc:/i;

/** A `usdc:` name read: the chain it names (none for `usdc:<address>`), the address's family and the address as given. */
export interface UsdcRecipient {
  chain: UsdcChain | undefined;
  family: AddressFamily;
  address: string;
}

/** The chain (if named) and address a `usdc:` recipient names, or undefined when it names no valid address (of its chain, if named). */
export function usdcRecipientOf(name: string): UsdcRecipient | undefined {
  if (!USDC_NAME.test(name)) return undefined;
  const rest = name.slice(USDC_RECIPIENT_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon < 0) {
    const family = usdcAddressFamilyOf(rest);
    return family ? { chain: undefined, family, address: rest } : undefined;
  }
  const chain = usdcChainNamed(rest.slice(0, colon));
  const address = rest.slice(colon + 1);
  if (!chain || usdcAddressProblem(chain, address) !== undefined) return undefined;
  return { chain, family: USDC_CHAINS[chain], address };
}

/** Whether a name is a `usdc:` recipient (valid or not: `usdcRecipientOf` says which). */
export const isUsdcRecipient = (name: string): boolean => USDC_NAME.test(name);

/** The recipient name of a withdrawal to a USDC address. */
export const usdcRecipientName = (chain: UsdcChain, address: string): string =>
  `${USDC_RECIPIENT_PREFIX}${chain}:${address}`;

/**
 * A payee or recipient as it is stored when it enters (payment `to`, policy recipient lists):
 * merchant domains are case-insensitive, so `merchant:<domain>` is lower-cased (prefix included);
 * everything else (wallet ids, linked bank accounts, USDC addresses) is kept as given.
 */
export function recipientAsEntered(name: string): string {
  return MERCHANT_NAME.test(name) ? `${MERCHANT_PREFIX}${name.slice(MERCHANT_PREFIX.length).toLowerCase()}` : name;
}

/**
 * A payee or recipient as the rules compare names: merchant domains lower-cased; a valid `usdc:`
 * name as `usdc:[<chain>:]<address>` with the chain lower-cased and an EVM address lower-cased, a
 * Solana address exact; an invalid one (an entry stored before addresses were checked) lower-cased;
 * wallet ids and linked bank accounts are case-sensitive and kept as they are. Which USDC names a
 * list entry covers across chains is `recipientEntryMatches`'s to say.
 */
export function normalizeRecipient(name: string): string {
  if (MERCHANT_NAME.test(name)) return recipientAsEntered(name);
  if (USDC_NAME.test(name)) {
    const usdc = usdcRecipientOf(name);
    if (!usdc) return name.toLowerCase();
    return `${USDC_RECIPIENT_PREFIX}${usdc.chain ? `${usdc.chain.toLowerCase()}:` : ''}${usdcAddressKey(usdc.family, usdc.address)}`;
  }
  return name;
}

/** Which list of a spend policy an entry is on: the rule reads a USDC entry differently in each. */
export type RecipientList = 'allowed' | 'blocked';

/**
 * Whether a policy list entry names a payee or recipient (docs/api.md "Transfers", spend policies).
 * A USDC entry names an address (an EVM one whatever its case, a Solana one exactly), and the same
 * key holds an EVM address on every EVM chain, so money leaving a wallet is read safely: a blocked
 * address is blocked on every chain of its family whatever chain the entry names; a chainless entry
 * `usdc:<address>` covers every chain of its family in both lists; an allowed entry that names a
 * chain allows that chain only. Every other name matches its own normalized form only.
 */
export function recipientEntryMatches(entry: string, name: string, list: RecipientList): boolean {
  const listed = usdcRecipientOf(entry);
  const paid = usdcRecipientOf(name);
  if (!listed || !paid) return normalizeRecipient(entry) === normalizeRecipient(name);
  if (
    listed.family !== paid.family ||
    usdcAddressKey(listed.family, listed.address) !== usdcAddressKey(paid.family, paid.address)
  )
    return false;
  if (listed.chain === undefined || list === 'blocked') return true;
  return listed.chain === paid.chain;
}
