import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { createLedgerService } from '../../shared/domain/ledger/ledger-service.js';
import { systemAccount, walletAccount } from '../../shared/domain/ledger/posting.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { TransferStore } from '../../shared/domain/transfers/ports.js';
import { sandboxRail, unconfiguredRail } from '../../shared/domain/transfers/sandbox-rail.js';
import { createTransferService } from '../../shared/domain/transfers/transfer-service.js';
import { netAmountOf } from '../../shared/domain/transfers/transfer-view.js';
import type { Transfer } from '../../shared/domain/transfers/types.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { createLedgerStore } from '../../shared/persistence/ledger-store.js';
import { createTransferStore } from '../../shared/persistence/transfer-store.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { LostResponse } from '../fixtures/in-memory-ledger.js';
import { createTestTable } from '../fixtures/table.js';

/**
 * Random deposits and withdrawals (USDC with up to 6 decimals), internal transfers, workflow steps
 * (run twice at random), cancels, test-helper advances, clearing releases, wallets frozen and
 * unfrozen, and races (settle step, cancel and advance at once on one transfer; in half the runs
 * the rail accepts every cancel, so cancels race settlements at the database) against DynamoDB
 * Local, with faults: 20 % of
 * TransactWriteItems attempts cancelled by a TransactionConflict (the adapter retries), 5 % of the
 * commits that applied losing their answer (the caller retries: creations with their idempotency
 * key, steps and releases as they are). After each run: the ledger's invariants (zero sum, nothing
 * negative, holds settled once) and every wallet's available, held and pending balances equal to
 * what the transfers' final states say.
 */
const RUNS = Number(process.env.TRANSFER_PROPERTY_RUNS ?? 12);
const STEPS = Number(process.env.TRANSFER_PROPERTY_STEPS ?? 30);
const WALLETS = 3;
const FUNDED = new Big('300.00');

type Rail = 'ACH' | 'WIRE' | 'FEDNOW' | 'USDC';
type Command =
  | { kind: 'deposit'; wallet: number; cents: number; micros: number; rail: Rail; failing: boolean }
  | { kind: 'withdraw'; wallet: number; cents: number; micros: number; rail: Rail; magic: 'none' | 'fail' | 'reject' }
  | { kind: 'internal'; from: number; to: number; cents: number }
  | { kind: 'step'; transfer: number; step: 'submit' | 'settle'; twice: boolean }
  | { kind: 'cancel'; transfer: number }
  | { kind: 'advance'; transfer: number; to: 'PENDING' | 'COMPLETED' | 'FAILED' }
  | { kind: 'release'; transfer: number }
  | { kind: 'race'; transfer: number; to: 'PENDING' | 'COMPLETED' | 'FAILED' }
  | { kind: 'freeze'; wallet: number; frozen: boolean }
  | { kind: 'tick'; ms: number };

const rail = fc.constantFrom<Rail>('ACH', 'WIRE', 'FEDNOW', 'USDC');
const index = fc.nat({ max: 40 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('deposit' as const),
    wallet: fc.nat({ max: WALLETS - 1 }),
    cents: fc.integer({ min: 2500, max: 20000 }),
    micros: fc.nat({ max: 9999 }),
    rail,
    failing: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    wallet: fc.nat({ max: WALLETS - 1 }),
    cents: fc.integer({ min: 1, max: 15000 }),
    micros: fc.nat({ max: 9999 }),
    rail,
    magic: fc.constantFrom('none' as const, 'none' as const, 'fail' as const, 'reject' as const),
  }),
  fc.record({
    kind: fc.constant('race' as const),
    transfer: index,
    to: fc.constantFrom('PENDING' as const, 'COMPLETED' as const, 'FAILED' as const),
  }),
  fc.record({ kind: fc.constant('freeze' as const), wallet: fc.nat({ max: WALLETS - 1 }), frozen: fc.boolean() }),
  fc.record({
    kind: fc.constant('internal' as const),
    from: fc.nat({ max: WALLETS - 1 }),
    to: fc.nat({ max: WALLETS - 1 }),
    cents: fc.integer({ min: 1, max: 10000 }),
  }),
  fc.record({
    kind: fc.constant('step' as const),
    transfer: index,
    step: fc.constantFrom('submit' as const, 'settle' as const),
    twice: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('step' as const),
    transfer: index,
    step: fc.constant('settle' as const),
    twice: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), transfer: index }),
  fc.record({
    kind: fc.constant('advance' as const),
    transfer: index,
    to: fc.constantFrom('PENDING' as const, 'COMPLETED' as const, 'FAILED' as const),
  }),
  fc.record({ kind: fc.constant('release' as const), transfer: index }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 4000 }) }),
);

