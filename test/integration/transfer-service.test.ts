import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../fixtures/log-capture.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { TransferView } from '../../shared/domain/transfers/transfer-view.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { createTransferStore } from '../../shared/persistence/transfer-store.js';
import type { TransferRail } from '../../shared/domain/transfers/ports.js';
import { unconfiguredRail } from '../../shared/domain/transfers/sandbox-rail.js';
import { transferService } from '../../shared/runtime/services/transfers.js';
import { replayJournal } from '../../shared/persistence/journal-replay.js';
import { startTestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * The transfer service against DynamoDB Local, its workflow steps driven by hand on a fixed clock
 * (test/integration/transfer-workflow.test.ts runs the same steps inside the state machine).
 */
async function startTransfers() {
  const clock = fixedClock(new Date('2026-11-23T10:00:00.000Z'));
  const { app, table, createOrganization } = await startTestApp(
    { DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'), TIME_SCALE: '60' },
    { clock },
  );
  const organization = () => createOrganization('Transfers Org');
  const wallet = async (ctx: RequestContext, id: string) => {
    const found = await app.services.wallets.get(ctx, id);
    return {
      balance: found.balance.toFixed(2),
      held: found.heldBalance.toFixed(2),
      pending: found.pendingBalance.toFixed(2),
    };
  };
  const events = async (organizationId: string) => {
    const items = await table.client.send(
      new (await import('@aws-sdk/lib-dynamodb')).ScanCommand({
        TableName: table.tableName,
        FilterExpression: 'entityType = :e AND organizationId = :o',
        ExpressionAttributeValues: { ':e': 'OUTBOX_EVENT', ':o': organizationId },
      }),
    );
    return (items.Items ?? [])
      .map((item) => ({ type: String(item.type), data: item.data as Record<string, unknown> }))
      .filter((event) => /^(deposit|withdrawal|wallet\.funds)/.test(event.type));
  };
  const ledgerProblems = async () => (await checkLedger(table.client, table.tableName)).problems;
  return { app, table, clock, organization, wallet, events, ledgerProblems, transfers: app.services.transfers };
}

const bank = (accountNumber: string, type: 'ACH' | 'WIRE' | 'FEDNOW' = 'ACH') => ({
  type,
  routingNumber: '021000021',
  accountNumber,
});

describe('transfers against DynamoDB Local', () => {
  it('an ACH deposit goes INITIATED -> PENDING -> COMPLETED, credits amount - fee into pendingBalance, then clears to balance', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    const created = await t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, {
      walletId: org.mainWalletId,
      amount: '100.00',
      currency: 'USD',
      counterparty: bank('000123456789'),
    });
    const body = created.body as TransferView;
    expect(created.status).toBe(202);
    expect(body).toMatchObject({
      status: 'INITIATED',
      amount: '100.00',
      fee: '0.50',
      netAmount: '99.50',
      rail: 'ACH',
      direction: 'DEPOSIT',
    });
    expect(body.source).toMatchObject({ type: 'ACH', routingNumber: '021000021', last4: '6789' });
    expect(JSON.stringify(body)).not.toContain('000123456789');

    const submitted = await t.transfers.runStep({ step: 'submit', transferId: body.id });
    expect(submitted.status).toBe('PENDING');
    // ACH settles after 3 minutes / TIME_SCALE 60 = 3 s.
    expect(Date.parse(submitted.settleAt!) - t.clock.now().getTime()).toBe(3000);
    expect(await t.transfers.runStep({ step: 'settle', transferId: body.id })).toMatchObject({
      status: 'PENDING',
      settleAt: submitted.settleAt,
    });
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '0.00', held: '0.00', pending: '0.00' });

    t.clock.advance(3000);
    expect(await t.transfers.runStep({ step: 'settle', transferId: body.id })).toEqual({
      transferId: body.id,
      status: 'COMPLETED',
    });
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '0.00', held: '0.00', pending: '99.50' });
    const completed = await t.transfers.get(org.ctx, body.id);
    expect(completed).toMatchObject({ status: 'COMPLETED', clearing: 'PENDING' });
    // A step run again finds the work done.
    expect(await t.transfers.runStep({ step: 'settle', transferId: body.id })).toEqual({
      transferId: body.id,
      status: 'COMPLETED',
    });

    expect(await t.transfers.releaseClearing(body.id)).toBe('not-due');
    t.clock.advance(2000);
    expect(await t.transfers.releaseClearing(body.id)).toBe('released');
    expect(await t.transfers.releaseClearing(body.id)).toBe('done');
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '99.50', held: '0.00', pending: '0.00' });
    expect((await t.events(org.organizationId)).map((e) => e.type).sort()).toEqual([
      'deposit.completed',
      'deposit.initiated',
      'wallet.funds_available',
      'wallet.funds_pending',
    ]);
    // The stored transfer holds the account number only sealed.
    const raw = await t.table.client.send(
      new (await import('@aws-sdk/lib-dynamodb')).GetCommand({
        TableName: t.table.tableName,
        Key: { PK: `TRANSFER#${body.id}`, SK: 'TRANSFER' },
      }),
    );
    expect(JSON.stringify(raw.Item)).not.toContain('000123456789');
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('a withdrawal holds amount + fee, captures it on settlement, and the fee reaches acc_FEES', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '500.00');
    const created = await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
      walletId: org.mainWalletId,
      amount: '200.00',
      currency: 'USD',
      counterparty: bank('000111112222', 'WIRE'),
    });
    const body = created.body as TransferView;
    expect(body).toMatchObject({ status: 'INITIATED', fee: '1.00', netAmount: '201.00', rail: 'WIRE' });
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '299.00', held: '201.00', pending: '0.00' });
    await t.transfers.runStep({ step: 'submit', transferId: body.id });
    t.clock.advance(1000);
    expect((await t.transfers.runStep({ step: 'settle', transferId: body.id })).status).toBe('COMPLETED');
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '299.00', held: '0.00', pending: '0.00' });
    await replayJournal(t.table);
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('a withdrawal to an account ending 0002 fails at settlement and returns amount and fee; 0003 is rejected at submission', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const failing = (
      await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '10.00',
        currency: 'USD',
        counterparty: bank('000000000002', 'FEDNOW'),
      })
    ).body as TransferView;
    expect(failing.fee).toBe('0.25');
    await t.transfers.runStep({ step: 'submit', transferId: failing.id });
    expect((await t.transfers.runStep({ step: 'settle', transferId: failing.id })).status).toBe('FAILED');
    expect(await t.transfers.get(org.ctx, failing.id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'R03_NO_ACCOUNT',
    });

    const rejected = (
      await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '10.00',
        currency: 'USD',
        counterparty: bank('000000000003'),
      })
    ).body as TransferView;
    expect(await t.transfers.runStep({ step: 'submit', transferId: rejected.id })).toEqual({
      transferId: rejected.id,
      status: 'FAILED',
    });
    expect(await t.transfers.get(org.ctx, rejected.id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'SUBMISSION_REJECTED',
    });
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '100.00', held: '0.00', pending: '0.00' });
    expect((await t.events(org.organizationId)).map((e) => e.type).sort()).toEqual([
      'withdrawal.failed',
      'withdrawal.failed',
      'withdrawal.initiated',
    ]);
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('cancel and settlement racing: exactly one wins, and the money follows the winner', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '1000.00');
    // A rail that settles at once and still accepts cancels: the database alone decides the race.
    const permissive: TransferRail = {
      submit: async (transfer) => ({ accepted: true, reference: transfer.id, settleAt: t.clock.now().toISOString() }),
      settlement: async () => ({ outcome: 'SETTLED' }),
      cancel: async () => ({ cancelled: true }),
    };
    const transfers = transferService(t.app.core, { rails: { SANDBOX: permissive, PRODUCTION: unconfiguredRail } });
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const body = (
        await transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
          walletId: org.mainWalletId,
          amount: '50.00',
          currency: 'USD',
          counterparty: bank('000444445555', 'FEDNOW'),
        })
      ).body as TransferView;
      await transfers.runStep({ step: 'submit', transferId: body.id });
      const [cancel, settle] = await Promise.allSettled([
        transfers.cancel(org.ctx, AUDIT.transfer.cancel, body.id),
        transfers.runStep({ step: 'settle', transferId: body.id }),
      ]);
      const final = await transfers.get(org.ctx, body.id);
      expect(['CANCELLED', 'COMPLETED']).toContain(final.status);
      if (final.status === 'CANCELLED') {
        expect(cancel.status).toBe('fulfilled');
        expect(settle.status === 'fulfilled' && settle.value.status).toBe('CANCELLED');
      } else {
        expect(cancel.status === 'rejected' && (cancel.reason as ApiError).code).toBe('INVALID_STATE');
      }
      outcomes.add(final.status);
    }
    console.log(`cancel/settle race outcomes over 12 rounds: ${[...outcomes].join(', ')}`);
    const listed = await t.transfers.list(org.ctx, {}, { limit: 100 });
    const completed = listed.items.filter((transfer) => transfer.status === 'COMPLETED').length;
    expect((await t.wallet(org.ctx, org.mainWalletId)).balance).toBe((1000 - completed * 50.25).toFixed(2));
    expect((await t.wallet(org.ctx, org.mainWalletId)).held).toBe('0.00');
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('cancel from PENDING returns amount and fee; afterwards, and before submission, it answers INVALID_STATE', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const body = (
      await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '40.00',
        currency: 'USD',
        counterparty: bank('000444445555'),
      })
    ).body as TransferView;
    await expect(t.transfers.cancel(org.ctx, AUDIT.transfer.cancel, body.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    await t.transfers.runStep({ step: 'submit', transferId: body.id });
    expect(await t.transfers.cancel(org.ctx, AUDIT.transfer.cancel, body.id)).toMatchObject({ status: 'CANCELLED' });
    await expect(t.transfers.cancel(org.ctx, AUDIT.transfer.cancel, body.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '100.00', held: '0.00', pending: '0.00' });
    t.clock.advance(10 * 60_000);
    expect(await t.transfers.runStep({ step: 'settle', transferId: body.id })).toEqual({
      transferId: body.id,
      status: 'CANCELLED',
    });
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('internal transfers post at once between two wallets of the organization; self, foreign and frozen wallets are refused', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    const other = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const second = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Second' });
    const done = (
      await t.transfers.internal(org.ctx, AUDIT.transfer.internal, {
        fromWalletId: org.mainWalletId,
        toWalletId: second.id,
        amount: '30.00',
        description: 'float',
      })
    ).body as TransferView;
    expect(done).toMatchObject({
      status: 'COMPLETED',
      rail: 'INTERNAL',
      direction: 'INTERNAL',
      fee: '0.00',
      toWalletId: second.id,
    });
    expect(await t.wallet(org.ctx, second.id)).toMatchObject({ balance: '30.00' });
    await expect(
      t.transfers.internal(org.ctx, AUDIT.transfer.internal, {
        fromWalletId: org.mainWalletId,
        toWalletId: org.mainWalletId,
        amount: '1.00',
      }),
    ).rejects.toMatchObject({ code: 'SELF_PAYMENT' });
    await expect(
      t.transfers.internal(org.ctx, AUDIT.transfer.internal, {
        fromWalletId: org.mainWalletId,
        toWalletId: other.mainWalletId,
        amount: '1.00',
      }),
    ).rejects.toMatchObject({ code: 'WALLET_NOT_FOUND' });
    await expect(
      t.transfers.internal(org.ctx, AUDIT.transfer.internal, {
        fromWalletId: org.mainWalletId,
        toWalletId: second.id,
        amount: '1000.00',
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(t.transfers.get(other.ctx, done.id)).rejects.toMatchObject({ code: 'TRANSFER_NOT_FOUND' });
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('the same idempotency key answers the first deposit again and creates one transfer; other parameters are IDEMPOTENCY_KEY_REUSE', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    const input = {
      walletId: org.mainWalletId,
      amount: '25',
      currency: 'USD' as const,
      counterparty: bank('000123456789'),
    };
    const first = await t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, input, 'dep-1');
    const again = await t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, { ...input, amount: '25.00' }, 'dep-1');
    expect(again).toMatchObject({ status: 202, replayed: true, body: first.body });
    await expect(
      t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, { ...input, amount: '26.00' }, 'dep-1'),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSE' });
    expect(
      (
        await createTransferStore(t.table).listTransfers(
          { organizationId: org.organizationId, environment: 'SANDBOX' },
          {},
          { limit: 10 },
        )
      ).items,
    ).toHaveLength(1);
    await expect(
      t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, { ...input, amount: '24.99' }),
    ).rejects.toMatchObject({ code: 'INVALID_AMOUNT' });
  });
  it('a cancel committed while the settle step is waiting on the rail wins: the step then finds the transfer CANCELLED and moves nothing', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: TransferRail = {
      submit: async (transfer) => ({ accepted: true, reference: transfer.id, settleAt: t.clock.now().toISOString() }),
      settlement: async () => {
        await gate;
        return { outcome: 'SETTLED' };
      },
      cancel: async () => ({ cancelled: true }),
    };
    const transfers = transferService(t.app.core, { rails: { SANDBOX: slow, PRODUCTION: unconfiguredRail } });
    const body = (
      await transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '30.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'WIRE'),
      })
    ).body as TransferView;
    await transfers.runStep({ step: 'submit', transferId: body.id });
    const settling = transfers.runStep({ step: 'settle', transferId: body.id });
    expect(await transfers.cancel(org.ctx, AUDIT.transfer.cancel, body.id)).toMatchObject({ status: 'CANCELLED' });
    release();
    expect(await settling).toEqual({ transferId: body.id, status: 'CANCELLED' });
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '100.00', held: '0.00', pending: '0.00' });
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('the sandbox rail refuses a cancel once the transfer is settling (409 INVALID_STATE); the settlement then completes it', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const body = (
      await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '30.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'WIRE'),
      })
    ).body as TransferView;
    await t.transfers.runStep({ step: 'submit', transferId: body.id });
    t.clock.advance(1000);
    await expect(t.transfers.cancel(org.ctx, AUDIT.transfer.cancel, body.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { reason: 'ALREADY_SETTLING' },
    });
    expect((await t.transfers.runStep({ step: 'settle', transferId: body.id })).status).toBe('COMPLETED');
  });

  it('an agent with money held or clearing can not be deleted (it would be stranded); once its transfers finish it can', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '200.00');
    const agent = (await t.app.services.agents.create(org.ctx, AUDIT.wallet.create, { name: 'Withdrawing agent' }))
      .wallet;
    await t.app.services.agents.adjustBudget(org.ctx, AUDIT.wallet.adjustBudget, agent.id, '100.00', undefined);
    const out = (
      await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: agent.id,
        amount: '50.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'ACH'),
      })
    ).body as TransferView;
    await expect(t.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agent.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { heldBalance: '50.25000000' },
    });
    await t.transfers.runStep({ step: 'submit', transferId: out.id });
    await t.transfers.cancel(org.ctx, AUDIT.transfer.cancel, out.id);
    const deposit = (
      await t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, {
        walletId: agent.id,
        amount: '30.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'ACH'),
      })
    ).body as TransferView;
    await t.transfers.runStep({ step: 'submit', transferId: deposit.id });
    t.clock.advance(3000);
    await t.transfers.runStep({ step: 'settle', transferId: deposit.id });
    await expect(t.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agent.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { pendingBalance: '29.75000000' },
    });
    t.clock.advance(2000);
    expect(await t.transfers.releaseClearing(deposit.id)).toBe('released');
    await t.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agent.id);
    expect(await t.wallet(org.ctx, agent.id)).toEqual({ balance: '0.00', held: '0.00', pending: '0.00' });
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('a wallet whose policies list recipients withdraws only to a listed linked account or USDC address (case-insensitive), never to bank numbers', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '500.00');
    const linked = await t.app.services.bankAccounts.create(org.ctx, AUDIT.bankAccount.create, {
      routingNumber: '011000015',
      accountNumber: '000987654321',
      accountName: 'Ops',
      accountType: 'CHECKING',
    });
    await t.app.services.bankAccounts.verify(org.ctx, AUDIT.bankAccount.verify, linked.id, ['0.32', '0.45']);
    const other = await t.app.services.bankAccounts.create(org.ctx, AUDIT.bankAccount.create, {
      routingNumber: '011000015',
      accountNumber: '000111122223',
      accountName: 'Other',
      accountType: 'CHECKING',
    });
    await t.app.services.bankAccounts.verify(org.ctx, AUDIT.bankAccount.verify, other.id, ['0.32', '0.45']);
    await t.app.services.policies.create(org.ctx, AUDIT.policy.create, {
      walletId: org.mainWalletId,
      name: 'Only ops',
      maxTransactionAmount: '1000',
      requireHumanApproval: false,
      allowedRecipients: [linked.id, 'usdc:0xABCDEF0000000000000000000000000000000001'],
    });
    const withdraw = (input: Partial<Parameters<typeof t.transfers.withdraw>[2]>) =>
      t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '10.00',
        currency: 'USD',
        ...input,
      });
    expect((await withdraw({ bankAccountId: linked.id })).status).toBe(201);
    await expect(withdraw({ bankAccountId: other.id })).rejects.toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: 'allowedRecipients' },
    });
    // The same account by its numbers is refused: numbers can not be matched to a list for sure.
    await expect(withdraw({ counterparty: bank('000987654321') })).rejects.toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: 'allowedRecipients' },
    });
    expect(
      (
        await withdraw({
          currency: 'USDC',
          counterparty: { type: 'USDC', address: '0xabcdef0000000000000000000000000000000001' },
        })
      ).status,
    ).toBe(201);
    await expect(
      withdraw({
        currency: 'USDC',
        counterparty: { type: 'USDC', address: '0xabcdef0000000000000000000000000000000002' },
      }),
    ).rejects.toMatchObject({ code: 'POLICY_DENIED' });
  });

  it('a transfer to a linked account deleted before submission fails (BANK_ACCOUNT_DELETED) and returns the hold', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const linked = await t.app.services.bankAccounts.create(org.ctx, AUDIT.bankAccount.create, {
      routingNumber: '011000015',
      accountNumber: '000987654321',
      accountName: 'Ops',
      accountType: 'CHECKING',
    });
    await t.app.services.bankAccounts.verify(org.ctx, AUDIT.bankAccount.verify, linked.id, ['0.32', '0.45']);
    const body = (
      await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '10.00',
        currency: 'USD',
        bankAccountId: linked.id,
      })
    ).body as TransferView;
    await t.app.services.bankAccounts.remove(org.ctx, AUDIT.bankAccount.delete, linked.id);
    expect(await t.transfers.runStep({ step: 'submit', transferId: body.id })).toEqual({
      transferId: body.id,
      status: 'FAILED',
    });
    expect(await t.transfers.get(org.ctx, body.id)).toMatchObject({ failureReason: 'BANK_ACCOUNT_DELETED' });
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '100.00', held: '0.00', pending: '0.00' });
  });

  it('USDC amounts keep their 6 decimals in the journal: the hold and its capture record exactly amount + fee', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const body = (
      await t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '10.123456',
        currency: 'USDC',
        counterparty: { type: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' },
      })
    ).body as TransferView;
    expect(body).toMatchObject({ amount: '10.123456', fee: '0.25', netAmount: '10.373456' });
    expect((await t.app.services.wallets.get(org.ctx, org.mainWalletId)).balance.toFixed()).toBe('89.626544');
    await t.transfers.runStep({ step: 'submit', transferId: body.id });
    t.clock.advance(1000);
    expect((await t.transfers.runStep({ step: 'settle', transferId: body.id })).status).toBe('COMPLETED');
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const transfer = await t.transfers.get(org.ctx, body.id);
    const hold = await t.table.client.send(
      new GetCommand({ TableName: t.table.tableName, Key: { PK: `TXN#${transfer.holdId}`, SK: 'TXN' } }),
    );
    expect([hold.Item?.amount, hold.Item?.capturedAmount, hold.Item?.status]).toEqual([
      '10.373456',
      '10.373456',
      'CAPTURED',
    ]);
    expect(await t.ledgerProblems()).toEqual([]);
  });
  it('the reconciler does the overdue work of a transfer whose workflow never ran: submit, settle, end of clearing; then it is off its list', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    const store = createTransferStore(t.table);
    const body = (
      await t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, {
        walletId: org.mainWalletId,
        amount: '100.00',
        currency: 'USD',
        counterparty: bank('000123456789'),
      })
    ).body as TransferView;
    // Not overdue yet (grace: 5 minutes / TIME_SCALE 60 = 5 s).
    expect(await t.transfers.reconcileDue()).toBe(0);
    t.clock.advance(5001);
    expect(await t.transfers.reconcileDue()).toBe(1);
    expect((await t.transfers.get(org.ctx, body.id)).status).toBe('PENDING');
    // Settles at +3 s, overdue 5 s later.
    t.clock.advance(3000);
    expect(await t.transfers.reconcileDue()).toBe(0);
    t.clock.advance(5001);
    expect(await t.transfers.reconcileDue()).toBe(1);
    expect(await t.transfers.get(org.ctx, body.id)).toMatchObject({ status: 'COMPLETED', clearing: 'PENDING' });
    t.clock.advance(7001);
    expect(await t.transfers.reconcileDue()).toBe(1);
    expect(await t.transfers.get(org.ctx, body.id)).toMatchObject({ clearing: 'AVAILABLE' });
    expect((await t.transfers.get(org.ctx, body.id)).reconcileAt).toBeUndefined();
    t.clock.advance(24 * 3600_000);
    expect(await store.listDueTransfers(t.clock.now(), 10)).toEqual([]);
    expect(await t.wallet(org.ctx, org.mainWalletId)).toEqual({ balance: '99.50', held: '0.00', pending: '0.00' });
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('the reconciler defers a transfer it could not move (the rail failing) instead of retrying it on every run', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const down: TransferRail = {
      submit: async () => {
        throw new Error('rail unreachable');
      },
      settlement: async () => ({ outcome: 'SETTLED' }),
      cancel: async () => ({ cancelled: true }),
    };
    const transfers = transferService(t.app.core, { rails: { SANDBOX: down, PRODUCTION: unconfiguredRail } });
    const body = (
      await transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '10.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'WIRE'),
      })
    ).body as TransferView;
    t.clock.advance(5001);
    const quiet = transferService(t.app.core, { rails: { SANDBOX: down, PRODUCTION: unconfiguredRail } });
    const logs = captureLogs();
    let errors: string[];
    try {
      expect(await quiet.reconcileDue()).toBe(1);
      expect(await quiet.reconcileDue()).toBe(0);
    } finally {
      errors = logs.errors();
      logs.restore();
    }
    expect(errors).toHaveLength(1);
    const after = await transfers.get(org.ctx, body.id);
    expect(after.status).toBe('INITIATED');
    expect(Date.parse(after.reconcileAt!)).toBeGreaterThan(t.clock.now().getTime());
    // The rail is back: the next overdue run submits it.
    t.clock.advance(5001);
    expect(await t.transfers.reconcileDue()).toBe(1);
    expect((await t.transfers.get(org.ctx, body.id)).status).toBe('PENDING');
  });
  it("a withdrawal that fails or is cancelled gives its amount + fee back to the wallet's daily spend", async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '500.00');
    await t.app.services.policies.create(org.ctx, AUDIT.policy.create, {
      walletId: org.mainWalletId,
      name: 'Daily 50',
      maxTransactionAmount: '1000',
      requireHumanApproval: false,
      dailyLimit: '50',
    });
    const withdraw = () =>
      t.transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '40.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'WIRE'),
      });
    const first = (await withdraw()).body as TransferView;
    await expect(withdraw()).rejects.toMatchObject({ code: 'POLICY_DENIED', details: { rule: 'dailyLimit' } });
    await t.transfers.runStep({ step: 'submit', transferId: first.id });
    await t.transfers.cancel(org.ctx, AUDIT.transfer.cancel, first.id);
    const second = (await withdraw()).body as TransferView;
    await t.transfers.advance(org.ctx, AUDIT.transfer.advance, second.id, 'FAILED');
    expect((await withdraw()).status).toBe(201);
    // A payment sees the same counter: 40.25 of 50 spent.
    const payee = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payee' });
    await expect(
      t.app.services.payments.create(org.ctx, AUDIT.payment.create, {
        from: org.mainWalletId,
        to: payee.id,
        amount: '10.00',
      }),
    ).rejects.toMatchObject({ code: 'POLICY_DENIED', details: { rule: 'dailyLimit', spent: '40.25' } });
    expect(await t.ledgerProblems()).toEqual([]);
  });
  it("an agent with a deposit or withdrawal in flight can not be deleted; a deposit settling on a paused agent's wallet is credited", async () => {
    const t = await startTransfers();
    const org = await t.organization();
    const agent = (await t.app.services.agents.create(org.ctx, AUDIT.wallet.create, { name: 'Receiving agent' }))
      .wallet;
    const deposit = (
      await t.transfers.deposit(org.ctx, AUDIT.transfer.deposit, {
        walletId: agent.id,
        amount: '40.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'WIRE'),
      })
    ).body as TransferView;
    await expect(t.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agent.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { openTransfers: true },
    });
    await t.transfers.runStep({ step: 'submit', transferId: deposit.id });
    await expect(t.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agent.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { openTransfers: true },
    });
    // Paused meanwhile: the money accepted while it was active still arrives.
    await t.app.services.agents.pause(org.ctx, AUDIT.wallet.freeze, agent.id);
    t.clock.advance(1000);
    expect((await t.transfers.runStep({ step: 'settle', transferId: deposit.id })).status).toBe('COMPLETED');
    expect((await t.wallet(org.ctx, agent.id)).balance).toBe('39.75');
    // Settled: the agent can go, its balance swept to the main wallet.
    await t.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agent.id);
    expect((await t.wallet(org.ctx, org.mainWalletId)).balance).toBe('39.75');
    expect(await t.ledgerProblems()).toEqual([]);
  });
  it('tells the rail the account number at submission only: settlement and cancel get its last 4 digits', async () => {
    const t = await startTransfers();
    const org = await t.organization();
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const told: { call: string; counterparty: unknown }[] = [];
    const recording: TransferRail = {
      submit: async (transfer) => (
        told.push({ call: 'submit', counterparty: transfer.counterparty }),
        { accepted: true, reference: `ref_${transfer.id}`, settleAt: t.clock.now().toISOString() }
      ),
      settlement: async (transfer) => (
        told.push({ call: 'settlement', counterparty: transfer.counterparty }),
        { outcome: 'PENDING', settleAt: transfer.settleAt }
      ),
      cancel: async (transfer) => (
        told.push({ call: 'cancel', counterparty: transfer.counterparty }),
        { cancelled: true }
      ),
    };
    const transfers = transferService(t.app.core, { rails: { SANDBOX: recording, PRODUCTION: unconfiguredRail } });
    const body = (
      await transfers.withdraw(org.ctx, AUDIT.transfer.withdraw, {
        walletId: org.mainWalletId,
        amount: '10.00',
        currency: 'USD',
        counterparty: bank('000444445555', 'WIRE'),
      })
    ).body as TransferView;
    await transfers.runStep({ step: 'submit', transferId: body.id });
    await transfers.runStep({ step: 'settle', transferId: body.id });
    await transfers.cancel(org.ctx, AUDIT.transfer.cancel, body.id);
    expect(told).toEqual([
      {
        call: 'submit',
        counterparty: { kind: 'bank', routingNumber: '021000021', last4: '5555', accountNumber: '000444445555' },
      },
      { call: 'settlement', counterparty: { kind: 'bank', routingNumber: '021000021', last4: '5555' } },
      { call: 'cancel', counterparty: { kind: 'bank', routingNumber: '021000021', last4: '5555' } },
    ]);
  });
});
