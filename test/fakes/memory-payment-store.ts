import type { JournalRecord } from '../../shared/domain/ledger/journal.js';
import type { PaymentStore } from '../../shared/domain/payments/ports.js';
import { TRANSACTION_TYPES } from '../../shared/domain/payments/payment-view.js';
import { transactionOf } from '../../shared/domain/payments/payment-posting.js';
import type { Period, Policy, SpendCounter } from '../../shared/domain/policies/policy-types.js';
import type { MerchantProfile } from '../../shared/domain/types.js';
import { codeUnitOrder, createMemoryMoneyTable, pageOf, type MemoryMoneyTable } from './memory-money-table.js';

const isPayment = (record: JournalRecord) => (TRANSACTION_TYPES as readonly string[]).includes(record.type);
const listedAt = (record: JournalRecord) => `${record.postedAt ?? record.createdAt}#${record.id}`;

/**
 * An in-memory PaymentStore over the shared money table (memory-money-table.ts): the writers'
 * conditions, all-or-nothing commits; test/contracts/payment-store-contract.ts holds it to the
 * DynamoDB store's behaviour. Policies and merchants are seeded by the test (their own areas write them).
 */
export function createMemoryPaymentStore(table: MemoryMoneyTable = createMemoryMoneyTable()) {
  const policies = new Map<string, Policy[]>();
  const merchants = new Map<string, MerchantProfile>();
  const merchantKey = (environment: string, domain: string) => `${environment}#${domain}`;

  const getTransaction = async (transactionId: string) => {
    const record = table.items.journal.get(transactionId);
    return record && isPayment(record) ? transactionOf(record) : undefined;
  };

  const store: PaymentStore = {
    getWallet: table.getWallet,
    async getWalletSnapshot(walletId) {
      const row = table.items.wallets.get(walletId);
      if (!row) return undefined;
      const counters = Object.entries(row.spend).map(([name, spent]): SpendCounter => {
        const [period, ...key] = name.split('#');
        return { walletId, period: period as Period, periodKey: key.join('#'), spent };
      });
      return { wallet: row.wallet, policies: policies.get(walletId) ?? [], counters };
    },
    getMerchant: async (environment, domain) => merchants.get(merchantKey(environment, domain)),
    getTransaction,
    getIdempotencySlot: table.getIdempotencySlot,
    commit: (changes) => table.commit(changes),
    async readTogether(reads) {
      return {
        ...(reads.slotId !== undefined ? { slot: (await table.getIdempotencySlot(reads.slotId)) ?? null } : {}),
        ...(reads.walletId !== undefined ? { wallet: (await table.getWallet(reads.walletId)) ?? null } : {}),
        ...(reads.merchant !== undefined
          ? { merchant: merchants.get(merchantKey(reads.merchant.environment, reads.merchant.domain)) ?? null }
          : {}),
      };
    },
    async listTransactions(organizationId, environment, filter, page) {
      const records = [...table.items.journal.values()]
        .filter(
          (record) => (record.type === 'PAYMENT' || record.type === 'REVERSAL') && record.environment === environment,
        )
        .filter((record) =>
          filter.walletId
            ? record.from === filter.walletId || record.to === filter.walletId
            : record.organizationId === organizationId || record.payeeOrganizationId === organizationId,
        )
        .filter((record) => filter.status === undefined || record.status === filter.status)
        .sort((a, b) => codeUnitOrder(listedAt(b), listedAt(a)));
      return pageOf(records.map(transactionOf), page);
    },
  };
  return {
    store,
    table,
    addPolicy: (walletId: string, policy: Policy) =>
      policies.set(walletId, [...(policies.get(walletId) ?? []), policy]),
    addMerchant: (merchant: MerchantProfile) =>
      merchants.set(merchantKey(merchant.environment, merchant.domain), merchant),
  };
}
