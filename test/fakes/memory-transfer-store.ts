import type { BankAccount } from '../../shared/domain/bank-accounts/types.js';
import type { Period, Policy, SpendCounter } from '../../shared/domain/policies/policy-types.js';
import { ApiError } from '../../shared/domain/errors.js';
import { PAYMENT_LINK_STATES } from '../../shared/domain/payment-links/payment-link-states.js';
import type { PaymentLink } from '../../shared/domain/payment-links/types.js';
import type { LinkRiderChange } from '../../shared/domain/transfers/transfer-link-rider.js';
import { fromStatesOf, targetOf } from '../../shared/domain/state-table.js';
import type { TransferChange, TransferFilter, TransferStore } from '../../shared/domain/transfers/ports.js';
import { CLEARING_STATES, TRANSFER_STATES } from '../../shared/domain/transfers/transfer-states.js';
import type { Transfer } from '../../shared/domain/transfers/types.js';
import { codeUnitOrder, createMemoryMoneyTable, newestFirst, pageOf } from './memory-money-table.js';

const TRANSFER_CHANGES: readonly string[] = [
  'putTransfer',
  'transitionTransfer',
  'releaseClearing',
  'deferReconcile',
] satisfies TransferChange['type'][];

type LinkTransition = Extract<LinkRiderChange, { type: 'transitionPaymentLink' }>;

/** A link transfer's rider moves the link in the transfer's commit (the payment-link writer's condition: the trigger's `from` states). */
export function applyLinkTransition(links: Map<string, PaymentLink>, change: LinkTransition): void {
  const old = links.get(change.linkId);
  if (!old) throw new ApiError('PAYMENT_LINK_NOT_FOUND');
  if (!(PAYMENT_LINK_STATES[change.trigger].from as readonly string[]).includes(old.status))
    throw new ApiError('INVALID_STATE', `The payment link is ${old.status}.`, { status: old.status });
  const { status: _ignored, ...fields } = change.set;
  links.set(old.id, { ...old, ...fields, status: PAYMENT_LINK_STATES[change.trigger].to });
}

/**
 * An in-memory TransferStore over the shared money table (memory-money-table.ts), with the
 * conditions of transfer-writers.ts; test/contracts/transfer-store-contract.ts holds it to the
 * DynamoDB store. Bank accounts and policies are seeded by the test (their own areas write them).
 */
export function createMemoryTransferStore() {
  const table = createMemoryMoneyTable({
    transfers: new Map<string, Transfer>(),
    paymentLinks: new Map<string, PaymentLink>(),
  });
  const bankAccounts = new Map<string, BankAccount>();
  const policies = new Map<string, Policy[]>();

  function apply(transfers: Map<string, Transfer>, change: TransferChange): void {
    if (change.type === 'putTransfer') {
      if (transfers.has(change.transfer.id))
        throw new Error(`TRANSFER#${change.transfer.id} already exists (id collision)`);
      transfers.set(change.transfer.id, change.transfer);
      return;
    }
    const old = transfers.get(change.transferId);
    switch (change.type) {
      case 'transitionTransfer': {
        if (!old) throw new ApiError('TRANSFER_NOT_FOUND');
        if (!(TRANSFER_STATES[change.trigger].from as readonly string[]).includes(old.status))
          throw new ApiError('INVALID_STATE', `The transfer is ${old.status}.`, { status: old.status });
        const { status: _ignored, ...fields } = change.set;
        const next: Transfer = { ...old, ...fields, status: TRANSFER_STATES[change.trigger].to };
        if (!change.set.reconcileAt) delete next.reconcileAt;
        transfers.set(old.id, next);
        return;
      }
      case 'releaseClearing': {
        if (!old || !(fromStatesOf(CLEARING_STATES, 'release') as readonly string[]).includes(old.clearing ?? '')) {
          throw new ApiError('INVALID_STATE', `The clearing is ${String(old?.clearing ?? 'not pending')}.`, {
            clearing: old?.clearing,
          });
        }
        const next: Transfer = { ...old, clearing: targetOf(CLEARING_STATES, 'release') };
        delete next.reconcileAt;
        transfers.set(old.id, next);
        return;
      }
      case 'deferReconcile':
        if (!old?.reconcileAt || old.status !== change.status)
          throw new ApiError('INVALID_STATE', 'The transfer moved meanwhile.');
        transfers.set(old.id, { ...old, reconcileAt: change.reconcileAt });
        return;
    }
  }

  const matches = (filter: TransferFilter) => (transfer: Transfer) =>
    (filter.direction === undefined || transfer.direction === filter.direction) &&
    (filter.status === undefined || transfer.status === filter.status);
  const ofScope = (scope: { organizationId: string; environment: string }) =>
    [...table.items.transfers.values()].filter(
      (t) => t.organizationId === scope.organizationId && t.environment === scope.environment,
    );

  const store: TransferStore = {
    getWallet: table.getWallet,
    getWalletSnapshot: async (walletId) => {
      const row = table.items.wallets.get(walletId);
      if (!row) return undefined;
      const counters = Object.entries(row.spend).map(([name, spent]): SpendCounter => {
        const [period, ...key] = name.split('#');
        return { walletId, period: period as Period, periodKey: key.join('#'), spent };
      });
      return { wallet: row.wallet, policies: policies.get(walletId) ?? [], counters };
    },
    getIdempotencySlot: table.getIdempotencySlot,
    async getBankAccount(scope, id) {
      const account = bankAccounts.get(id);
      return account && account.status !== 'DELETED' && account.organizationId === scope.organizationId
        ? account
        : undefined;
    },
    commit: (changes) =>
      table.commit(changes, (next, change) => {
        if (change.type === 'transitionPaymentLink') {
          applyLinkTransition(next.paymentLinks, change as LinkTransition);
          return true;
        }
        if (!TRANSFER_CHANGES.includes(change.type)) return false;
        apply(next.transfers, change as TransferChange);
        return true;
      }),
    getTransfer: async (transferId) => table.items.transfers.get(transferId),
    async listDueTransfers(now, limit) {
      const dueAt = (t: Transfer) => `${t.reconcileAt}#${t.id}`;
      return [...table.items.transfers.values()]
        .filter((t) => t.reconcileAt !== undefined && t.reconcileAt < now.toISOString())
        .sort((a, b) => codeUnitOrder(dueAt(a), dueAt(b)))
        .slice(0, limit);
    },
    listTransfers: async (scope, filter, page) =>
      pageOf(ofScope(scope).filter(matches(filter)).sort(newestFirst), page),
    listWalletTransfers: async (scope, walletId, filter, page) =>
      pageOf(
        ofScope(scope)
          .filter((t) => t.walletId === walletId || t.toWalletId === walletId)
          .filter(matches(filter))
          .sort(newestFirst),
        page,
      ),
  };
  return {
    store,
    table,
    /** A payment link as its area stores it (the transfer store only moves it, with a link transfer). */
    addPaymentLink: (link: PaymentLink) => table.items.paymentLinks.set(link.id, link),
    addBankAccount: (account: BankAccount) => bankAccounts.set(account.id, account),
    addPolicy: (walletId: string, policy: Policy) =>
      policies.set(walletId, [...(policies.get(walletId) ?? []), policy]),
  };
}
