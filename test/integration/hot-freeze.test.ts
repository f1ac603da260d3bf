import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService, type LedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { SYSTEM_ACCOUNTS, systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { createCommitter } from '../../shared/persistence/change-writer.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { createHotRouting } from '../../shared/persistence/hot/hot-cache.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import type { ItemKey } from '../../shared/persistence/item.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { WRITERS } from '../../shared/persistence/writers/index.js';
import { fundLaneForTest, promoteForTest } from '../fixtures/hot-wallet.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * Agent pause and resume of a hot wallet (decisions.md section 13: a freeze stops payments out at
 * once): the wallet writer sets main and every lane in one transaction, so a lane debit right after
 * the freeze answers WALLET_FROZEN, and a resume lets it pay again. The committer here starts with a
 * routing cache that believes the wallet cold (the status change's hot guard re-plans it).
 */
const scope = { organizationId: 'org_hot_freeze', environment: 'SANDBOX' as const };

describe('hot wallets: freeze and resume move the lanes at once', () => {
  let base: Awaited<ReturnType<typeof createTestTable>>;
  let table: TableContext;
  let ledger: LedgerService;

  beforeAll(async () => {
    base = await createTestTable();
    table = { client: base.client, tableName: base.tableName, hot: createHotRouting() };
    ledger = createLedgerService({ store: createLedgerStore(table), clock: systemClock, ids: newId });
  });

  async function wallet(amount: string): Promise<string> {
    const id = newId('wallet');
    const createdAt = new Date().toISOString();
    await base.store.commit([
      {
        type: 'createWallet',
        wallet: newWallet({ id, ...scope, name: id, walletType: 'ORG', isMain: false, createdAt }),
      },
    ]);
    if (new Big(amount).gt(0))
      await ledger.post(scope, {
        from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
        to: walletAccount(id),
        amount: new Big(amount),
        type: 'FUNDING',
      });
    return id;
  }

  const statusOf = async (key: ItemKey) =>
    (await base.client.send(new GetCommand({ TableName: base.tableName, Key: key }))).Item?.status;

  /** The change agent pause/resume commits (agent-lifecycle.ts), through a process that believes the wallet cold. */
  const setStatus = (walletId: string, target: 'FROZEN' | 'ACTIVE') =>
    createCommitter({ client: base.client, tableName: base.tableName, hot: createHotRouting() }, WRITERS).commit([
      { type: 'updateWallet', walletId, trigger: target === 'FROZEN' ? 'freeze' : 'unfreeze', set: { status: target } },
    ]);

  it('freezes main and every lane in one step: a lane debit right after answers WALLET_FROZEN; resume pays again', async () => {
    const payer = await wallet('30');
    const payee = await wallet('0');
    await promoteForTest(table, payer, { partitions: 2, lanes: 2 });
    await fundLaneForTest(table, payer, 0, new Big(10));
    await fundLaneForTest(table, payer, 1, new Big(10));

    await setStatus(payer, 'FROZEN');
    expect(await statusOf(walletKeys.primary(payer))).toBe('FROZEN');
    expect(await statusOf(hotKeys.lane(payer, 0))).toBe('FROZEN');
    expect(await statusOf(hotKeys.lane(payer, 1))).toBe('FROZEN');
    await expect(
      ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('1.00') }),
    ).rejects.toMatchObject({ code: 'WALLET_FROZEN' });

    await setStatus(payer, 'ACTIVE');
    expect(await statusOf(hotKeys.lane(payer, 0))).toBe('ACTIVE');
    expect(await statusOf(hotKeys.lane(payer, 1))).toBe('ACTIVE');
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('1.00') });
  });

  it('closes a hot wallet with its lanes (hot/hot-close.ts; test/integration/hot-close.test.ts), and still freezes a cold one alone', async () => {
    const hot = await wallet('0');
    await promoteForTest(table, hot, { partitions: 1, lanes: 1 });
    await createCommitter({ client: base.client, tableName: base.tableName, hot: createHotRouting() }, WRITERS).commit([
      {
        type: 'updateWallet',
        walletId: hot,
        trigger: 'close',
        set: { status: 'FROZEN', deletedAt: new Date().toISOString() },
        expectedBalance: new Big(0),
      },
    ]);
    expect(await statusOf(walletKeys.primary(hot))).toBe('FROZEN');
    expect(await statusOf(hotKeys.lane(hot, 0))).toBe('FROZEN');

    const cold = await wallet('5');
    await setStatus(cold, 'FROZEN');
    expect(await statusOf(walletKeys.primary(cold))).toBe('FROZEN');
    await expect(
      ledger.post(scope, { from: walletAccount(cold), to: walletAccount(hot), amount: new Big('1.00') }),
    ).rejects.toMatchObject({ code: 'WALLET_FROZEN' });
  });
});
