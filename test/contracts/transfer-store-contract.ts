import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { TransferStore } from '../../shared/domain/transfers/ports.js';
import { withdrawalCapture, withdrawalHold, withdrawalVoid } from '../../shared/domain/transfers/transfer-postings.js';
import type { Transfer, TransferDirection, TransferStatus } from '../../shared/domain/transfers/types.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import type { Wallet } from '../../shared/domain/types.js';
import { at, collectIds, organizationScope, refusal, walletOf } from './money-fixtures.js';

/** A store under the contract, and how the test seeds what other areas write (wallets, with balances). */
export interface TransferStoreHarness {
  store: TransferStore;
  addWallet(wallet: Wallet): Promise<void>;
  /** A spend policy of the wallet (the policies area writes them). */
  addPolicy(policy: Policy): Promise<void>;
}

function transferOf(wallet: Wallet, minutes: number, overrides: Partial<Transfer> = {}): Transfer {
  return {
    id: newId('transfer'),
    organizationId: wallet.organizationId,
    environment: wallet.environment,
    walletId: wallet.id,
    direction: 'WITHDRAWAL',
    rail: 'ACH',
    currency: 'USD',
    amount: '10.00',
    fee: '0.50',
    status: 'INITIATED',
    destination: { type: 'ACH', routingNumber: '021000021', last4: '6789' } as Transfer['destination'],
    createdAt: at(minutes),
    ...overrides,
  };
}

/** The withdrawal's spend counted on the wallet (no limit): what the service passes with every hold. */
const spendOf = (transfer: Transfer) => ({
  walletId: transfer.walletId,
  amount: new Big(transfer.amount).plus(transfer.fee),
  periods: [{ period: 'DAY' as const, periodKey: '2026-11-21' }],
  stale: [],
});

/**
 * What the transfer service relies on from its store (shared/domain/transfers/ports.ts), run against
 * the in-memory fake (test/unit) and the DynamoDB store (test/integration).
 */
