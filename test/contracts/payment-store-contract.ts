import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { PaymentStore } from '../../shared/domain/payments/ports.js';
import { paymentPosting } from '../../shared/domain/payments/payment-posting.js';
import type { Actor, Environment } from '../../shared/domain/tenancy.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import type { IdempotencyRecord, PaymentStatus, Transaction, Wallet } from '../../shared/domain/types.js';
import { at, collectIds, organizationScope, paymentOf as payment, refusal, walletOf } from './money-fixtures.js';

/** A store under the contract, and how the test seeds what other areas write (wallets, with balances). */
export interface PaymentStoreHarness {
  store: PaymentStore;
  addWallet(wallet: Wallet): Promise<void>;
}

const actor: Actor = { actorType: 'API_KEY', actorId: 'key_contract', ipAddress: '198.51.100.7' };

const posted = (t: Transaction, extra: Partial<Parameters<typeof paymentPosting>[0]> = {}) =>
  paymentPosting({ transaction: t, record: 'create', actor, auditAction: AUDIT.payment.create, ...extra });
const queued = (t: Transaction) => ({
  type: 'createTransaction' as const,
  transaction: { ...t, status: 'QUEUED' as PaymentStatus, postedAt: undefined } as Transaction,
});
const balance = async (store: PaymentStore, walletId: string) => (await store.getWallet(walletId))?.balance.toFixed(2);

/**
 * What the payment service relies on from its store (shared/domain/payments/ports.ts), run against
 * the in-memory fake (test/unit) and the DynamoDB store (test/integration): a fake that passes
 * behaves as the real store does where the services look.
 */
