/**
 * Keccak-256 (the original Keccak padding, 0x01 ... 0x80, as Ethereum uses it), for EIP-55 address
 * checksums. Not SHA3-256: FIPS 202 changed the padding to 0x06, so node:crypto's `sha3-256`
 * gives other digests, and Node's OpenSSL offers no Keccak-256. Small inputs only (an address is
 * 40 bytes): 64-bit lanes as BigInt, one permutation per 136-byte block.
 */

const MASK = (1n << 64n) - 1n;
const RATE_BYTES = 136;
const ROUNDS = 24;
const ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];
/** Rho rotations and pi destinations, in the order the combined rho-pi step walks the lanes. */
const ROTATIONS = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44];
const PI_LANES = [10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1];

const rotl = (lane: bigint, bits: number): bigint => ((lane << BigInt(bits)) | (lane >> BigInt(64 - bits))) & MASK;

function permute(state: bigint[]): void {
  const columns = new Array<bigint>(5);
  for (let round = 0; round < ROUNDS; round++) {
    // theta
    for (let x = 0; x < 5; x++)
      columns[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!;
    for (let x = 0; x < 5; x++) {
      const t = columns[(x + 4) % 5]! ^ rotl(columns[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) state[y + x] = state[y + x]! ^ t;
    }
    // rho and pi
    let carried = state[1]!;
    for (let i = 0; i < 24; i++) {
      const lane = PI_LANES[i]!;
      const next = state[lane]!;
      state[lane] = rotl(carried, ROTATIONS[i]!);
      carried = next;
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) columns[x] = state[y + x]!;
      for (let x = 0; x < 5; x++) state[y + x] = columns[x]! ^ ((columns[(x + 1) % 5]! ^ MASK) & columns[(x + 2) % 5]!);
    }
    // iota
    state[0] = state[0]! ^ ROUND_CONSTANTS[round]!;
  }
}

/** The Keccak-256 digest of `input` (a string is taken as UTF-8). */
export function keccak256(input: Uint8Array | string): Uint8Array {
  const data = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const blocks = Math.floor(data.length / RATE_BYTES) + 1;
  const padded = new Uint8Array(blocks * RATE_BYTES);
  padded.set(data);
  padded[data.length] = padded[data.length]! ^ 0x01;
  padded[padded.length - 1] = padded[padded.length - 1]! ^ 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let offset = 0; offset < padded.length; offset += RATE_BYTES) {
    for (let lane = 0; lane < RATE_BYTES / 8; lane++) {
      let value = 0n;
      for (let byte = 7; byte >= 0; byte--) value = (value << 8n) | BigInt(padded[offset + lane * 8 + byte]!);
      state[lane] = state[lane]! ^ value;
    }
    permute(state);
  }
  const digest = new Uint8Array(32);
  for (let i = 0; i < 32; i++) digest[i] = Number((state[Math.floor(i / 8)]! >> BigInt((i % 8) * 8)) & 0xffn);
  return digest;
}
