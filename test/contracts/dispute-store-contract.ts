import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { disputeHold, disputeRelease } from '../../shared/domain/disputes/dispute-postings.js';
import type { DisputeStore } from '../../shared/domain/disputes/ports.js';
import type { Dispute } from '../../shared/domain/disputes/types.js';
import { newId } from '../../shared/domain/ids.js';
import { paymentPosting } from '../../shared/domain/payments/payment-posting.js';
import type { PaymentChange } from '../../shared/domain/payments/ports.js';
import type { Environment } from '../../shared/domain/tenancy.js';
import type { Transaction, Wallet } from '../../shared/domain/types.js';
import { at, organizationScope, paymentOf, refusal, walletOf } from './money-fixtures.js';

/** A store under the contract, and how the test seeds what other areas write (wallets, main wallets). */
export interface DisputeStoreHarness {
  store: DisputeStore;
  addWallet(wallet: Wallet): Promise<void>;
  setMainWallet(organizationId: string, environment: Environment, walletId: string): Promise<void>;
  /** Pauses the wallet's agent (ACTIVE -> FROZEN), as the agents area does. */
  freeze(walletId: string): Promise<void>;
  /** Commits a change of the payments area (a reversal's transition) on the same table. */
  commitPayment(change: PaymentChange): Promise<void>;
}

const ACTOR = { actorType: 'API_KEY' as const, actorId: 'key_contract', ipAddress: '192.0.2.1' };

/**
 * What the dispute service relies on from its store (shared/domain/disputes/ports.ts), run against
 * the in-memory fake (test/unit) and the DynamoDB store (test/integration).
 */
