import Big from 'big.js';
import { AUDIT } from '../audit/actions.js';
import { loadAccessibleWallet, scopeOf } from '../access.js';
import { auditChange, eventChange } from '../audit/audit.js';
import { ApiError } from '../errors.js';
import { SYSTEM_ACCOUNTS, systemAccount, transferLegs, walletAccount } from '../ledger/posting.js';
import { formatAmount, formatBalance, parseAmount } from '../money.js';
import type { ServiceDeps } from '../ports.js';
import type { StatementPage, WalletStore } from './ports.js';
import type { RequestContext } from '../tenancy.js';
import type { Page, PageRequest, Wallet } from '../types.js';
import { newWallet } from './wallet-rules.js';

export interface FundResult {
  walletId: string;
  transactionId: string;
  amount: string;
  newBalance: string;
  currency: 'USD';
}

export function createWalletService(deps: ServiceDeps<WalletStore>) {
  const { store, clock, ids, limits } = deps;
  const sandboxFundingMax = new Big(limits.sandboxFundingMax);

  async function create(ctx: RequestContext, input: { name: string; agentName?: string | undefined }): Promise<Wallet> {
    const scope = scopeOf(ctx.principal);
    const now = clock.now().toISOString();
    const wallet = newWallet({ id: ids('wallet'), ...scope, name: input.name, agentName: input.agentName, walletType: 'ORG', isMain: false, createdAt: now });
    await store.commit([
      { type: 'reserveWalletSlot', ...scope, limit: limits.walletsPerEnvironment },
      { type: 'createWallet', wallet },
      auditChange(
        { ...scope, actor: ctx.actor, action: AUDIT.wallet.create, resource: 'wallet', resourceId: wallet.id, walletId: wallet.id, metadata: { name: wallet.name, walletType: wallet.walletType }, createdAt: now },
        ids,
      ),
      eventChange({ ...scope, type: 'wallet.created', data: { id: wallet.id, name: wallet.name, walletType: wallet.walletType }, createdAt: now }, ids),
    ]);
    return wallet;
  }

  async function list(ctx: RequestContext, page: PageRequest): Promise<Page<Wallet>> {
    const scope = scopeOf(ctx.principal);
    if (ctx.principal.walletId) {
      // A wallet-scoped key sees exactly its own wallet.
      const own = await store.getWallet(ctx.principal.walletId);
      return { items: own && own.environment === scope.environment ? [own] : [] };
    }
    return store.listWallets(scope.organizationId, scope.environment, page);
  }

  function get(ctx: RequestContext, walletId: string): Promise<Wallet> {
    return loadAccessibleWallet(store, ctx.principal, walletId);
  }

  /** Sandbox funding: a real double-entry posting from acc_SANDBOX_FUNDING (interface-spec 4.2 rule 1). */
  async function fund(ctx: RequestContext, walletId: string, rawAmount: unknown): Promise<FundResult> {
    const scope = scopeOf(ctx.principal);
    if (scope.environment !== 'SANDBOX') throw new ApiError('SANDBOX_ONLY', 'Funding exists only in the sandbox; deposit with a transfer in production.');
    const amount = parseAmount(rawAmount);
    if (amount.gt(sandboxFundingMax)) {
      throw new ApiError('INVALID_AMOUNT', `amount: at most ${formatAmount(sandboxFundingMax)} per funding call`, { field: 'amount', max: formatAmount(sandboxFundingMax) });
    }
    const wallet = await loadAccessibleWallet(store, ctx.principal, walletId);
    const now = clock.now().toISOString();
    const transactionId = ids('transaction');
    const amountText = formatAmount(amount);
    await store.commit([
      {
        type: 'posting',
        posting: {
          transactionId,
          type: 'FUNDING',
          ...scope,
          currency: 'USD',
          legs: transferLegs(systemAccount(SYSTEM_ACCOUNTS.sandboxFunding), walletAccount(wallet.id), amount),
          createdAt: now,
          description: 'Sandbox funding',
          attributes: { from: SYSTEM_ACCOUNTS.sandboxFunding, to: wallet.id, amount: amountText, fee: '0.00', status: 'POSTED', postedAt: now },
          record: 'create',
        },
      },
      auditChange(
        { ...scope, actor: ctx.actor, action: AUDIT.wallet.fund, resource: 'wallet', resourceId: wallet.id, walletId: wallet.id, metadata: { amount: amountText, currency: 'USD', transactionId }, createdAt: now },
        ids,
      ),
      eventChange({ ...scope, type: 'wallet.funded', data: { walletId: wallet.id, transactionId, amount: amountText, currency: 'USD' }, createdAt: now }, ids),
    ]);
    // The balance right after this posting (it may already include concurrent movements).
    const after = await store.getWallet(wallet.id);
    return { walletId: wallet.id, transactionId, amount: amountText, newBalance: formatBalance(after?.balance ?? wallet.balance.plus(amount)), currency: 'USD' };
  }

  /** The wallet statement: ledger entries newest first, each with the balance after it. */
  async function statement(ctx: RequestContext, walletId: string, page: PageRequest): Promise<StatementPage> {
    const wallet = await loadAccessibleWallet(store, ctx.principal, walletId);
    return store.getStatement(wallet.id, page);
  }

  return { create, list, get, fund, statement };
}

export type WalletService = ReturnType<typeof createWalletService>;
