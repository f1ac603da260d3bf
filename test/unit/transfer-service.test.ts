import { randomBytes } from 'node:crypto';
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { newId } from '../../shared/domain/ids.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import { sandboxRail, unconfiguredRail } from '../../shared/domain/transfers/sandbox-rail.js';
import { createTransferService } from '../../shared/domain/transfers/transfer-service.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { createMemoryTransferStore } from '../fakes/memory-transfer-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

/**
 * The rules of transfers (deposits, withdrawals, internal transfers, cancel) over the in-memory
 * TransferStore (held to the DynamoDB store by test/contracts/transfer-store-contract.ts), with the
 * sandbox rail and a fixed clock; the workflow's steps are run by the test. The HTTP journeys
 * (auth, body validation, headers, environments) stay in test/e2e/transfers.test.ts.
 */
function world() {
  const memory = createMemoryTransferStore();
  const clock = fixedClock(new Date('2026-11-21T10:00:00.000Z'));
  const base = serviceWorld(clock, memory.table);
  const started: string[] = [];
  const service = createTransferService(
    { ...base.deps, store: memory.store },
    {
      rails: { SANDBOX: sandboxRail(clock, 1), PRODUCTION: unconfiguredRail },
      sealer: localSealer(randomBytes(32).toString('hex')),
      workflows: { start: async (transfer) => void started.push(transfer.id) },
      log: { error: () => undefined },
    },
  );
  const { scope, ctx, agentCtx, wallet } = base;
  /** available / pending / held of a wallet. */
  const balancesOf = async (walletId: string) => {
    const w = (await memory.store.getWallet(walletId))!;
    return [w.balance.toFixed(2), w.pendingBalance.toFixed(2), w.heldBalance.toFixed(2)];
  };
  const bank = (accountNumber = '000123456789') => ({
    type: 'ACH' as const,
    routingNumber: '021000021',
    accountNumber,
  });
  /** Runs the workflow as Step Functions would: submit, wait until the rail settles, settle. */
  const runWorkflow = async (transferId: string) => {
    const submitted = await service.runStep({ step: 'submit', transferId });
    if (submitted.status !== 'PENDING') return submitted;
    clock.set(new Date(submitted.settleAt!));
    return service.runStep({ step: 'settle', transferId });
  };
  const policyOf = (walletId: string, fields: Partial<Policy>): Policy => ({
    id: newId('policy'),
    walletId,
    ...scope,
    name: 'Listed recipients',
    maxTransactionAmount: new Big('500'),
    requireHumanApproval: false,
    status: 'ACTIVE',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...fields,
  });
  return { memory, clock, service, ctx, agentCtx, scope, wallet, balancesOf, bank, runWorkflow, policyOf, started };
}

const idOf = (answer: { body: unknown }) => (answer.body as { id: string }).id;