export function describeTransferStoreContract(name: string, makeStore: () => Promise<TransferStoreHarness>) {
  describe(`TransferStore contract: ${name}`, () => {
    async function oneWallet(balance = '100.00') {
      const h = await makeStore();
      const scope = organizationScope();
      const wallet = walletOf(scope, balance);
      await h.addWallet(wallet);
      return { ...h, scope, wallet };
    }

    it('reads a transfer back as written, and moves it only from the states of its trigger', async () => {
      const { store, wallet } = await oneWallet();
      const transfer = transferOf(wallet, 1, { reconcileAt: at(2) });
      await store.commit([{ type: 'putTransfer', transfer }]);
      expect(await store.getTransfer(transfer.id)).toEqual(transfer);
      expect(await store.getTransfer(newId('transfer'))).toBeUndefined();

      await store.commit([
        {
          type: 'transitionTransfer',
          transferId: transfer.id,
          trigger: 'submit',
          set: { railReference: 'rail-1', settleAt: at(5), submittedAt: at(2), reconcileAt: at(6) },
        },
      ]);
      expect(await store.getTransfer(transfer.id)).toMatchObject({
        status: 'PENDING',
        railReference: 'rail-1',
        settleAt: at(5),
        reconcileAt: at(6),
      });
      await expect(
        store.commit([{ type: 'transitionTransfer', transferId: transfer.id, trigger: 'submit', set: {} }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'PENDING' }));
      await expect(
        store.commit([{ type: 'transitionTransfer', transferId: transfer.id, trigger: 'reject', set: {} }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'PENDING' }));
      await expect(
        store.commit([{ type: 'transitionTransfer', transferId: newId('transfer'), trigger: 'submit', set: {} }]),
      ).rejects.toMatchObject(refusal('TRANSFER_NOT_FOUND'));

      // An end state without a reconcileAt: nothing left to reconcile.
      await store.commit([
        { type: 'transitionTransfer', transferId: transfer.id, trigger: 'cancel', set: { cancelledAt: at(3) } },
      ]);
      const cancelled = await store.getTransfer(transfer.id);
      expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelledAt: at(3) });
      expect(cancelled?.reconcileAt).toBeUndefined();
      await expect(
        store.commit([{ type: 'transitionTransfer', transferId: transfer.id, trigger: 'complete', set: {} }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'CANCELLED' }));
    });

    it('holds a withdrawal (no negative balance), captures or voids the hold once, the transfer moving in the same commit or not at all', async () => {
      const { store, wallet } = await oneWallet('20.00');
      const tooMuch = transferOf(wallet, 1, { amount: '20.00', holdId: newId('transaction') });
      await expect(
        store.commit([
          { type: 'putTransfer', transfer: tooMuch },
          withdrawalHold(tooMuch, tooMuch.holdId!, at(1), spendOf(tooMuch)),
        ]),
      ).rejects.toMatchObject(refusal('INSUFFICIENT_FUNDS', { walletId: wallet.id, requested: '20.50' }));
      expect(await store.getTransfer(tooMuch.id)).toBeUndefined();

      const transfer = transferOf(wallet, 2, { holdId: newId('transaction') });
      await store.commit([
        { type: 'putTransfer', transfer },
        withdrawalHold(transfer, transfer.holdId!, at(2), spendOf(transfer)),
      ]);
      let read = await store.getWallet(wallet.id);
      expect([read?.balance.toFixed(2), read?.heldBalance.toFixed(2)]).toEqual(['9.50', '10.50']);
      await store.commit([{ type: 'transitionTransfer', transferId: transfer.id, trigger: 'submit', set: {} }]);

      // The capture and the completion commit together; a second capture fails on the hold, and the transfer stays COMPLETED.
      await store.commit([
        { type: 'transitionTransfer', transferId: transfer.id, trigger: 'complete', set: { completedAt: at(3) } },
        withdrawalCapture(transfer, newId('transaction'), at(3)),
      ]);
      read = await store.getWallet(wallet.id);
      expect([read?.balance.toFixed(2), read?.heldBalance.toFixed(2)]).toEqual(['9.50', '0.00']);
      expect(await store.getTransfer(transfer.id)).toMatchObject({ status: 'COMPLETED' });
      await expect(store.commit([withdrawalVoid(transfer, newId('transaction'), at(4))])).rejects.toMatchObject(
        refusal('INVALID_STATE'),
      );
      read = await store.getWallet(wallet.id);
      expect([read?.balance.toFixed(2), read?.heldBalance.toFixed(2)]).toEqual(['9.50', '0.00']);

      // A cancel that loses to the settlement: neither the void nor the state change is written.
      const second = transferOf(wallet, 5, { amount: '5.00', fee: '0.00', holdId: newId('transaction') });
      await store.commit([
        { type: 'putTransfer', transfer: second },
        withdrawalHold(second, second.holdId!, at(5), spendOf(second)),
      ]);
      await expect(
        store.commit([
          withdrawalVoid(second, newId('transaction'), at(6)),
          { type: 'transitionTransfer', transferId: second.id, trigger: 'cancel', set: {} },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'INITIATED' }));
      read = await store.getWallet(wallet.id);
      expect([read?.balance.toFixed(2), read?.heldBalance.toFixed(2)]).toEqual(['4.50', '5.00']);
    });

    it('releases a clearing once', async () => {
      const { store, wallet } = await oneWallet();
      const deposit = transferOf(wallet, 1, {
        direction: 'DEPOSIT',
        status: 'COMPLETED',
        clearing: 'PENDING',
        reconcileAt: at(10),
        source: { type: 'ACH', routingNumber: '021000021', last4: '6789' } as Transfer['source'],
      });
      delete deposit.destination;
      await store.commit([{ type: 'putTransfer', transfer: deposit }]);
      await store.commit([{ type: 'releaseClearing', transferId: deposit.id }]);
      const released = await store.getTransfer(deposit.id);
      expect(released).toMatchObject({ clearing: 'AVAILABLE' });
      expect(released?.reconcileAt).toBeUndefined();
      await expect(store.commit([{ type: 'releaseClearing', transferId: deposit.id }])).rejects.toMatchObject(
        refusal('INVALID_STATE', { clearing: 'AVAILABLE' }),
      );
    });

    it('lists the transfers due for the reconciler oldest first; a deferral moves one later, only while its status is the one read', async () => {
      const { store, wallet } = await oneWallet();
      // Due times of their own (2020), before any other test's, so the table's other transfers are not due.
      const due = (minute: number) => new Date(Date.parse('2020-01-01T00:00:00.000Z') + minute * 60_000).toISOString();
      const [a, b, c] = [3, 1, 2].map((minute) => transferOf(wallet, minute, { reconcileAt: due(minute) }));
      const later = transferOf(wallet, 4, { reconcileAt: due(30) });
      for (const transfer of [a!, b!, c!, later]) await store.commit([{ type: 'putTransfer', transfer }]);
      const now = new Date(due(10));
      expect((await store.listDueTransfers(now, 10)).map((t) => t.id)).toEqual([b!.id, c!.id, a!.id]);
      expect((await store.listDueTransfers(now, 2)).map((t) => t.id)).toEqual([b!.id, c!.id]);

      await store.commit([{ type: 'deferReconcile', transferId: b!.id, status: 'INITIATED', reconcileAt: due(20) }]);
      expect((await store.listDueTransfers(now, 10)).map((t) => t.id)).toEqual([c!.id, a!.id]);
      expect(await store.getTransfer(b!.id)).toMatchObject({ reconcileAt: due(20) });
      await expect(
        store.commit([{ type: 'deferReconcile', transferId: c!.id, status: 'PENDING', reconcileAt: due(20) }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      // Off the list once it ends.
      await store.commit([
        { type: 'transitionTransfer', transferId: a!.id, trigger: 'reject', set: { failedAt: due(5) } },
      ]);
      expect((await store.listDueTransfers(now, 10)).map((t) => t.id)).toEqual([c!.id]);
    });

    it("lists an organization's transfers and a wallet's (internal ones from both sides) newest first, filtered, in pages", async () => {
      const { store, scope, wallet, addWallet } = await oneWallet();
      const other = walletOf(scope, '0');
      await addWallet(other);
      const elsewhere = walletOf(organizationScope(), '0');
      await addWallet(elsewhere);
      const made: Transfer[] = [
        transferOf(wallet, 1),
        transferOf(wallet, 2, { direction: 'DEPOSIT', status: 'PENDING' }),
        transferOf(other, 3, { direction: 'INTERNAL', rail: 'INTERNAL', toWalletId: wallet.id, status: 'COMPLETED' }),
        transferOf(other, 4),
        transferOf(wallet, 5, { direction: 'INTERNAL', rail: 'INTERNAL', toWalletId: other.id, status: 'COMPLETED' }),
        transferOf(elsewhere, 6),
      ];
      for (const transfer of made) await store.commit([{ type: 'putTransfer', transfer }]);
      const [t1, t2, t3, t4, t5] = made.map((t) => t.id);
      const organization = (filter: { direction?: TransferDirection; status?: TransferStatus }, limit: number) =>
        collectIds((page) => store.listTransfers(scope, filter, page), limit);
      const ofWallet = (filter: { direction?: TransferDirection; status?: TransferStatus }, limit: number) =>
        collectIds((page) => store.listWalletTransfers(scope, wallet.id, filter, page), limit);
      expect(await organization({}, 10)).toEqual([t5, t4, t3, t2, t1]);
      expect(await organization({}, 2)).toEqual([t5, t4, t3, t2, t1]);
      expect(await organization({ direction: 'INTERNAL' }, 10)).toEqual([t5, t3]);
      expect(await organization({ status: 'INITIATED' }, 1)).toEqual([t4, t1]);
      expect(await ofWallet({}, 10)).toEqual([t5, t3, t2, t1]);
      expect(await ofWallet({}, 1)).toEqual([t5, t3, t2, t1]);
      expect(await ofWallet({ direction: 'WITHDRAWAL' }, 10)).toEqual([t1]);
      expect(await store.listTransfers({ ...scope, environment: 'PRODUCTION' }, {}, { limit: 10 })).toMatchObject({
        items: [],
      });
    });
    it("reads a wallet's snapshot with its policies and the spend a withdrawal hold counted", async () => {
      const { store, wallet, addPolicy } = await oneWallet();
      const policy: Policy = {
        id: newId('policy'),
        walletId: wallet.id,
        organizationId: wallet.organizationId,
        environment: wallet.environment,
        name: 'Listed recipients',
        maxTransactionAmount: new Big('500'),
        requireHumanApproval: false,
        blockedRecipients: ['ba_blocked'],
        status: 'ACTIVE',
        createdAt: at(0),
        updatedAt: at(0),
        version: 1,
      };
      await addPolicy(policy);
      const transfer = transferOf(wallet, 1, { holdId: newId('transaction') });
      await store.commit([
        { type: 'putTransfer', transfer },
        withdrawalHold(transfer, transfer.holdId!, at(1), spendOf(transfer)),
      ]);
      const snapshot = await store.getWalletSnapshot(wallet.id);
      expect(snapshot?.wallet.id).toBe(wallet.id);
      expect(
        snapshot?.policies.map((p) => [p.id, p.name, p.blockedRecipients, p.maxTransactionAmount.toFixed(2)]),
      ).toEqual([[policy.id, 'Listed recipients', ['ba_blocked'], '500.00']]);
      expect(snapshot?.counters.map((c) => [c.period, c.periodKey, c.spent.toFixed(2)])).toEqual([
        ['DAY', '2026-11-21', '10.50'],
      ]);
      expect(await store.getWalletSnapshot(newId('wallet'))).toBeUndefined();
    });
  });
}
