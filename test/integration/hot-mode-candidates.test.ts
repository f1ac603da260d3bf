import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { minuteOf } from '../../shared/domain/hot-mode/hot-mode-rules.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { ApiError } from '../../shared/domain/errors.js';
import {
  conflictsOf,
  flushConflictCounts,
  registeredHotWallets,
  registerHotWallet,
  unregisterHotWallet,
} from '../../shared/persistence/hot/hot-candidates.js';
import { createWalletStore } from '../../shared/persistence/wallet-store.js';
import { CONFLICT_RETRY_LIMIT } from '../../shared/persistence/transact.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * Automatic promotion's measurements against DynamoDB Local: the committer counts each wallet's
 * conflicted attempts (injected: DynamoDB Local never conflicts) under the current minute, and
 * writes nothing when a transaction did not conflict. The counts leave the process in the
 * background (hot-candidates.ts ConflictCounter); unit tests: test/unit/hot-candidates.test.ts.
 */
describe('hot mode candidates: conflicts counted by the committer', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  /** Attempts of the next transactions that conflict before one goes through. */
  let conflictsBeforeSuccess = 0;
  beforeAll(async () => {
    table = await createTestTable({
      transact: { sleep: async () => undefined, injectConflict: (attempt) => attempt <= conflictsBeforeSuccess },
    });
  });

  const walletChange = (id: string) => ({
    type: 'createWallet' as const,
    wallet: newWallet({
      id,
      organizationId: newId('organization'),
      environment: 'SANDBOX',
      name: id,
      walletType: 'ORG',
      isMain: false,
      createdAt: new Date().toISOString(),
    }),
  });

  it('counts the conflicted attempts of a transaction against its wallet, and nothing for a quiet one', async () => {
    const [quiet, busy] = [newId('wallet'), newId('wallet')];
    const minute = minuteOf(new Date());
    conflictsBeforeSuccess = 0;
    await createWalletStore(table).commit([walletChange(quiet)]);
    conflictsBeforeSuccess = 2;
    await createWalletStore(table).commit([walletChange(busy)]);
    // Counts are written in the background (never awaited by a commit): flushed here to read them.
    await flushConflictCounts(table);
    const counts = await conflictsOf(table, minute);
    expect(counts.filter((c) => c.walletId === quiet)).toEqual([]);
    expect(counts.filter((c) => c.walletId === busy)).toEqual([{ walletId: busy, conflicts: 2 }]);
  });

  it('counts every attempt of a transaction that ran out of retries (409 CONCURRENT_UPDATE)', async () => {
    const id = newId('wallet');
    const minute = minuteOf(new Date());
    conflictsBeforeSuccess = CONFLICT_RETRY_LIMIT;
    const commit = createWalletStore(table).commit([walletChange(id)]);
    await expect(commit).rejects.toBeInstanceOf(ApiError);
    await expect(commit).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    conflictsBeforeSuccess = 0;
    await flushConflictCounts(table);
    expect((await conflictsOf(table, minute)).filter((c) => c.walletId === id)).toEqual([
      { walletId: id, conflicts: CONFLICT_RETRY_LIMIT },
    ]);
  });

  it('keeps the registry of hot wallets the scheduled keeper visits', async () => {
    const id = newId('wallet');
    await registerHotWallet(table, { walletId: id, registeredAt: '2026-11-28T03:00:00.000Z' });
    expect(await registeredHotWallets(table)).toContainEqual({
      walletId: id,
      registeredAt: '2026-11-28T03:00:00.000Z',
    });
    await unregisterHotWallet(table, id);
    expect((await registeredHotWallets(table)).map((e) => e.walletId)).not.toContain(id);
  });
});