describe('transfer service: deposits', () => {
  it('refuses a deposit under the 25.00 minimum with INVALID_AMOUNT, and takes 25.00 (202 INITIATED, workflow started)', async () => {
    const w = world();
    const wallet = w.wallet('0');
    expect(
      await refusalOf(
        w.service.deposit(w.ctx, AUDIT.transfer.deposit, {
          walletId: wallet,
          amount: '24.99',
          currency: 'USD',
          counterparty: w.bank(),
        }),
      ),
    ).toMatchObject({ code: 'INVALID_AMOUNT', details: { field: 'amount', minimum: '25.00' } });
    for (const amount of ['0', '-30.00', '25.001', 'abc']) {
      expect(
        await refusalOf(
          w.service.deposit(w.ctx, AUDIT.transfer.deposit, {
            walletId: wallet,
            amount,
            currency: 'USD',
            counterparty: w.bank(),
          }),
        ),
      ).toMatchObject({ code: 'INVALID_AMOUNT' });
    }
    expect(w.memory.table.items.transfers.size).toBe(0);
    const answer = await w.service.deposit(w.ctx, AUDIT.transfer.deposit, {
      walletId: wallet,
      amount: '25.00',
      currency: 'USD',
      counterparty: w.bank(),
    });
    expect(answer).toMatchObject({
      status: 202,
      body: { status: 'INITIATED', amount: '25.00', fee: '0.25', direction: 'DEPOSIT', rail: 'ACH' },
    });
    expect(w.started).toEqual([idOf(answer)]);
  });

  it('refuses a rail that does not move the currency (USDC on ACH, USD on USDC) and creates nothing', async () => {
    const w = world();
    const wallet = w.wallet('0');
    expect(
      await refusalOf(
        w.service.deposit(w.ctx, AUDIT.transfer.deposit, {
          walletId: wallet,
          amount: '30.00',
          currency: 'USDC',
          counterparty: w.bank(),
        }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'source.type' } });
    const usdc = { type: 'USDC' as const, address: '0x52908400098527886E0F7030069857D2E4169EE7' };
    expect(
      await refusalOf(
        w.service.deposit(w.ctx, AUDIT.transfer.deposit, {
          walletId: wallet,
          amount: '30.00',
          currency: 'USD',
          counterparty: usdc,
        }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'source.type' } });
    expect(w.memory.table.items.transfers.size).toBe(0);
  });

  it('credits a completed ACH deposit net of its fee to pending, then to available when the clearing ends', async () => {
    const w = world();
    const wallet = w.wallet('0');
    const id = idOf(
      await w.service.deposit(w.ctx, AUDIT.transfer.deposit, {
        walletId: wallet,
        amount: '100.00',
        currency: 'USD',
        counterparty: w.bank(),
      }),
    );
    expect(await w.runWorkflow(id)).toMatchObject({ status: 'COMPLETED' });
    expect(await w.balancesOf(wallet)).toEqual(['0.00', '99.50', '0.00']);
    const transfer = (await w.memory.store.getTransfer(id))!;
    w.clock.set(new Date(transfer.availableAt!));
    expect(await w.service.releaseClearing(id)).toBe('released');
    expect(await w.service.releaseClearing(id)).toBe('done');
    expect(await w.balancesOf(wallet)).toEqual(['99.50', '0.00', '0.00']);
  });

  it('replays a deposit under the same idempotency key: the first answer, one transfer', async () => {
    const w = world();
    const wallet = w.wallet('0');
    const input = { walletId: wallet, amount: '40.00', currency: 'USD' as const, counterparty: w.bank() };
    const first = await w.service.deposit(w.ctx, AUDIT.transfer.deposit, input, 'key-1');
    const again = await w.service.deposit(w.ctx, AUDIT.transfer.deposit, input, 'key-1');
    expect(again).toMatchObject({ status: 202, replayed: true, body: first.body });
    expect(w.memory.table.items.transfers.size).toBe(1);
    expect(
      await refusalOf(w.service.deposit(w.ctx, AUDIT.transfer.deposit, { ...input, amount: '41.00' }, 'key-1')),
    ).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSE' });
    expect(w.memory.table.items.transfers.size).toBe(1);
  });
});