export function describeDisputeStoreContract(name: string, makeStore: () => Promise<DisputeStoreHarness>) {
  describe(`DisputeStore contract: ${name}`, () => {
    /** Two organizations, a payer and a payee wallet, and a POSTED payment of 40.00 between them. */
    async function paidWorld() {
      const h = await makeStore();
      const payerScope = organizationScope();
      const payeeScope = organizationScope();
      const payer = walletOf(payerScope, '100.00');
      const payee = walletOf(payeeScope, '100.00');
      await h.addWallet(payer);
      await h.addWallet(payee);
      const payment = await pay(h.store, payer, payee, '40.00', 0);
      return { ...h, payerScope, payeeScope, payer, payee, payment };
    }

    async function pay(store: DisputeStore, from: Wallet, to: Wallet, amount: string, minutes: number) {
      const transaction = paymentOf(from, to, amount, minutes, { payeeOrganizationId: to.organizationId });
      await store.commit([
        paymentPosting({ transaction, record: 'create', actor: ACTOR, auditAction: AUDIT.payment.create }),
      ]);
      return transaction;
    }

    function disputeOf(payment: Transaction, minutes: number, overrides: Partial<Dispute> = {}): Dispute {
      return {
        id: newId('dispute'),
        organizationId: payment.organizationId,
        environment: payment.environment,
        transactionId: payment.id,
        respondentOrgId: payment.payeeOrganizationId!,
        payerWalletId: payment.from,
        receivingWalletId: payment.to,
        type: 'FRAUD',
        amount: '25.00',
        currency: 'USD',
        reason: 'Never delivered',
        status: 'OPEN',
        respondBy: at(minutes + 7 * 24 * 60),
        holdTransactionId: newId('transaction'),
        requestedByKeyId: 'key_contract',
        createdAt: at(minutes),
        updatedAt: at(minutes),
        ...overrides,
      };
    }

    const opening = (dispute: Dispute) => [
      { type: 'putDispute' as const, dispute },
      disputeHold(dispute, dispute.createdAt),
    ];

    it('stores a dispute with its payment marked and the amount moved to suspense, in one commit', async () => {
      const w = await paidWorld();
      const dispute = disputeOf(w.payment, 1);
      await w.store.commit(opening(dispute));

      expect(await w.store.getDispute(dispute.id)).toEqual(dispute);
      expect((await w.store.getTransaction(w.payment.id))?.disputeId).toBe(dispute.id);
      expect((await w.store.getWallet(w.payee.id))?.balance.toFixed(2)).toBe('115.00');
      // The hold is a movement, not a payment: GET /v1/payments/{id} does not find it.
      expect(await w.store.getTransaction(dispute.holdTransactionId)).toBeUndefined();
      expect(await w.store.getDispute('dsp_unknown')).toBeUndefined();
    });

    it('marks a payment once: a second dispute is DISPUTE_EXISTS and writes nothing', async () => {
      const w = await paidWorld();
      const first = disputeOf(w.payment, 1);
      await w.store.commit(opening(first));
      const second = disputeOf(w.payment, 2);

      await expect(w.store.commit(opening(second))).rejects.toMatchObject(
        refusal('DISPUTE_EXISTS', { disputeId: first.id }),
      );
      expect(await w.store.getDispute(second.id)).toBeUndefined();
      expect((await w.store.getWallet(w.payee.id))?.balance.toFixed(2)).toBe('115.00');
    });

    it('refuses a payment no longer POSTED (reversed) and, once disputed, its reversal', async () => {
      const w = await paidWorld();
      const reverse = {
        type: 'setTransactionStatus' as const,
        transactionId: w.payment.id,
        trigger: 'reverse' as const,
        fields: { reversedBy: 'txn_mirror' },
        onMismatch: 'REVERSAL_NOT_ALLOWED' as const,
      };
      const dispute = disputeOf(w.payment, 1);
      await w.store.commit(opening(dispute));
      await expect(w.commitPayment(reverse)).rejects.toMatchObject(
        refusal('REVERSAL_NOT_ALLOWED', { disputeId: dispute.id }),
      );

      const v = await paidWorld();
      await v.commitPayment({ ...reverse, transactionId: v.payment.id });
      await expect(v.store.commit(opening(disputeOf(v.payment, 1)))).rejects.toMatchObject(
        refusal('INVALID_STATE', { status: 'REVERSED' }),
      );
    });

    it('takes the hold from a FROZEN wallet; INSUFFICIENT_FUNDS when it lacks the amount', async () => {
      const w = await paidWorld();
      await w.freeze(w.payee.id);
      await w.store.commit(opening(disputeOf(w.payment, 2)));
      expect(await w.store.getWallet(w.payee.id)).toMatchObject({ status: 'FROZEN' });
      expect((await w.store.getWallet(w.payee.id))?.balance.toFixed(2)).toBe('115.00');

      const v = await paidWorld();
      await expect(v.store.commit(opening(disputeOf(v.payment, 1, { amount: '140.01' })))).rejects.toMatchObject(
        refusal('INSUFFICIENT_FUNDS'),
      );
      expect(await v.store.getTransaction(v.payment.id)).not.toHaveProperty('disputeId');
    });

    it('moves a dispute by DISPUTE_STATES only: the resolution pays out of suspense once', async () => {
      const w = await paidWorld();
      const dispute = disputeOf(w.payment, 1);
      await w.store.commit(opening(dispute));
      const respondedAt = at(2);
      await w.store.commit([
        {
          type: 'transitionDispute',
          disputeId: dispute.id,
          trigger: 'respond',
          set: { response: 'Delivered', respondedAt, updatedAt: respondedAt },
        },
      ]);
      expect(await w.store.getDispute(dispute.id)).toMatchObject({ status: 'RESPONDED', response: 'Delivered' });
      await expect(
        w.store.commit([{ type: 'transitionDispute', disputeId: dispute.id, trigger: 'lapse', set: {} }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'RESPONDED' }));

      const end = (transactionId: string) => {
        const set = { resolvedAt: at(3), updatedAt: at(3), resolutionTransactionId: transactionId };
        const ended = { ...dispute, ...set, status: 'CLOSED' as const };
        return [
          { type: 'transitionDispute' as const, disputeId: dispute.id, trigger: 'close' as const, set },
          disputeRelease(ended, { walletId: w.payee.id, organizationId: w.payee.organizationId }, transactionId, at(3)),
        ];
      };
      await w.store.commit(end(newId('transaction')));
      await expect(w.store.commit(end(newId('transaction')))).rejects.toMatchObject(
        refusal('INVALID_STATE', { status: 'CLOSED' }),
      );
      expect((await w.store.getWallet(w.payee.id))?.balance.toFixed(2)).toBe('140.00');
      await expect(
        w.store.commit([{ type: 'transitionDispute', disputeId: 'dsp_unknown', trigger: 'respond', set: {} }]),
      ).rejects.toMatchObject(refusal('DISPUTE_NOT_FOUND'));
    });

    it('lists both sides newest first, by organization or wallet and status, up to the count asked', async () => {
      const w = await paidWorld();
      const other = walletOf(w.payeeScope, '100.00');
      await w.addWallet(other);
      const first = disputeOf(w.payment, 1);
      await w.store.commit(opening(first));
      const back = await pay(w.store, other, w.payer, '10.00', 2);
      const second = disputeOf(back, 3, { amount: '5.00' });
      await w.store.commit(opening(second));
      const third = disputeOf(await pay(w.store, w.payer, other, '10.00', 4), 5, { amount: '5.00' });
      await w.store.commit(opening(third));

      const ids = async (scope: { organizationId: string; environment: Environment }, filter = {}, count = 10) =>
        (await w.store.listDisputes(scope, filter, count)).map((d) => d.id);
      expect(await ids(w.payerScope)).toEqual([third.id, second.id, first.id]);
      expect(await ids(w.payeeScope)).toEqual([third.id, second.id, first.id]);
      expect(await ids(w.payerScope, {}, 2)).toEqual([third.id, second.id]);
      expect(await ids(w.payeeScope, { walletId: other.id })).toEqual([third.id, second.id]);
      expect(await ids(w.payerScope, { walletId: w.payer.id })).toEqual([third.id, second.id, first.id]);
      expect(await ids(w.payeeScope, { walletId: w.payee.id })).toEqual([first.id]);
      expect(await ids(w.payerScope, { walletId: other.id })).toEqual([]);
      await w.store.commit([
        { type: 'transitionDispute', disputeId: second.id, trigger: 'respond', set: { response: 'r' } },
      ]);
      expect(await ids(w.payerScope, { status: 'RESPONDED' })).toEqual([second.id]);
      expect(await ids({ ...w.payerScope, environment: 'PRODUCTION' })).toEqual([]);
      expect(await ids(organizationScope())).toEqual([]);
    });

    it('with `read`, moves a dispute only from that status (a response in between: INVALID_STATE RESPONDED)', async () => {
      const w = await paidWorld();
      const dispute = disputeOf(w.payment, 1);
      await w.store.commit(opening(dispute));
      await w.store.commit([{ type: 'transitionDispute', disputeId: dispute.id, trigger: 'respond', set: {} }]);
      const set = { resolvedAt: at(3), updatedAt: at(3) };
      await expect(
        w.store.commit([{ type: 'transitionDispute', disputeId: dispute.id, trigger: 'close', set, read: 'OPEN' }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'RESPONDED' }));
      await w.store.commit([
        { type: 'transitionDispute', disputeId: dispute.id, trigger: 'close', set, read: 'RESPONDED' },
      ]);
      expect(await w.store.getDispute(dispute.id)).toMatchObject({ status: 'CLOSED' });
    });

    it("counts a payment's refusals for funds only over the count read (a racing count: CONCURRENT_UPDATE)", async () => {
      const h = await makeStore();
      const transactionId = newId('transaction');
      const first = { count: 1, since: at(1) };
      expect(await h.store.getFundsRefusals(transactionId)).toBeUndefined();
      await h.store.commit([{ type: 'countFundsRefusal', transactionId, refusals: first }]);
      await expect(
        h.store.commit([{ type: 'countFundsRefusal', transactionId, refusals: first }]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      const second = { count: 2, since: at(1) };
      await h.store.commit([{ type: 'countFundsRefusal', transactionId, refusals: second, previous: first }]);
      await expect(
        h.store.commit([{ type: 'countFundsRefusal', transactionId, refusals: second, previous: first }]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect(await h.store.getFundsRefusals(transactionId)).toEqual(second);
      expect(await h.store.getFundsRefusals(newId('transaction'))).toBeUndefined();
    });

    it("reads an organization environment's main wallet", async () => {
      const h = await makeStore();
      const scope = organizationScope();
      const main = walletOf(scope, '0.00', { isMain: true, walletType: 'ORG' });
      await h.addWallet(main);
      await h.setMainWallet(scope.organizationId, scope.environment, main.id);
      expect(await h.store.getMainWalletId(scope.organizationId, scope.environment)).toBe(main.id);
      expect(await h.store.getMainWalletId(scope.organizationId, 'PRODUCTION')).toBeUndefined();
    });
  });
}
