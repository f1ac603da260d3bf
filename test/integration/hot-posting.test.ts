import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { withCorrelation } from '../../shared/observability/scope.js';
import { systemClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService, type LedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { partitionOf } from '../../shared/domain/ledger/hot/hot-routing.js';
import { SYSTEM_ACCOUNTS, systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { readBig } from '../../shared/persistence/client.js';
import { hotKeys } from '../../shared/persistence/entities/hot-wallet.js';
import { transactionKeys } from '../../shared/persistence/entities/transaction.js';
import { walletKeys } from '../../shared/persistence/entities/wallet.js';
import { createHotRouting, HOT_CONFIG_TTL_MS, type HotRouting } from '../../shared/persistence/hot/hot-cache.js';
import { setHotWalletStatus } from '../../shared/persistence/hot/keeper.js';
import { exactAvailable } from '../../shared/persistence/hot/hot-slow-path.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import type { TableContext } from '../../shared/persistence/table-context.js';
import { promoteForTest, removeHotForTest, testHotReads } from '../fixtures/hot-wallet.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * The movement path of a hot wallet against DynamoDB Local (docs/architecture.md "Hot wallets"):
 * the real posting writer, committer and routing cache, with wallets made hot by the test fixture.
 */
const scope = { organizationId: 'org_hot', environment: 'SANDBOX' as const };

describe('hot wallets: credits into a hot wallet', () => {
  let base: Awaited<ReturnType<typeof createTestTable>>;
  let clockMs = Date.now();
  let transactions = 0;
  let lastUnits = 0;

  /** A process of its own: a routing cache on an injected clock, a client counting TransactWriteItems. */
  function processOf(): { table: TableContext; routing: HotRouting; ledger: LedgerService } {
    const client = {
      send: async (command: unknown) => {
        if (command instanceof TransactWriteCommand) transactions++;
        const output = (await base.client.send(command as never)) as {
          ConsumedCapacity?: { CapacityUnits?: number }[];
        };
        if (command instanceof TransactWriteCommand)
          lastUnits = (output.ConsumedCapacity ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
        return output;
      },
    } as unknown as DynamoDBDocumentClient;
    const plain: TableContext = { client: base.client, tableName: base.tableName };
    const routing = createHotRouting({ now: () => clockMs, reads: testHotReads(plain) });
    const table: TableContext = { client, tableName: base.tableName, hot: routing };
    return {
      table,
      routing,
      ledger: createLedgerService({ store: createLedgerStore(table), clock: systemClock, ids: newId }),
    };
  }

  async function fundedWallet(ledger: LedgerService, amount: string): Promise<string> {
    const id = newId('wallet');
    const at = new Date().toISOString();
    await base.store.commit([
      {
        type: 'createWallet',
        wallet: newWallet({ id, ...scope, name: id, walletType: 'ORG', isMain: false, createdAt: at }),
      },
    ]);
    if (amount !== '0')
      await ledger.post(scope, {
        from: systemAccount(SYSTEM_ACCOUNTS.sandboxFunding),
        to: walletAccount(id),
        amount: new Big(amount),
        type: 'FUNDING',
      });
    return id;
  }

  const mainOf = async (walletId: string) =>
    (await base.client.send(new GetCommand({ TableName: base.tableName, Key: walletKeys.primary(walletId) }))).Item!;
  const recordOf = async (id: string) =>
    (await base.client.send(new GetCommand({ TableName: base.tableName, Key: transactionKeys.primary(id) }))).Item!;
  const exact = async (walletId: string) =>
    exactAvailable((await testHotReads({ client: base.client, tableName: base.tableName }).readHotWallet(walletId))!);

  beforeAll(async () => {
    base = await createTestTable();
  });

  it('puts a credit into the inbox item of its partition, leaving main untouched, and records the partition', async () => {
    const { table, ledger } = processOf();
    const payer = await fundedWallet(ledger, '100');
    const payee = await fundedWallet(ledger, '5');
    await promoteForTest(table, payee, { partitions: 4, lanes: 2 });

    const record = await ledger.post(scope, {
      from: walletAccount(payer),
      to: walletAccount(payee),
      amount: new Big('12.5'),
    });

    const g = partitionOf(record.id, 4);
    const inbox = (
      await base.client.send(
        new GetCommand({
          TableName: base.tableName,
          Key: hotKeys.inboxItem(payee, g, record.id),
          ConsistentRead: true,
        }),
      )
    ).Item!;
    expect(inbox).toMatchObject({ entityType: 'HOT_INBOX', walletId: payee, transactionId: record.id });
    expect(readBig(inbox.amount).toFixed(2)).toBe('12.50');
    expect(readBig((await mainOf(payee)).balance).toFixed(2)).toBe('5.00');
    expect(readBig((await mainOf(payer)).balance).toFixed(2)).toBe('87.50');
    expect(Number((await recordOf(record.id)).creditPartition)).toEqual(g);
    // The partition is also the shard of the payee's incoming list (entities/shards.ts).
    expect((await recordOf(record.id)).GSI3PK).toBe(transactionKeys.toWallet(payee, g));
    expect((await exact(payee)).toFixed(2)).toBe('17.50');
    // Storage routing is not part of the record a client reads.
    expect(record).not.toHaveProperty('creditPartition');
  });

  it('costs a payment into a hot payee what a cold payment costs in the transaction (8 WCU: journal, payer, one inbox item)', async () => {
    const { table, ledger } = processOf();
    const payer = await fundedWallet(ledger, '100');
    const cold = await fundedWallet(ledger, '0');
    const hotPayee = await fundedWallet(ledger, '0');
    await promoteForTest(table, hotPayee, { partitions: 4, lanes: 1 });
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(cold), amount: new Big('1') });
    const coldUnits = lastUnits;
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(hotPayee), amount: new Big('1') });
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(hotPayee), amount: new Big('1') });
    expect(coldUnits).toBe(8);
    expect(lastUnits).toBe(coldUnits);
    // Inside a request, the journal record carries the correlation id (an API Gateway request id): still 8.
    await withCorrelation('Zk3Pq9xYvHcEJmw=-8f2b4c1d-1e3a-4b5c-9d8e-7f6a5b4c3d2e', () =>
      ledger.post(scope, { from: walletAccount(payer), to: walletAccount(cold), amount: new Big('1') }),
    );
    expect(lastUnits).toBe(8);
  });

  it('redirects a stale cold route once: the promoted wallet answers HotRoutingStale, the cache learns, the retry goes to the inbox', async () => {
    const { table, ledger } = processOf();
    const payer = await fundedWallet(ledger, '100');
    const payee = await fundedWallet(ledger, '0');
    // Known cold so far: a credit goes to main with no read.
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('1') });
    expect(readBig((await mainOf(payee)).balance).toFixed(2)).toBe('1.00');
    await promoteForTest(table, payee, { partitions: 2, lanes: 1 });

    transactions = 0;
    const first = await ledger.post(scope, {
      from: walletAccount(payer),
      to: walletAccount(payee),
      amount: new Big('2'),
    });
    expect(transactions).toBe(2);
    expect(Number((await recordOf(first.id)).creditPartition)).toEqual(partitionOf(first.id, 2));

    transactions = 0;
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('3') });
    expect(transactions).toBe(1);
    expect(readBig((await mainOf(payee)).balance).toFixed(2)).toBe('1.00');
    expect((await exact(payee)).toFixed(2)).toBe('6.00');
  });

  it('reads a hot entry again once it is older than the TTL: a demoted wallet is credited on main again', async () => {
    const { table, ledger } = processOf();
    const payer = await fundedWallet(ledger, '50');
    const payee = await fundedWallet(ledger, '0');
    await promoteForTest(table, payee, { partitions: 2, lanes: 1 });
    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('4') });
    await testHotReads(table).foldAll(payee);
    await removeHotForTest(table, payee);

    clockMs += HOT_CONFIG_TTL_MS + 1;
    transactions = 0;
    const record = await ledger.post(scope, {
      from: walletAccount(payer),
      to: walletAccount(payee),
      amount: new Big('6'),
    });
    expect(transactions).toBe(1);
    expect(readBig((await mainOf(payee)).balance).toFixed(2)).toBe('10.00');
    expect((await recordOf(record.id)).creditPartition).toBeUndefined();
  });

  it('routes a stale hot route to a demoted wallet cold again (a hold)', async () => {
    const { table, ledger, routing } = processOf();
    const wallet = await fundedWallet(ledger, '20');
    await promoteForTest(table, wallet, { partitions: 1, lanes: 1 });
    routing.remember(wallet, await mainOf(wallet));
    await removeHotForTest(table, wallet);
    // Cached hot and still fresh: the hold's debit tries the lane (refused), its slow path finds no `hot`, and it is routed cold.
    await ledger.hold(scope, { walletId: wallet, amount: new Big('5') });
    expect(readBig((await mainOf(wallet)).heldBalance).toFixed(2)).toBe('5.00');
    expect(routing.entryOf(wallet)).toBeUndefined();
  });

  it('refuses a credit into a frozen hot payee from its main as read (WALLET_FROZEN), writing nothing', async () => {
    const { table, ledger, routing } = processOf();
    const payer = await fundedWallet(ledger, '10');
    const payee = await fundedWallet(ledger, '0');
    await promoteForTest(table, payee, { partitions: 2, lanes: 1 });
    await setHotWalletStatus(table, payee, 'FROZEN');
    routing.remember(payee, await mainOf(payee));

    const error = await ledger
      .post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('1') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('WALLET_FROZEN');
    expect(readBig((await mainOf(payer)).balance).toFixed(2)).toBe('10.00');
  });

  it('reads a cached FROZEN payee again before refusing: a wallet unfrozen within the TTL takes the credit', async () => {
    const { table, ledger, routing } = processOf();
    const payer = await fundedWallet(ledger, '10');
    const payee = await fundedWallet(ledger, '0');
    await promoteForTest(table, payee, { partitions: 2, lanes: 1 });
    routing.remember(payee, { ...(await mainOf(payee)), status: 'FROZEN' });

    await ledger.post(scope, { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('1') });
    expect((await exact(payee)).toFixed(2)).toBe('1.00');
  });

  it('lands a retried movement id on the same inbox item: the journal claim refuses the second credit', async () => {
    const { table, ledger } = processOf();
    const payer = await fundedWallet(ledger, '10');
    const payee = await fundedWallet(ledger, '0');
    await promoteForTest(table, payee, { partitions: 8, lanes: 1 });
    const movementId = newId('transaction');
    const input = { from: walletAccount(payer), to: walletAccount(payee), amount: new Big('3'), movementId };
    const first = await ledger.post(scope, input);
    const again = await ledger.post(scope, input);
    expect(again.id).toBe(first.id);
    const inbox = await base.client.send(
      new QueryCommand({
        TableName: base.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': hotKeys.creditPartition(payee, partitionOf(movementId, 8)) },
      }),
    );
    expect(inbox.Items?.filter((item) => item.SK !== '#ACC')).toHaveLength(1);
    expect((await exact(payee)).toFixed(2)).toBe('3.00');
    expect(readBig((await mainOf(payer)).balance).toFixed(2)).toBe('7.00');
  });
});
