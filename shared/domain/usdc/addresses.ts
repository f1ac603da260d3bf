import { keccak256 } from './keccak.js';

/**
 * USDC addresses by chain (docs/api.md "Transfers: USDC addresses"). The chains a USDC transfer
 * may name, each with its address family: EVM chains take `0x` + 40 hex digits, checksummed
 * (EIP-55) when the letters mix cases; Solana takes base58, 32-44 characters, decoding to 32
 * bytes. An address is stored and shown as the client sent it; rules that compare two addresses
 * use `usdcAddressKey`: an EVM address is one account whatever its case, a Solana address is
 * case-sensitive. Which chains an entry naming an address covers is the policy rule's to say
 * (policies/recipients.ts): one key holds an EVM address on every EVM chain.
 */
export const USDC_CHAINS = {
  Ethereum: 'evm',
  Base: 'evm',
  Polygon: 'evm',
  Arbitrum: 'evm',
  Optimism: 'evm',
  Avalanche: 'evm',
  Solana: 'solana',
} as const;
export type UsdcChain = keyof typeof USDC_CHAINS;
export type AddressFamily = (typeof USDC_CHAINS)[UsdcChain];

/** The chain of a USDC transfer that names none (interface-spec 4.5). */
export const DEFAULT_USDC_CHAIN: UsdcChain = 'Ethereum';
export const USDC_CHAIN_NAMES = Object.keys(USDC_CHAINS) as UsdcChain[];

/** A chain named in any case (`ethereum`, `Ethereum`), as its canonical name; undefined if not supported. */
export function usdcChainNamed(name: string): UsdcChain | undefined {
  return USDC_CHAIN_NAMES.find((chain) => chain.toLowerCase() === name.toLowerCase());
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 form of a 0x + 40 hex address: each letter upper-cased where its nibble of keccak256(lower-case hex) is 8 or more. */
export function evmChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak256(hex);
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out;
}

/** An EVM address: 0x + 40 hex digits; all lower case, all upper case, or the EIP-55 checksum. */
function evmAddressProblem(address: string): string | undefined {
  if (!EVM_ADDRESS.test(address)) return 'must be 0x followed by 40 hexadecimal digits';
  const letters = address.slice(2);
  if (letters === letters.toLowerCase() || letters === letters.toUpperCase()) return undefined;
  return evmChecksumAddress(address) === address
    ? undefined
    : 'has an invalid EIP-55 checksum (mixed case must be the checksummed form)';
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const SOLANA_ADDRESS_BYTES = 32;

/** The bytes of a base58 string (Bitcoin alphabet; each leading `1` is a zero byte). */
export function base58Decode(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) throw new Error('not base58');
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  const zeros = /^1*/.exec(text)![0].length;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
}

/** A Solana address: a 32-byte public key in base58 (32 to 44 characters). */
function solanaAddressProblem(address: string): string | undefined {
  if (!SOLANA_ADDRESS.test(address)) return 'must be 32 to 44 base58 characters (no 0, O, I or l)';
  return base58Decode(address).length === SOLANA_ADDRESS_BYTES ? undefined : 'must decode to a 32-byte key';
}

/** Why `address` is not an address of `chain`, or undefined when it is one. */
export function usdcAddressProblem(chain: UsdcChain, address: string): string | undefined {
  return USDC_CHAINS[chain] === 'evm' ? evmAddressProblem(address) : solanaAddressProblem(address);
}

/** The family of a valid address of some supported chain (`0x` + hex: EVM; base58: Solana; the two never overlap), or undefined. */
export function usdcAddressFamilyOf(address: string): AddressFamily | undefined {
  if (evmAddressProblem(address) === undefined) return 'evm';
  return solanaAddressProblem(address) === undefined ? 'solana' : undefined;
}

/** An address as rules compare it within its family: an EVM address lower-cased (one account whatever its case), a Solana address exact. */
export function usdcAddressKey(family: AddressFamily, address: string): string {
  return family === 'evm' ? address.toLowerCase() : address;
}