export function describePaymentStoreContract(name: string, makeStore: () => Promise<PaymentStoreHarness>) {
  describe(`PaymentStore contract: ${name}`, () => {
    async function twoWallets(payerBalance = '100.00') {
      const h = await makeStore();
      const scope = organizationScope();
      const payer = walletOf(scope, payerBalance);
      const payee = walletOf(scope, '0');
      await h.addWallet(payer);
      await h.addWallet(payee);
      return { ...h, scope, payer, payee };
    }

    it('a posted payment moves both balances and reads back as the transaction written', async () => {
      const { store, payer, payee } = await twoWallets();
      const t = payment(payer, payee, '30.25', 1, { description: 'contract' });
      await store.commit([posted(t)]);
      expect(await balance(store, payer.id)).toBe('69.75');
      expect(await balance(store, payee.id)).toBe('30.25');
      expect(await store.getTransaction(t.id)).toMatchObject({
        id: t.id,
        type: 'PAYMENT',
        status: 'POSTED',
        from: payer.id,
        to: payee.id,
        amount: '30.25',
        description: 'contract',
      });
      expect(await store.getTransaction(newId('transaction'))).toBeUndefined();
    });

    it('never lets a balance go negative: INSUFFICIENT_FUNDS with the balance, and nothing of the commit is written', async () => {
      const { store, payer, payee } = await twoWallets('10.00');
      const before = payment(payer, payee, '1.00', 1, { status: 'QUEUED', postedAt: undefined });
      const t = payment(payer, payee, '10.01', 2);
      await expect(store.commit([queued(before), posted(t)])).rejects.toMatchObject(
        refusal('INSUFFICIENT_FUNDS', { walletId: payer.id, balance: '10.00000000', requested: '10.01' }),
      );
      expect(await store.getTransaction(before.id)).toBeUndefined();
      expect(await store.getTransaction(t.id)).toBeUndefined();
      expect(await balance(store, payer.id)).toBe('10.00');
      await store.commit([posted(payment(payer, payee, '10.00', 3))]);
      expect(await balance(store, payer.id)).toBe('0.00');
    });

    it('refuses a payer that is frozen, unknown or of the other environment', async () => {
      const { store, scope, payee, addWallet } = await twoWallets();
      const frozen = walletOf(scope, '50', { status: 'FROZEN' });
      const production = walletOf({ ...scope, environment: 'PRODUCTION' as Environment }, '50');
      await addWallet(frozen);
      await addWallet(production);
      await expect(store.commit([posted(payment(frozen, payee, '1.00', 1))])).rejects.toMatchObject(
        refusal('WALLET_FROZEN', { walletId: frozen.id }),
      );
      await expect(
        store.commit([posted(payment({ ...production, environment: 'SANDBOX' }, payee, '1.00', 1))]),
      ).rejects.toMatchObject(refusal('ENVIRONMENT_MISMATCH', { walletId: production.id }));
      const unknown = walletOf(scope, '50');
      await expect(store.commit([posted(payment(unknown, payee, '1.00', 1))])).rejects.toMatchObject(
        refusal('WALLET_NOT_FOUND', { walletId: unknown.id }),
      );
    });

    it('counts spend per period and refuses one over a limit with POLICY_DENIED and the headroom (before funds)', async () => {
      const { store, payer, payee } = await twoWallets('100.00');
      const spend = (amount: string, limit: string) => ({
        walletId: payer.id,
        amount: new Big(amount),
        periods: [{ period: 'DAY' as const, periodKey: '2026-11-21', limit: new Big(limit) }],
        stale: [],
      });
      await store.commit([posted(payment(payer, payee, '40.00', 1), { spend: spend('40.00', '50.00') })]);
      expect(
        (await store.getWalletSnapshot(payer.id))?.counters.map((c) => [c.period, c.periodKey, c.spent.toFixed(2)]),
      ).toEqual([['DAY', '2026-11-21', '40.00']]);
      await expect(
        store.commit([posted(payment(payer, payee, '500.00', 2), { spend: spend('500.00', '50.00') })]),
      ).rejects.toMatchObject(
        refusal('POLICY_DENIED', { rule: 'dailyLimit', limit: '50.00', spent: '40.00', remaining: '10.00' }),
      );
      await store.commit([posted(payment(payer, payee, '10.00', 3), { spend: spend('10.00', '50.00') })]);
      expect(await balance(store, payer.id)).toBe('50.00');
      expect((await store.getWalletSnapshot(payer.id))?.counters.map((c) => c.spent.toFixed(2))).toEqual(['50.00']);
    });

    it('moves a transaction only from the states of its trigger, refusing with the mapped code and the status it found', async () => {
      const { store, payer, payee } = await twoWallets();
      const t = payment(payer, payee, '5.00', 1);
      await store.commit([queued(t)]);
      expect(await store.getTransaction(t.id)).toMatchObject({ status: 'QUEUED' });
      await store.commit([
        {
          type: 'setTransactionStatus',
          transactionId: t.id,
          trigger: 'reject',
          fields: { failureCode: 'REJECTED_BY_REVIEWER' },
          onMismatch: 'INVALID_STATE',
        },
      ]);
      expect(await store.getTransaction(t.id)).toMatchObject({
        status: 'REJECTED',
        failureCode: 'REJECTED_BY_REVIEWER',
      });
      await expect(
        store.commit([
          { type: 'setTransactionStatus', transactionId: t.id, trigger: 'fail', onMismatch: 'INVALID_STATE' },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'REJECTED' }));
      await expect(
        store.commit([
          { type: 'setTransactionStatus', transactionId: t.id, trigger: 'reverse', onMismatch: 'REVERSAL_NOT_ALLOWED' },
        ]),
      ).rejects.toMatchObject(refusal('REVERSAL_NOT_ALLOWED', { status: 'REJECTED' }));
      expect(await store.getTransaction(t.id)).toMatchObject({ status: 'REJECTED' });
    });

    it('posts a QUEUED payment once (fromQueued), and reverses a POSTED one once', async () => {
      const { store, payer, payee } = await twoWallets();
      const t = payment(payer, payee, '20.00', 1);
      await store.commit([queued(t)]);
      const post = paymentPosting({
        transaction: { ...t, postedAt: at(2) },
        record: 'fromQueued',
        actor,
        auditAction: AUDIT.approval.approve,
      });
      await store.commit([post]);
      expect(await store.getTransaction(t.id)).toMatchObject({ status: 'POSTED', postedAt: at(2) });
      await expect(store.commit([post])).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'POSTED' }));
      expect(await balance(store, payer.id)).toBe('80.00');

      const reversal = payment(payee, payer, '20.00', 3, { type: 'REVERSAL', reversalOf: t.id });
      await store.commit([{ ...posted(reversal), posting: { ...posted(reversal).posting, reverses: t.id } }]);
      expect(await store.getTransaction(t.id)).toMatchObject({ status: 'REVERSED', reversedBy: reversal.id });
      expect(await balance(store, payer.id)).toBe('100.00');
      // The payee has the money again: only the state of the original refuses a second reversal.
      await store.commit([posted(payment(payer, payee, '20.00', 4))]);
      const again = payment(payee, payer, '20.00', 5, { type: 'REVERSAL', reversalOf: t.id });
      await expect(
        store.commit([{ ...posted(again), posting: { ...posted(again).posting, reverses: t.id } }]),
      ).rejects.toMatchObject(refusal('REVERSAL_NOT_ALLOWED', { status: 'REVERSED' }));
      expect(await store.getTransaction(again.id)).toBeUndefined();
      expect(await balance(store, payer.id)).toBe('80.00');
    });

    it('claims an idempotency slot once; an answer whose window ended may be taken by the next claim', async () => {
      const { store, scope, payer, payee } = await twoWallets();
      const slotId = newId('transaction');
      const answer = (createdAt: string, expiresAtEpochS: number): IdempotencyRecord => ({
        ...scope,
        key: 'k-1',
        fingerprint: 'f-1',
        status: 400,
        body: '{"error":{}}',
        createdAt,
        expiresAtEpochS,
      });
      const windowEnds = Math.floor(Date.parse(at(10)) / 1000);
      await store.commit([{ type: 'idempotency', slotId, record: answer(at(1), windowEnds) }]);
      expect(await store.getIdempotencySlot(slotId)).toMatchObject({
        kind: 'answer',
        record: { key: 'k-1', status: 400, expiresAtEpochS: windowEnds },
      });
      await expect(
        store.commit([{ type: 'idempotency', slotId, record: answer(at(2), windowEnds) }]),
      ).rejects.toMatchObject(refusal('IDEMPOTENCY_KEY_IN_USE'));
      // A movement claiming the slot while the answer's window runs: refused, nothing moves.
      const early = { ...payment(payer, payee, '1.00', 5), id: slotId, idempotencyKey: 'k-1' };
      await expect(
        store.commit([
          { ...posted(early), posting: { ...posted(early).posting, idempotency: { key: 'k-1', fingerprint: 'f-2' } } },
        ]),
      ).rejects.toMatchObject(refusal('IDEMPOTENCY_KEY_IN_USE'));
      expect(await balance(store, payer.id)).toBe('100.00');
      // Once the window ended, the movement takes the slot: the slot holds its journal record.
      const late = { ...payment(payer, payee, '1.00', 11), id: slotId, idempotencyKey: 'k-1' };
      await store.commit([
        { ...posted(late), posting: { ...posted(late).posting, idempotency: { key: 'k-1', fingerprint: 'f-2' } } },
      ]);
      expect(await store.getIdempotencySlot(slotId)).toMatchObject({
        kind: 'movement',
        record: { id: slotId, status: 'POSTED', idempotencyFingerprint: 'f-2' },
      });
      // A taken movement slot is never taken again, by an answer or a queued payment.
      await expect(
        store.commit([{ type: 'idempotency', slotId, record: answer(at(20), windowEnds) }]),
      ).rejects.toMatchObject(refusal('IDEMPOTENCY_KEY_IN_USE'));
      await expect(
        store.commit([{ ...queued({ ...late, createdAt: at(21) }), idempotency: { key: 'k-1', fingerprint: 'f-3' } }]),
      ).rejects.toMatchObject(refusal('IDEMPOTENCY_KEY_IN_USE'));
    });

    it('reads slot, wallet and merchant together, null for what is absent', async () => {
      const { store, payer } = await twoWallets();
      const slotId = newId('transaction');
      const read = await store.readTogether({
        slotId,
        walletId: payer.id,
        merchant: { environment: 'SANDBOX', domain: 'absent.example' },
      });
      expect(read.slot).toBeNull();
      expect(read.merchant).toBeNull();
      expect(read.wallet).toMatchObject({ id: payer.id, status: 'ACTIVE' });
      expect(read.wallet?.balance.toFixed(2)).toBe('100.00');
      expect(await store.readTogether({ walletId: newId('wallet') })).toEqual({ wallet: null });
      expect(await store.readTogether({})).toEqual({});
    });

    it("lists a wallet's payments sent and received newest first, by status, in pages that add up to the whole list", async () => {
      const { store, scope, payer, payee, addWallet } = await twoWallets('100.00');
      const other = walletOf(scope, '100');
      await addWallet(other);
      const sent = [1, 2, 3].map((minute) => payment(payer, payee, '1.00', minute));
      const received = payment(other, payer, '2.00', 4);
      const unrelated = payment(other, payee, '3.00', 5);
      const waiting = payment(payer, payee, '4.00', 6);
      await store.commit([posted(sent[0]!)]);
      await store.commit([posted(sent[1]!)]);
      await store.commit([posted(sent[2]!)]);
      await store.commit([posted(received)]);
      await store.commit([posted(unrelated)]);
      await store.commit([queued(waiting)]);
      const ids = (filter: { status?: PaymentStatus }, limit: number) =>
        collectIds(
          (page) =>
            store.listTransactions(scope.organizationId, scope.environment, { walletId: payer.id, ...filter }, page),
          limit,
        );
      const newest = [waiting.id, received.id, sent[2]!.id, sent[1]!.id, sent[0]!.id];
      expect(await ids({}, 10)).toEqual(newest);
      expect(await ids({}, 2)).toEqual(newest);
      expect(await ids({ status: 'POSTED' }, 10)).toEqual(newest.slice(1));
      expect(await ids({ status: 'QUEUED' }, 10)).toEqual([waiting.id]);
      expect(await ids({ status: 'REVERSED' }, 10)).toEqual([]);
    });
  });
}
