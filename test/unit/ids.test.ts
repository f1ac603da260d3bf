import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasPrefix, ID_PREFIX, ID_RANDOM_LENGTH, newId, randomBase62, type IdKind } from '../../shared/domain/ids.js';

/** interface-spec 2.1 and decisions.md section 0. */
const EXPECTED_PREFIX: Record<IdKind, string> = {
  wallet: 'wal_',
  apiKey: 'key_',
  transaction: 'txn_',
  customer: 'cus_',
  paymentLink: 'lnk_',
  approval: 'apr_',
  auditLog: 'log_',
  organization: 'org_',
  bankAccount: 'ba_',
  dispute: 'dsp_',
  transfer: 'tr_',
  policy: 'pol_',
  card: 'card_',
  cardholder: 'crh_',
  authorization: 'auth_',
  invoice: 'inv_',
  paymentMethod: 'pm_',
  usdcReceipt: 'ucr_',
  webhook: 'whk_',
  event: 'evt_',
  delivery: 'dlv_',
  user: 'usr_',
  session: 'ses_',
};

const KINDS = Object.keys(EXPECTED_PREFIX) as IdKind[];

describe('identifier prefixes', () => {
  it('uses exactly the prefixes of the spec and the decisions', () => {
    expect(ID_PREFIX).toEqual(EXPECTED_PREFIX);
  });

  it('gives every kind a distinct prefix', () => {
    const prefixes = Object.values(ID_PREFIX);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});

describe('newId', () => {
  it.each(KINDS)('makes a %s id of its prefix and 24 base62 characters', (kind) => {
    const id = newId(kind);
    const prefix = EXPECTED_PREFIX[kind];
    expect(id.startsWith(prefix)).toBe(true);
    expect(id.slice(prefix.length)).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(ID_RANDOM_LENGTH).toBeGreaterThanOrEqual(24);
    expect(hasPrefix(kind, id)).toBe(true);
  });

  it('makes 1000 distinct ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('wallet')));
    expect(ids.size).toBe(1000);
  });

  it('does not produce sequential ids', () => {
    const opaque = Array.from({ length: 50 }, () => newId('transaction').slice('txn_'.length));
    const firstChars = new Set(opaque.map((o) => o.slice(0, 4)));
    expect(firstChars.size).toBeGreaterThan(45);
  });
});

describe('randomBase62', () => {
  it('returns the requested number of base62 characters', () => {
    for (const length of [0, 1, 6, 32, 100]) {
      expect(randomBase62(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
    }
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(randomBase62(20_000));
    expect(seen.size).toBe(62);
  });
});

describe('hasPrefix', () => {
  it('refuses an id of another kind or with foreign characters', () => {
    expect(hasPrefix('wallet', newId('transaction'))).toBe(false);
    expect(hasPrefix('wallet', 'wal_abc/../x')).toBe(false);
    expect(hasPrefix('wallet', 'wal_abc#KEY')).toBe(false);
  });
});

describe('the id prefixes', () => {
  const ROOT = join(import.meta.dirname, '../..');
  /** Files that still spell a prefix, each until the change named: remove the line with it. None left. */
  const NOT_YET = new Set<string>();
  // A prefix alone in quotes ('wal_'), or a pattern starting with it (/^wal_...): not an example id like 'wal_xZT...'.
  const spelled = Object.values(ID_PREFIX).map((prefix) => new RegExp(`['"]${prefix}['"]|/\\^${prefix}`));
  const spells = (file: string) => spelled.filter((pattern) => pattern.test(readFileSync(join(ROOT, file), 'utf8')));
  const sources = ['shared', 'functions', 'lib', 'bin'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))),
  );

  it('are spelled only in shared/domain/ids.ts: a prefix alone in a string or at the start of a pattern is read from ID_PREFIX', () => {
    const offenders = sources
      .filter((file) => file !== 'shared/domain/ids.ts' && !NOT_YET.has(file))
      .flatMap((file) => spells(file).map((pattern) => `${file}: ${pattern.source}`));
    expect(offenders).toEqual([]);
  });

  it('has every file that may still spell one present and spelling it (else the exception goes)', () => {
    for (const file of NOT_YET) expect(sources.includes(file) && spells(file).length > 0, file).toBe(true);
  });
});
