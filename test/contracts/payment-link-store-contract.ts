import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { linkHold, linkHoldVoid, linkWalletCapture } from '../../shared/domain/payment-links/payment-link-postings.js';
import { newPaymentLinkSlug } from '../../shared/domain/payment-links/payment-link-rules.js';
import type { PaymentLinkStore } from '../../shared/domain/payment-links/ports.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import { spendOf } from '../../shared/domain/policies/spend.js';
import type { Wallet } from '../../shared/domain/types.js';
import { at, collectIds, organizationScope, refusal, walletOf } from './money-fixtures.js';

/** A store under the contract, and how the test seeds what other areas write (wallets, with balances). */
export interface PaymentLinkStoreHarness {
  store: PaymentLinkStore;
  addWallet(wallet: Wallet): Promise<void>;
}

function linkOf(wallet: Wallet, minutes: number, overrides: Partial<PaymentLink> = {}): PaymentLink {
  return {
    id: newId('paymentLink'),
    organizationId: wallet.organizationId,
    environment: wallet.environment,
    walletId: wallet.id,
    slug: newPaymentLinkSlug(),
    amount: '40.00',
    currency: 'USD',
    fee: '0.25',
    description: 'Bounty',
    recipientRestrictions: { emails: ['jane@example.com'], walletIds: [] },
    expiresAt: at(minutes + 60),
    metadata: { job: '42' },
    status: 'ACTIVE',
    holdId: newId('transaction'),
    createdByKeyId: 'key_contract',
    createdAt: at(minutes),
    updatedAt: at(minutes),
    ...overrides,
  };
}

const spend = (link: PaymentLink) =>
  spendOf(link.walletId, new Big(link.amount).plus(link.fee), new Date(link.createdAt), [], []);

/**
 * What the payment-link service relies on from its store (shared/domain/payment-links/ports.ts), run
 * against the in-memory fake (test/unit) and the DynamoDB store (test/integration).
 */