describe('transfer service: withdrawals', () => {
  it('holds amount and fee at once, and captures the hold when the rail settles', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const answer = await w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
      walletId: wallet,
      amount: '50.00',
      currency: 'USD',
      counterparty: w.bank(),
    });
    expect(answer).toMatchObject({ status: 201, body: { status: 'INITIATED', amount: '50.00', fee: '0.25' } });
    expect(await w.balancesOf(wallet)).toEqual(['49.75', '0.00', '50.25']);
    expect(await w.runWorkflow(idOf(answer))).toMatchObject({ status: 'COMPLETED' });
    expect(await w.balancesOf(wallet)).toEqual(['49.75', '0.00', '0.00']);
  });

  it.each([
    ['rejected at submission', '000000000003'],
    ['failed at settlement', '000000000002'],
  ])('voids the hold of a withdrawal %s: amount and fee come back', async (_case, accountNumber) => {
    const w = world();
    const wallet = w.wallet('100.00');
    const id = idOf(
      await w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
        walletId: wallet,
        amount: '50.00',
        currency: 'USD',
        counterparty: w.bank(accountNumber),
      }),
    );
    expect(await w.balancesOf(wallet)).toEqual(['49.75', '0.00', '50.25']);
    expect(await w.runWorkflow(id)).toMatchObject({ status: 'FAILED' });
    expect(await w.balancesOf(wallet)).toEqual(['100.00', '0.00', '0.00']);
  });

  it('refuses more than the balance (amount plus fee) with INSUFFICIENT_FUNDS and changes nothing', async () => {
    const w = world();
    const wallet = w.wallet('50.00');
    expect(
      await refusalOf(
        w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
          walletId: wallet,
          amount: '50.00',
          currency: 'USD',
          counterparty: w.bank(),
        }),
      ),
    ).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { walletId: wallet } });
    expect(await w.balancesOf(wallet)).toEqual(['50.00', '0.00', '0.00']);
    expect(w.memory.table.items.transfers.size).toBe(0);
  });

  it('refuses a withdrawal to bank numbers where a policy lists recipients with POLICY_DENIED, holding nothing', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    w.memory.addPolicy(wallet, w.policyOf(wallet, { allowedRecipients: ['ba_somewhere'] }));
    expect(
      await refusalOf(
        w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
          walletId: wallet,
          amount: '10.00',
          currency: 'USD',
          counterparty: w.bank(),
        }),
      ),
    ).toMatchObject({ code: 'POLICY_DENIED', details: { rule: 'allowedRecipients' } });
    expect(await w.balancesOf(wallet)).toEqual(['100.00', '0.00', '0.00']);
    expect(w.memory.table.items.transfers.size).toBe(0);
  });

  it('cancels a PENDING withdrawal (the hold voided), and refuses to cancel it again or a COMPLETED one with INVALID_STATE', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const id = idOf(
      await w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
        walletId: wallet,
        amount: '20.00',
        currency: 'USD',
        counterparty: w.bank(),
      }),
    );
    expect(await w.service.runStep({ step: 'submit', transferId: id })).toMatchObject({ status: 'PENDING' });
    expect(await w.service.cancel(w.ctx, AUDIT.transfer.cancel, id)).toMatchObject({ status: 'CANCELLED' });
    expect(await w.balancesOf(wallet)).toEqual(['100.00', '0.00', '0.00']);
    expect(await refusalOf(w.service.cancel(w.ctx, AUDIT.transfer.cancel, id))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'CANCELLED' },
    });
    // The settle step that raced the cancel finds it done.
    expect(await w.service.runStep({ step: 'settle', transferId: id })).toMatchObject({ status: 'CANCELLED' });
    expect(await w.balancesOf(wallet)).toEqual(['100.00', '0.00', '0.00']);

    const done = idOf(
      await w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
        walletId: wallet,
        amount: '20.00',
        currency: 'USD',
        counterparty: w.bank(),
      }),
    );
    expect(await w.runWorkflow(done)).toMatchObject({ status: 'COMPLETED' });
    expect(await refusalOf(w.service.cancel(w.ctx, AUDIT.transfer.cancel, done))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'COMPLETED' },
    });
    expect(await w.balancesOf(wallet)).toEqual(['79.75', '0.00', '0.00']);
  });

  it('refuses to cancel an INITIATED transfer (not yet at the rail) with INVALID_STATE', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const id = idOf(
      await w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
        walletId: wallet,
        amount: '20.00',
        currency: 'USD',
        counterparty: w.bank(),
      }),
    );
    expect(await refusalOf(w.service.cancel(w.ctx, AUDIT.transfer.cancel, id))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'INITIATED' },
    });
    expect(await w.balancesOf(wallet)).toEqual(['79.75', '0.00', '20.25']);
  });
});

