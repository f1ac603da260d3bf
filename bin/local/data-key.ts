import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_FILE = 'data-encryption-key';
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * The local run's DATA_ENCRYPTION_KEY (32 bytes as hex): with a DATA_DIR it is kept there (mode
 * 0600) so values sealed in one run (bank account numbers) open in the next; without one, a new
 * key per run, like the in-memory table it protects.
 */
export function localDataKey(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(32).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (!KEY_HEX.test(stored)) throw new Error(`${file} does not hold a 32-byte hex key`);
    return stored;
  }
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
