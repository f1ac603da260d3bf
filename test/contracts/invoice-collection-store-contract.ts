import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type {
  ChargeRetries,
  InvoiceCollectionStore,
  RecurringSchedule,
  UsdcDeposit,
  UsdcReceipt,
} from '../../shared/domain/invoices/collection-ports.js';
import { newDepositAddress } from '../../shared/domain/invoices/invoice-usdc.js';
import { at, organizationScope, refusal } from './money-fixtures.js';

/** A store under the contract (the collection's items only need an organization scope). */
export interface InvoiceCollectionStoreHarness {
  store: InvoiceCollectionStore;
}

/**
 * What the collection service relies on from its store (shared/domain/invoices/collection-ports.ts),
 * run against the in-memory fake (test/unit) and the DynamoDB store (test/integration).
 */
export function describeInvoiceCollectionStoreContract(
  name: string,
  makeStore: () => Promise<InvoiceCollectionStoreHarness>,
) {
  describe(`InvoiceCollectionStore contract: ${name}`, () => {
    const depositOf = (scope: ReturnType<typeof organizationScope>): UsdcDeposit => ({
      invoiceId: newId('invoice'),
      ...scope,
      address: newDepositAddress(),
      chain: 'Ethereum',
      createdAt: at(1),
    });

    it('keeps one deposit per invoice, found by its address in any case; a second one changes nothing', async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const deposit = depositOf(scope);
      await store.commit([{ type: 'putUsdcDeposit', deposit }]);
      expect(await store.getUsdcDeposit(deposit.invoiceId)).toEqual(deposit);
      expect(await store.getUsdcDepositByAddress(deposit.address)).toEqual(deposit);
      expect(await store.getUsdcDepositByAddress(deposit.address.toLowerCase())).toEqual(deposit);
      expect(await store.getUsdcDepositByAddress(newDepositAddress())).toBeUndefined();
      const other = { ...deposit, address: newDepositAddress() };
      await expect(store.commit([{ type: 'putUsdcDeposit', deposit: other }])).rejects.toMatchObject(
        refusal('CONCURRENT_UPDATE'),
      );
      expect(await store.getUsdcDeposit(deposit.invoiceId)).toEqual(deposit);
      expect(await store.getUsdcDepositByAddress(other.address)).toBeUndefined();
    });

    it("lists an organization environment's receipts newest first, in pages, and no one else's", async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const receiptOf = (minutes: number, of = scope): UsdcReceipt => ({
        id: newId('usdcReceipt'),
        ...of,
        address: newDepositAddress(),
        amount: '10.00',
        reason: 'unknown_address',
        status: 'UNMATCHED',
        receivedAt: at(minutes),
      });
      const [a, b, c] = [receiptOf(1), receiptOf(2), { ...receiptOf(3), invoiceId: 'inv_1', walletId: 'wal_1' }];
      for (const receipt of [a, b, c, receiptOf(4, organizationScope())])
        await store.commit([{ type: 'putUsdcReceipt', receipt: receipt! }]);
      const first = await store.listUsdcReceipts(scope, { status: 'UNMATCHED' }, { limit: 2 });
      expect(first.items).toEqual([c, b]);
      const second = await store.listUsdcReceipts(scope, {}, { limit: 2, startKey: first.lastKey! });
      expect(second.items).toEqual([a]);
    });

    it('advances a recurring schedule run by run, only from the run it is at, and cancels it once', async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const schedule: RecurringSchedule = {
        invoiceId: newId('invoice'),
        ...scope,
        walletId: 'wal_1',
        customerId: 'cus_1',
        lineItems: [{ description: 'Plan', quantity: 1, unitPrice: '20.00', amount: '20.00' }],
        metadata: { plan: 'pro', seats: 3 },
        interval: 'weekly',
        anchorAt: at(0),
        run: 1,
        nextChargeAt: at(10),
        status: 'ACTIVE',
        createdAt: at(0),
      };
      await store.commit([{ type: 'putRecurringSchedule', schedule }]);
      expect(await store.getRecurringSchedule(schedule.invoiceId)).toEqual(schedule);
      await expect(store.commit([{ type: 'putRecurringSchedule', schedule }])).rejects.toMatchObject(
        refusal('INVALID_STATE'),
      );
      const advance = { type: 'advanceRecurringSchedule' as const, invoiceId: schedule.invoiceId, fromRun: 1 };
      await store.commit([{ ...advance, set: { run: 2, nextChargeAt: at(20) } }]);
      // The same run again (a duplicated message): refused, nothing moves.
      await expect(store.commit([{ ...advance, set: { run: 2, nextChargeAt: at(20) } }])).rejects.toMatchObject(
        refusal('INVALID_STATE', { status: 'ACTIVE' }),
      );
      expect(await store.getRecurringSchedule(schedule.invoiceId)).toMatchObject({ run: 2, nextChargeAt: at(20) });
      await store.commit([{ type: 'cancelRecurringSchedule', invoiceId: schedule.invoiceId, cancelledAt: at(15) }]);
      expect(await store.getRecurringSchedule(schedule.invoiceId)).toMatchObject({
        status: 'CANCELLED',
        nextChargeAt: null,
        cancelledAt: at(15),
        run: 2,
      });
      await expect(
        store.commit([{ type: 'cancelRecurringSchedule', invoiceId: schedule.invoiceId, cancelledAt: at(16) }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'CANCELLED' }));
      await expect(
        store.commit([{ ...advance, fromRun: 2, set: { run: 3, nextChargeAt: at(30) } }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'CANCELLED' }));
      await expect(
        store.commit([{ type: 'cancelRecurringSchedule', invoiceId: newId('invoice'), cancelledAt: at(16) }]),
      ).rejects.toMatchObject(refusal('INVALID_STATE'));
      expect(await store.getRecurringSchedule(newId('invoice'))).toBeUndefined();
    });

    it('counts charge failures one after the other: failure n needs n - 1', async () => {
      const { store } = await makeStore();
      const scope = organizationScope();
      const retries: ChargeRetries = {
        invoiceId: newId('invoice'),
        ...scope,
        failures: 1,
        firstFailedAt: at(1),
        lastDeclineCode: 'card_declined',
      };
      await store.commit([{ type: 'recordChargeFailure', retries }]);
      await expect(store.commit([{ type: 'recordChargeFailure', retries }])).rejects.toMatchObject(
        refusal('CONCURRENT_UPDATE'),
      );
      await store.commit([{ type: 'recordChargeFailure', retries: { ...retries, failures: 2 } }]);
      await expect(
        store.commit([{ type: 'recordChargeFailure', retries: { ...retries, failures: 2 } }]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      await expect(
        store.commit([{ type: 'recordChargeFailure', retries: { ...retries, failures: 4 } }]),
      ).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect(await store.getChargeRetries(retries.invoiceId)).toEqual({ ...retries, failures: 2 });
      expect(await store.getChargeRetries(newId('invoice'))).toBeUndefined();
    });
  });
}