describe('transfer service: internal transfers', () => {
  it('moves both balances at once (COMPLETED, no fee)', async () => {
    const w = world();
    const from = w.wallet('100.00');
    const to = w.wallet('5.00');
    const answer = await w.service.internal(w.ctx, AUDIT.transfer.internal, {
      fromWalletId: from,
      toWalletId: to,
      amount: '30.00',
      description: 'top-up',
    });
    expect(answer).toMatchObject({
      status: 201,
      body: { status: 'COMPLETED', direction: 'INTERNAL', amount: '30.00', fee: '0.00' },
    });
    expect([await w.balancesOf(from), await w.balancesOf(to)]).toEqual([
      ['70.00', '0.00', '0.00'],
      ['35.00', '0.00', '0.00'],
    ]);
    expect(await refusalOf(w.service.cancel(w.ctx, AUDIT.transfer.cancel, idOf(answer)))).toMatchObject({
      code: 'INVALID_STATE',
    });
  });

  it('refuses the same wallet on both ends with SELF_PAYMENT, more than the balance with INSUFFICIENT_FUNDS, and a blocked recipient with POLICY_DENIED, moving nothing', async () => {
    const w = world();
    const from = w.wallet('10.00');
    const to = w.wallet('0');
    expect(
      await refusalOf(
        w.service.internal(w.ctx, AUDIT.transfer.internal, { fromWalletId: from, toWalletId: from, amount: '1.00' }),
      ),
    ).toMatchObject({ code: 'SELF_PAYMENT' });
    expect(
      await refusalOf(
        w.service.internal(w.ctx, AUDIT.transfer.internal, { fromWalletId: from, toWalletId: to, amount: '10.01' }),
      ),
    ).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { walletId: from } });
    w.memory.addPolicy(from, w.policyOf(from, { blockedRecipients: [to] }));
    expect(
      await refusalOf(
        w.service.internal(w.ctx, AUDIT.transfer.internal, { fromWalletId: from, toWalletId: to, amount: '1.00' }),
      ),
    ).toMatchObject({ code: 'POLICY_DENIED', details: { rule: 'blockedRecipients' } });
    expect([await w.balancesOf(from), await w.balancesOf(to)]).toEqual([
      ['10.00', '0.00', '0.00'],
      ['0.00', '0.00', '0.00'],
    ]);
    expect(w.memory.table.items.transfers.size).toBe(0);
  });

  it('replays an internal transfer under the same idempotency key without moving money twice', async () => {
    const w = world();
    const from = w.wallet('100.00');
    const to = w.wallet('0');
    const input = { fromWalletId: from, toWalletId: to, amount: '10.00' };
    const first = await w.service.internal(w.ctx, AUDIT.transfer.internal, input, 'key-2');
    expect(await w.service.internal(w.ctx, AUDIT.transfer.internal, input, 'key-2')).toMatchObject({
      status: 201,
      replayed: true,
      body: first.body,
    });
    expect([await w.balancesOf(from), await w.balancesOf(to)]).toEqual([
      ['90.00', '0.00', '0.00'],
      ['10.00', '0.00', '0.00'],
    ]);
  });
});

describe('transfer service: an agent key stays in its wallet', () => {
  it("answers WALLET_NOT_FOUND for another wallet's withdrawal or internal transfer, and TRANSFER_NOT_FOUND for its transfers", async () => {
    const w = world();
    const own = w.wallet('100.00', { walletType: 'AGENT' });
    const other = w.wallet('100.00');
    const agent = w.agentCtx(own);
    expect(
      await refusalOf(
        w.service.withdraw(agent, AUDIT.transfer.withdraw, {
          walletId: other,
          amount: '10.00',
          currency: 'USD',
          counterparty: w.bank(),
        }),
      ),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    expect(
      await refusalOf(
        w.service.internal(agent, AUDIT.transfer.internal, { fromWalletId: other, toWalletId: own, amount: '10.00' }),
      ),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    expect(
      await refusalOf(
        w.service.deposit(agent, AUDIT.transfer.deposit, {
          walletId: other,
          amount: '30.00',
          currency: 'USD',
          counterparty: w.bank(),
        }),
      ),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    const theirs = idOf(
      await w.service.withdraw(w.ctx, AUDIT.transfer.withdraw, {
        walletId: other,
        amount: '10.00',
        currency: 'USD',
        counterparty: w.bank(),
      }),
    );
    expect(await refusalOf(w.service.get(agent, theirs))).toMatchObject({ code: 'TRANSFER_NOT_FOUND' });
    expect(await refusalOf(w.service.cancel(agent, AUDIT.transfer.cancel, theirs))).toMatchObject({
      code: 'TRANSFER_NOT_FOUND',
    });
    expect((await w.service.list(agent, {}, { limit: 10 })).items).toEqual([]);
    const mine = idOf(
      await w.service.withdraw(agent, AUDIT.transfer.withdraw, {
        walletId: own,
        amount: '10.00',
        currency: 'USD',
        counterparty: w.bank(),
      }),
    );
    expect((await w.service.get(agent, mine)).id).toBe(mine);
    expect([await w.balancesOf(own), await w.balancesOf(other)]).toEqual([
      ['89.75', '0.00', '10.25'],
      ['89.75', '0.00', '10.25'],
    ]);
  });
});