const amountOf = (cents: number) => new Big(cents).div(100).toFixed(2);
/** USDC takes up to 6 decimals: whole cents plus some micro-units. */
const amountIn = (railName: Rail, cents: number, micros: number) =>
  railName === 'USDC' ? new Big(cents).div(100).plus(new Big(micros).div(1_000_000)).toFixed() : amountOf(cents);
const counterpartyOf = (railName: Rail, ending: string) =>
  railName === 'USDC'
    ? { type: railName, address: `0x000000000000000000000000000000000000${ending === '0002' ? 'dead' : 'beef'}` }
    : { type: railName, routingNumber: '021000021', accountNumber: `00001111${ending}` };

describe('transfers keep the ledger invariant under random runs with faults (DynamoDB Local)', () => {
  let table: Awaited<ReturnType<typeof createTestTable>>;
  const faults = { conflicts: 0, lostAnswers: 0, retries: 0 };
  let injecting = false;
  const outcomes: Record<string, number> = {};
  beforeAll(async () => {
    table = await createTestTable({
      transact: {
        sleep: async () => undefined,
        injectConflict: () => {
          // Only while the commands run: a run's setup (wallets, fundings) is not under test.
          const conflict = injecting && Math.random() < 0.2;
          if (conflict) faults.conflicts++;
          return conflict;
        },
      },
    });
  });

  async function run(commands: Command[], permissiveCancels: boolean): Promise<string[]> {
    const clock = fixedClock(new Date('2026-11-23T12:00:00.000Z'));
    const scope = { organizationId: newId('organization'), environment: 'SANDBOX' as const };
    const walletIds = Array.from({ length: WALLETS }, () => newId('wallet'));
    injecting = false;
    await table.store.commit(
      walletIds.map((id) => ({
        type: 'createWallet' as const,
        wallet: newWallet({
          id,
          ...scope,
          name: id,
          walletType: 'ORG',
          isMain: false,
          createdAt: clock.now().toISOString(),
        }),
      })),
    );
    const ledger = createLedgerService({ store: createLedgerStore(table), clock, ids: newId });
    for (const walletId of walletIds)
      await ledger.post(scope, {
        from: systemAccount('acc_SANDBOX_FUNDING'),
        to: walletAccount(walletId),
        amount: FUNDED,
        type: 'FUNDING',
      });
    injecting = true;

    const real = createTransferStore(table);
    const store: TransferStore = {
      ...real,
      commit: async (changes) => {
        await real.commit(changes);
        if (Math.random() < 0.05) {
          faults.lostAnswers++;
          throw new LostResponse();
        }
      },
    };
    const transfers = createTransferService(
      {
        store,
        clock,
        ids: newId,
        issueKey: () => {
          throw new Error('unused');
        },
        limits: { walletsPerEnvironment: 100, sandboxFundingMax: '10000' },
        timeScale: 60,
      },
      // Half the runs with a rail that accepts every cancel: cancels then race settlements at the database.
      {
        rails: {
          SANDBOX: permissiveCancels
            ? { ...sandboxRail(clock, 60), cancel: async () => ({ cancelled: true as const }) }
            : sandboxRail(clock, 60),
          PRODUCTION: unconfiguredRail,
        },
        sealer: localSealer(randomBytes(32).toString('hex')),
      },
    );
    const ctx: RequestContext = {
      principal: {
        kind: 'ORGANIZATION',
        keyId: 'key_property',
        ...scope,
        permissions: ['wallets:read', 'wallets:write', 'payments:read', 'payments:write'],
        walletId: null,
      },
      actor: { actorType: 'API_KEY', actorId: 'key_property', ipAddress: '203.0.113.9' },
      requestId: 'property',
    };
    const ids: string[] = [];
    const pick = (i: number) => (ids.length === 0 ? undefined : ids[i % ids.length]!);

    /** A call whose answer may be lost: tried again as the same request. */
    async function retried<T>(call: () => Promise<T>): Promise<T | undefined> {
      for (let attempt = 1; ; attempt++) {
        try {
          const answer = await call();
          // A refusal kept under the idempotency key is answered, not thrown.
          const refused = (answer as { status?: number; body?: { error?: { code?: string } } } | undefined)?.body?.error
            ?.code;
          if (refused) outcomes[refused] = (outcomes[refused] ?? 0) + 1;
          return answer;
        } catch (error) {
          if (
            (error instanceof LostResponse || (error instanceof ApiError && error.code === 'CONCURRENT_UPDATE')) &&
            attempt < 5
          ) {
            faults.retries++;
            continue;
          }
          if (error instanceof ApiError) {
            outcomes[error.code] = (outcomes[error.code] ?? 0) + 1;
            return undefined;
          }
          throw error;
        }
      }
    }

    for (const [n, c] of commands.entries()) {
      const key = `${scope.organizationId}-${n}`;
      outcomes[c.kind] = (outcomes[c.kind] ?? 0) + 1;
      if (c.kind === 'deposit') {
        const currency = c.rail === 'USDC' ? 'USDC' : 'USD';
        const answer = await retried(() =>
          transfers.deposit(
            ctx,
            AUDIT.transfer.deposit,
            {
              walletId: walletIds[c.wallet]!,
              amount: amountIn(c.rail, c.cents, c.micros),
              currency,
              counterparty: counterpartyOf(c.rail, c.failing ? '0002' : '1234'),
            },
            key,
          ),
        );
        if (answer && answer.status < 300 && !ids.includes((answer.body as { id: string }).id))
          ids.push((answer.body as { id: string }).id);
      } else if (c.kind === 'withdraw') {
        const currency = c.rail === 'USDC' ? 'USDC' : 'USD';
        const ending = c.magic === 'fail' ? '0002' : c.magic === 'reject' && c.rail !== 'USDC' ? '0003' : '1234';
        const answer = await retried(() =>
          transfers.withdraw(
            ctx,
            AUDIT.transfer.withdraw,
            {
              walletId: walletIds[c.wallet]!,
              amount: amountIn(c.rail, c.cents, c.micros),
              currency,
              counterparty: counterpartyOf(c.rail, ending),
            },
            key,
          ),
        );
        if (answer && answer.status < 300 && !ids.includes((answer.body as { id: string }).id))
          ids.push((answer.body as { id: string }).id);
      } else if (c.kind === 'internal') {
        await retried(() =>
          transfers.internal(
            ctx,
            AUDIT.transfer.internal,
            { fromWalletId: walletIds[c.from]!, toWalletId: walletIds[c.to]!, amount: amountOf(c.cents) },
            key,
          ),
        );
      } else if (c.kind === 'tick') {
        clock.advance(c.ms);
      } else if (c.kind === 'freeze') {
        const walletId = walletIds[c.wallet]!;
        await retried(() =>
          table.store.commit([
            {
              type: 'updateWallet',
              walletId,
              trigger: c.frozen ? 'freeze' : 'unfreeze',
              set: { status: c.frozen ? 'FROZEN' : 'ACTIVE' },
            },
          ]),
        );
      } else {
        const id = pick(c.transfer);
        if (!id) continue;
        if (c.kind === 'step') {
          const step = () => retried(() => transfers.runStep({ step: c.step, transferId: id }));
          await (c.twice ? Promise.all([step(), step()]) : step());
        } else if (c.kind === 'cancel') {
          await retried(() => transfers.cancel(ctx, AUDIT.transfer.cancel, id));
        } else if (c.kind === 'advance') {
          await retried(() => transfers.advance(ctx, AUDIT.transfer.advance, id, c.to));
        } else if (c.kind === 'race') {
          // The workflow's settle, a client's cancel and the test helper at once on one transfer.
          await Promise.all([
            retried(() => transfers.runStep({ step: 'settle', transferId: id })),
            retried(() => transfers.cancel(ctx, AUDIT.transfer.cancel, id)),
            retried(() => transfers.advance(ctx, AUDIT.transfer.advance, id, c.to)),
          ]);
        } else {
          await retried(() => transfers.releaseClearing(id));
        }
      }
    }
    return [
      ...(await checkLedger(table.client, table.tableName)).problems,
      ...(await balancesFollowTransfers(real, scope, walletIds)),
    ];
  }

  /** Each wallet's buckets as its funding and its transfers' final states say. */
  async function balancesFollowTransfers(
    store: TransferStore,
    scope: { organizationId: string; environment: 'SANDBOX' },
    walletIds: string[],
  ): Promise<string[]> {
    const all: Transfer[] = (await store.listTransfers(scope, {}, { limit: 100 })).items;
    const expected = new Map(walletIds.map((id) => [id, { available: FUNDED, held: new Big(0), pending: new Big(0) }]));
    for (const t of all) {
      const wallet = expected.get(t.walletId)!;
      const total = new Big(t.amount).plus(t.fee);
      if (t.direction === 'WITHDRAWAL' && (t.status === 'INITIATED' || t.status === 'PENDING')) {
        wallet.available = wallet.available.minus(total);
        wallet.held = wallet.held.plus(total);
      } else if (t.direction === 'WITHDRAWAL' && t.status === 'COMPLETED') {
        wallet.available = wallet.available.minus(total);
      } else if (t.direction === 'DEPOSIT' && t.status === 'COMPLETED') {
        if (t.clearing === 'PENDING') wallet.pending = wallet.pending.plus(netAmountOf(t));
        else wallet.available = wallet.available.plus(netAmountOf(t));
      } else if (t.direction === 'INTERNAL' && t.status === 'COMPLETED') {
        wallet.available = wallet.available.minus(t.amount);
        const to = expected.get(t.toWalletId!)!;
        to.available = to.available.plus(t.amount);
      }
    }
    const problems: string[] = [];
    for (const id of walletIds) {
      const wallet = (await store.getWallet(id))!;
      const want = expected.get(id)!;
      if (
        !wallet.balance.eq(want.available) ||
        !wallet.heldBalance.eq(want.held) ||
        !wallet.pendingBalance.eq(want.pending)
      ) {
        problems.push(
          `wallet ${id}: available/held/pending ${wallet.balance.toFixed()}/${wallet.heldBalance.toFixed()}/${wallet.pendingBalance.toFixed()}, transfers say ${want.available.toFixed()}/${want.held.toFixed()}/${want.pending.toFixed()}`,
        );
      }
    }
    return problems;
  }

  it('after every run: zero sum, nothing negative, holds settled once, balances as the transfer states say', async () => {
    let operations = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: STEPS, maxLength: STEPS }),
        fc.boolean(),
        async (commands, permissiveCancels) => {
          operations += commands.length;
          expect(await run(commands, permissiveCancels)).toEqual([]);
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `transfer property (DynamoDB Local): ${operations} operations, ${faults.conflicts} TransactionConflicts and ${faults.lostAnswers} lost answers injected, ${faults.retries} retries; outcomes ${JSON.stringify(outcomes)}`,
    );
    expect(operations).toBe(RUNS * STEPS);
  }, 600_000);
});