export function describePaymentLinkStoreContract(name: string, makeStore: () => Promise<PaymentLinkStoreHarness>) {
  describe(`PaymentLinkStore contract: ${name}`, () => {
    async function oneWallet(balance = '100.00') {
      const h = await makeStore();
      const scope = organizationScope();
      const wallet = walletOf(scope, balance);
      await h.addWallet(wallet);
      return { ...h, scope, wallet };
    }

    /** A link stored with its hold, as creation commits it. */
    async function created(store: PaymentLinkStore, link: PaymentLink) {
      await store.commit([linkHold(link, link.createdAt, spend(link)), { type: 'putPaymentLink', link }]);
      return link;
    }

    const balancesOf = async (store: PaymentLinkStore, walletId: string) => {
      const wallet = (await store.getWallet(walletId))!;
      return { balance: wallet.balance.toFixed(2), held: wallet.heldBalance.toFixed(2) };
    };

    it('stores a link with its hold and reads it back by id and by slug, exactly', async () => {
      const { store, wallet } = await oneWallet();
      const link = await created(store, linkOf(wallet, 1));
      expect(await store.getPaymentLink(link.id)).toEqual(link);
      expect(await store.getPaymentLinkBySlug(link.slug)).toEqual(link);
      expect(await store.getPaymentLink(newId('paymentLink'))).toBeUndefined();
      expect(await store.getPaymentLinkBySlug(newPaymentLinkSlug())).toBeUndefined();
      expect(await balancesOf(store, wallet.id)).toEqual({ balance: '59.75', held: '40.25' });
    });

    it('never gives a slug to two links: the second put fails and writes nothing (not even its hold)', async () => {
      const { store, wallet } = await oneWallet();
      const first = await created(store, linkOf(wallet, 1));
      const second = linkOf(wallet, 2, { slug: first.slug });
      await expect(created(store, second)).rejects.toMatchObject(refusal('CONCURRENT_UPDATE'));
      expect(await store.getPaymentLink(second.id)).toBeUndefined();
      expect(await store.getPaymentLinkBySlug(first.slug)).toEqual(first);
      expect(await balancesOf(store, wallet.id)).toEqual({ balance: '59.75', held: '40.25' });
    });

    it('refuses a link whose hold the wallet can not take (INSUFFICIENT_FUNDS), writing nothing', async () => {
      const { store, wallet } = await oneWallet('40.00');
      const link = linkOf(wallet, 1);
      await expect(created(store, link)).rejects.toMatchObject(refusal('INSUFFICIENT_FUNDS'));
      expect(await store.getPaymentLink(link.id)).toBeUndefined();
    });

    it('lists an organization environment newest first, by wallet, by status, page by page', async () => {
      const { store, wallet, scope, addWallet } = await oneWallet('1000.00');
      const other = walletOf(scope, '1000.00');
      await addWallet(other);
      const a = await created(store, linkOf(wallet, 1));
      const b = await created(store, linkOf(other, 2));
      const c = await created(store, linkOf(wallet, 3, { status: 'PENDING_APPROVAL' }));
      const foreign = walletOf(organizationScope(), '100.00');
      await addWallet(foreign);
      await created(store, linkOf(foreign, 4));

      const all = await collectIds((page) => store.listPaymentLinks(scope, {}, page), 2);
      expect(all).toEqual([c.id, b.id, a.id]);
      const ofWallet = await store.listPaymentLinks(scope, { walletId: wallet.id }, { limit: 10 });
      expect(ofWallet.items.map((l) => l.id)).toEqual([c.id, a.id]);
      const active = await collectIds((page) => store.listPaymentLinks(scope, { status: 'ACTIVE' }, page), 1);
      expect(active).toEqual([b.id, a.id]);
      const pending = await store.listPaymentLinks(
        scope,
        { walletId: wallet.id, status: 'PENDING_APPROVAL' },
        { limit: 10 },
      );
      expect(pending.items.map((l) => l.id)).toEqual([c.id]);
      const production = await store.listPaymentLinks({ ...scope, environment: 'PRODUCTION' }, {}, { limit: 10 });
      expect(production.items).toEqual([]);
    });

    it('moves a link by the state table only from its `from` states, setting the fields given', async () => {
      const { store, wallet } = await oneWallet();
      const link = await created(store, linkOf(wallet, 1));
      await store.commit([
        {
          type: 'transitionPaymentLink',
          linkId: link.id,
          trigger: 'cancel',
          set: { cancelledAt: at(5), updatedAt: at(5) },
        },
      ]);
      expect(await store.getPaymentLink(link.id)).toEqual({
        ...link,
        status: 'CANCELLED',
        cancelledAt: at(5),
        updatedAt: at(5),
      });
      await expect(
        store.commit([
          { type: 'transitionPaymentLink', linkId: link.id, trigger: 'expire', set: { updatedAt: at(6) } },
        ]),
      ).rejects.toMatchObject(refusal('INVALID_STATE', { status: 'CANCELLED' }));
      await expect(
        store.commit([
          { type: 'transitionPaymentLink', linkId: newId('paymentLink'), trigger: 'cancel', set: { updatedAt: at(6) } },
        ]),
      ).rejects.toMatchObject(refusal('PAYMENT_LINK_NOT_FOUND'));
    });

    it('lists the links that can still expire past expiresAt (ACTIVE, PENDING_APPROVAL): off once claimed or ended, back when unclaimed', async () => {
      const { store, wallet } = await oneWallet('500.00');
      const active = await created(store, linkOf(wallet, 1));
      const queued = await created(store, linkOf(wallet, 2, { status: 'PENDING_APPROVAL' }));
      const claimed = await created(store, linkOf(wallet, 3));
      const future = await created(store, linkOf(wallet, 4, { expiresAt: at(10_000) }));
      const transition = (linkId: string, trigger: 'claim' | 'unclaim' | 'cancel', set: Partial<PaymentLink>) =>
        store.commit([{ type: 'transitionPaymentLink', linkId, trigger, set: { updatedAt: at(5), ...set } }]);
      await transition(claimed.id, 'claim', {});
      const listed = async () =>
        new Set((await store.listExpiringPaymentLinks(new Date(at(1_000)), 10_000)).map((link) => link.id));

      let ids = await listed();
      expect([active.id, queued.id, claimed.id, future.id].map((id) => ids.has(id))).toEqual([
        true,
        true,
        false,
        false,
      ]);
      await transition(claimed.id, 'unclaim', { expiresAt: claimed.expiresAt });
      await transition(active.id, 'cancel', { cancelledAt: at(6) });
      ids = await listed();
      expect([active.id, queued.id, claimed.id].map((id) => ids.has(id))).toEqual([false, true, true]);
      expect(await store.getPaymentLink(claimed.id)).toMatchObject({ status: 'ACTIVE', expiresAt: claimed.expiresAt });
    });

    it('releases a hold once: a second void (cancel racing an expiry) fails and changes nothing', async () => {
      const { store, wallet } = await oneWallet();
      const link = await created(store, linkOf(wallet, 1));
      await store.commit([
        linkHoldVoid(link, newId('transaction'), at(5)),
        { type: 'transitionPaymentLink', linkId: link.id, trigger: 'cancel', set: { updatedAt: at(5) } },
      ]);
      await expect(
        store.commit([
          linkHoldVoid(link, newId('transaction'), at(6)),
          { type: 'transitionPaymentLink', linkId: link.id, trigger: 'expire', set: { updatedAt: at(6) } },
        ]),
      ).rejects.toMatchObject({ code: 'INVALID_STATE' });
      expect(await balancesOf(store, wallet.id)).toEqual({ balance: '100.00', held: '0.00' });
      expect((await store.getPaymentLink(link.id))!.status).toBe('CANCELLED');
    });

    it('a wallet claim captures the hold: the amount to the claimant, the fee back; a second claim fails', async () => {
      const { store, wallet, addWallet } = await oneWallet();
      const claimant = walletOf(organizationScope(), '0.00');
      await addWallet(claimant);
      const link = await created(store, linkOf(wallet, 1));
      const claim = (transactionId: string) => [
        {
          type: 'transitionPaymentLink' as const,
          linkId: link.id,
          trigger: 'claimToWallet' as const,
          set: { transactionId },
        },
        linkWalletCapture(link, claimant.id, transactionId, at(5)),
      ];
      const first = newId('transaction');
      await store.commit(claim(first));
      await expect(store.commit(claim(newId('transaction')))).rejects.toMatchObject(
        refusal('INVALID_STATE', { status: 'SETTLED' }),
      );
      expect(await balancesOf(store, wallet.id)).toEqual({ balance: '60.00', held: '0.00' });
      expect(await balancesOf(store, claimant.id)).toEqual({ balance: '40.00', held: '0.00' });
      expect(await store.getPaymentLink(link.id)).toMatchObject({ status: 'SETTLED', transactionId: first });
    });
  });
}
