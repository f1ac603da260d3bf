import { ApiError } from '../../shared/domain/errors.js';
import type { PaymentLinkChange } from '../../shared/domain/payment-links/changes.js';
import { PAYMENT_LINK_STATES } from '../../shared/domain/payment-links/payment-link-states.js';
import type { PaymentLinkFilter, PaymentLinkStore } from '../../shared/domain/payment-links/ports.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import { createMemoryMoneyTable, newestFirst, pageOf } from './memory-money-table.js';
import { createMemoryPaymentStore } from './memory-payment-store.js';

const PAYMENT_LINK_CHANGES: readonly string[] = [
  'putPaymentLink',
  'transitionPaymentLink',
] satisfies PaymentLinkChange['type'][];

const refusal = (old: PaymentLink | undefined) =>
  old
    ? new ApiError('INVALID_STATE', `The payment link is ${old.status}.`, { status: old.status })
    : new ApiError('PAYMENT_LINK_NOT_FOUND');

/**
 * An in-memory PaymentLinkStore over the shared money table (memory-money-table.ts), with the
 * conditions of payment-link-writers.ts; test/contracts/payment-link-store-contract.ts holds it to
 * the DynamoDB store. Policies are seeded by the test (their own area writes them).
 */
export function createMemoryPaymentLinkStore() {
  const table = createMemoryMoneyTable({
    paymentLinks: new Map<string, PaymentLink>(),
    paymentLinkSlugs: new Map<string, string>(),
  });
  const payments = createMemoryPaymentStore(table);
  type Next = typeof table.items;

  function apply(next: Next, change: PaymentLinkChange): void {
    const { paymentLinks } = next;
    if (change.type === 'putPaymentLink') {
      if (paymentLinks.has(change.link.id)) throw new Error(`PAYMENT_LINK#${change.link.id} already exists`);
      if (next.paymentLinkSlugs.has(change.link.slug))
        throw new ApiError('CONCURRENT_UPDATE', 'The generated slug is taken; retry.', { retryAfter: 1 });
      paymentLinks.set(change.link.id, change.link);
      next.paymentLinkSlugs.set(change.link.slug, change.link.id);
      return;
    }
    const old = paymentLinks.get(change.linkId);
    const transition = PAYMENT_LINK_STATES[change.trigger];
    if (!old || !(transition.from as readonly string[]).includes(old.status)) throw refusal(old);
    const { status: _ignored, ...fields } = change.set;
    paymentLinks.set(old.id, { ...old, ...fields, status: transition.to });
  }

  const matches = (filter: PaymentLinkFilter) => (link: PaymentLink) =>
    (filter.walletId === undefined || link.walletId === filter.walletId) &&
    (filter.status === undefined || link.status === filter.status);

  const store: PaymentLinkStore = {
    getWallet: table.getWallet,
    getWalletSnapshot: payments.store.getWalletSnapshot,
    getIdempotencySlot: table.getIdempotencySlot,
    commit: (changes) =>
      table.commit(changes, (next, change) => {
        if (!PAYMENT_LINK_CHANGES.includes(change.type)) return false;
        apply(next, change as PaymentLinkChange);
        return true;
      }),
    getPaymentLink: async (linkId) => table.items.paymentLinks.get(linkId),
    async getPaymentLinkBySlug(slug) {
      const linkId = table.items.paymentLinkSlugs.get(slug);
      return linkId ? table.items.paymentLinks.get(linkId) : undefined;
    },
    listExpiringPaymentLinks: async (now, limit) =>
      [...table.items.paymentLinks.values()]
        .filter((l) => (l.status === 'ACTIVE' || l.status === 'PENDING_APPROVAL') && l.expiresAt < now.toISOString())
        .sort((a, b) => (`${a.expiresAt}#${a.id}` < `${b.expiresAt}#${b.id}` ? -1 : 1))
        .slice(0, limit),
    listPaymentLinks: async (scope, filter, page) =>
      pageOf(
        [...table.items.paymentLinks.values()]
          .filter((l) => l.organizationId === scope.organizationId && l.environment === scope.environment)
          .filter(matches(filter))
          .sort(newestFirst),
        page,
      ),
  };
  return { store, table, addPolicy: (walletId: string, policy: Policy) => payments.addPolicy(walletId, policy) };
}
