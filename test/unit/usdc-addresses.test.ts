import { describe, expect, it } from 'vitest';
import { normalizeRecipient, usdcRecipientOf } from '../../shared/domain/policies/recipients.js';
import { keccak256 } from '../../shared/domain/usdc/keccak.js';
import {
  base58Decode,
  evmChecksumAddress,
  usdcAddressFamilyOf,
  usdcAddressKey,
  usdcAddressProblem,
  usdcChainNamed,
} from '../../shared/domain/usdc/addresses.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** EIP-55's own examples (eips.ethereum.org/EIPS/eip-55, "Test Cases"). */
const EIP55_CHECKSUMMED = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];
const EIP55_ALL_CAPS = ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'];
const EIP55_ALL_LOWER = ['0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c26'];

/** Real Solana addresses: the system program (32 zero bytes), the USDC mint, the token program. */
const SOLANA = [
  '11111111111111111111111111111111',
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
];

/** Flips the case of the first letter after 0x that can flip: a checksummed address one letter off. */
const flipOneLetter = (address: string) => {
  const i = [...address].findIndex((c, index) => index > 1 && /[a-fA-F]/.test(c));
  const c = address[i]!;
  return address.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + address.slice(i + 1);
};

describe('keccak-256 (not SHA3-256: the original Keccak padding)', () => {
  it.each([
    ['', 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'],
    ['abc', '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45'],
    ['The quick brown fox jumps over the lazy dog', '4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15'],
  ])('hashes %j to the published digest', (input, digest) => {
    expect(hex(keccak256(input))).toBe(digest);
  });

  it('differs from SHA3-256 on the same input (the padding differs)', async () => {
    const { createHash } = await import('node:crypto');
    expect(hex(keccak256('abc'))).not.toBe(createHash('sha3-256').update('abc').digest('hex'));
  });
});

describe('USDC addresses on EVM chains (0x + 40 hex, EIP-55 when mixed case)', () => {
  it.each(EIP55_CHECKSUMMED)(
    'accepts the checksummed %s and computes the same checksum from its lower-case form',
    (address) => {
      expect(usdcAddressProblem('Ethereum', address)).toBeUndefined();
      expect(evmChecksumAddress(address.toLowerCase())).toBe(address);
    },
  );

  it.each([...EIP55_ALL_CAPS, ...EIP55_ALL_LOWER])('accepts the single-case %s (no checksum to check)', (address) => {
    expect(usdcAddressProblem('Base', address)).toBeUndefined();
  });

  it.each(EIP55_CHECKSUMMED)('refuses %s with one letter of the wrong case (a bad checksum)', (address) => {
    expect(usdcAddressProblem('Ethereum', flipOneLetter(address))).toMatch(/checksum/);
  });

  it.each([
    ['no 0x', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['0X prefix', '0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ['39 digits', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae'],
    ['41 digits', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedd'],
    ['a non-hex letter', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg'],
    ['a Solana address', SOLANA[1]!],
  ])('refuses an address with %s', (_, address) => {
    expect(usdcAddressProblem('Polygon', address)).toMatch(/0x followed by 40 hexadecimal digits/);
  });
});

describe('USDC addresses on Solana (base58, 32-44 characters, a 32-byte key)', () => {
  it.each(SOLANA)('accepts %s', (address) => {
    expect(usdcAddressProblem('Solana', address)).toBeUndefined();
    expect(base58Decode(address)).toHaveLength(32);
  });

  it.each([
    ['a 0 (not base58)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10'],
    ['an O (not base58)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDtOv'],
    ['an l (not base58)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDtlv'],
    ['31 characters', '1111111111111111111111111111111'],
    ['45 characters', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vv'],
    ['an EVM address', EIP55_ALL_LOWER[0]!],
  ])('refuses an address with %s', (_, address) => {
    expect(usdcAddressProblem('Solana', address)).toMatch(/base58/);
  });

  it('refuses 44 base58 characters that decode to more than 32 bytes', () => {
    expect(usdcAddressProblem('Solana', 'z'.repeat(44))).toMatch(/32-byte/);
  });
});

describe('USDC addresses and names as rules read them', () => {
  it('names chains in any case by their canonical name, and no unsupported chain', () => {
    expect(usdcChainNamed('ethereum')).toBe('Ethereum');
    expect(usdcChainNamed('SOLANA')).toBe('Solana');
    expect(usdcChainNamed('Dogechain')).toBeUndefined();
  });

  it('compares an EVM address whatever its case and a Solana address exactly; tells the family from the address', () => {
    const [checksummed] = EIP55_CHECKSUMMED;
    expect(usdcAddressKey('evm', checksummed!)).toBe(usdcAddressKey('evm', checksummed!.toLowerCase()));
    expect(usdcAddressKey('solana', SOLANA[1]!)).not.toBe(usdcAddressKey('solana', SOLANA[1]!.toLowerCase()));
    expect(usdcAddressFamilyOf(checksummed!)).toBe('evm');
    expect(usdcAddressFamilyOf(SOLANA[1]!)).toBe('solana');
    expect(usdcAddressFamilyOf(flipOneLetter(checksummed!))).toBeUndefined();
  });

  it('normalizes usdc:[<chain>:]<address>: the chain and an EVM address lower-cased, a Solana address exact', () => {
    const [checksummed] = EIP55_CHECKSUMMED;
    const lower = checksummed!.toLowerCase();
    expect(normalizeRecipient(`usdc:Base:${checksummed}`)).toBe(`usdc:base:${lower}`);
    expect(normalizeRecipient(`usdc:${checksummed}`)).toBe(`usdc:${lower}`);
    expect(normalizeRecipient(`usdc:Solana:${SOLANA[1]}`)).toBe(`usdc:solana:${SOLANA[1]}`);
  });

  it('reads a chainless entry as the address on any chain of its family, and no account from an invalid address or an unsupported chain', () => {
    expect(usdcRecipientOf(`usdc:${EIP55_CHECKSUMMED[0]}`)).toEqual({
      chain: undefined,
      family: 'evm',
      address: EIP55_CHECKSUMMED[0],
    });
    expect(usdcRecipientOf(`usdc:${SOLANA[1]}`)).toEqual({ chain: undefined, family: 'solana', address: SOLANA[1] });
    expect(usdcRecipientOf(`usdc:${flipOneLetter(EIP55_CHECKSUMMED[0]!)}`)).toBeUndefined();
    expect(usdcRecipientOf(`usdc:Dogechain:${EIP55_ALL_LOWER[0]}`)).toBeUndefined();
    expect(usdcRecipientOf(`usdc:Solana:${EIP55_ALL_LOWER[0]}`)).toBeUndefined();
    expect(usdcRecipientOf(`usdc:Solana:${SOLANA[0]}`)).toEqual({
      chain: 'Solana',
      family: 'solana',
      address: SOLANA[0],
    });
  });
});
