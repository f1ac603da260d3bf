import Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import { loadAccessibleWallet, scopeOf } from '../access.js';
import { auditChange, eventChange } from '../audit/audit.js';
import {
  claimOf,
  fingerprintOf,
  postingClaim,
  runIdempotent,
  type IdempotentResponse,
} from '../idempotency/idempotency.js';
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

  async function create(
    ctx: RequestContext,
    action: AuditAction,
    input: { name: string; agentName?: string | undefined },
  ): Promise<Wallet> {
    const scope = scopeOf(ctx.principal);
    const now = clock.now().toISOString();
    const wallet = newWallet({
      id: ids('wallet'),
      ...scope,
      name: input.name,
      agentName: input.agentName,
      walletType: 'ORG',
      isMain: false,
      createdAt: now,
    });
    await store.commit([
      { type: 'reserveWalletSlot', ...scope, limit: limits.walletsPerEnvironment },
      { type: 'createWallet', wallet },
      auditChange(
        {
          ...scope,
          actor: ctx.actor,
          action,
          resource: 'wallet',
          resourceId: wallet.id,
          walletId: wallet.id,
          metadata: { name: wallet.name, walletType: wallet.walletType },
          createdAt: now,
        },
        ids,
      ),
      eventChange(
        {
          ...scope,
          type: 'wallet.created',
          data: { id: wallet.id, name: wallet.name, walletType: wallet.walletType },
          createdAt: now,
        },
        ids,
      ),
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

  /**
   * Sandbox funding: a real double-entry posting from acc_SANDBOX_FUNDING (interface-spec 4.2 rule
   * 1), a money movement like a payment, so it honours an idempotency key (decisions.md section 3).
   * Its answer carries the balance read right after the commit: the key's journal record is
   * written in flight and completed with the answer; a request that died in between is answered
   * from the record once it is stale.
   */
  async function fundWithKey(
    ctx: RequestContext,
    action: AuditAction,
    walletId: string,
    rawAmount: unknown,
    idempotencyKey: string | undefined,
  ): Promise<IdempotentResponse<FundResult>> {
    const scope = scopeOf(ctx.principal);
    if (scope.environment !== 'SANDBOX')
      throw new ApiError('SANDBOX_ONLY', 'Funding exists only in the sandbox; deposit with a transfer in production.');
    const amount = parseAmount(rawAmount);
    if (amount.gt(sandboxFundingMax)) {
      throw new ApiError('INVALID_AMOUNT', `amount: at most ${formatAmount(sandboxFundingMax)} per funding call`, {
        field: 'amount',
        max: formatAmount(sandboxFundingMax),
      });
    }
    const amountText = formatAmount(amount);
    const fingerprint = fingerprintOf('wallet.fund', {
      walletId,
      amount: amountText,
      scope: ctx.principal.walletId ?? 'organization',
    });
    const claim = idempotencyKey === undefined ? undefined : await claimOf(scope, idempotencyKey, fingerprint);
    // The balance right after this posting (it may already include concurrent movements).
    const answer = async (transactionId: string, fundedWalletId: string): Promise<IdempotentResponse<FundResult>> => {
      const after = await store.getWallet(fundedWalletId);
      const body: FundResult = {
        walletId: fundedWalletId,
        transactionId,
        amount: amountText,
        newBalance: formatBalance(after?.balance ?? new Big(0)),
        currency: 'USD',
      };
      if (claim) await store.completeIdempotentMovement(transactionId, JSON.stringify(body));
      return { status: 200, body, replayed: false };
    };
    const response = await runIdempotent(store, claim, clock.now(), () => ids('transaction'), {
      recover: (record) => answer(record.id, record.to),
      execute: async (transactionId, keyClaim) => {
        const wallet = await loadAccessibleWallet(store, ctx.principal, walletId);
        const now = clock.now().toISOString();
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
              attributes: {
                from: SYSTEM_ACCOUNTS.sandboxFunding,
                to: wallet.id,
                amount: amountText,
                fee: '0.00',
                status: 'POSTED',
                postedAt: now,
                requestedByKeyId: ctx.principal.keyId,
                ...(idempotencyKey ? { idempotencyKey } : {}),
              },
              record: 'create',
              ...(keyClaim ? { idempotency: { ...postingClaim(keyClaim), awaitsReply: true } } : {}),
              // Audit entry (wallet.fund) and event (wallet.funded) are projected from the journal record.
              audit: { action, actor: ctx.actor },
            },
          },
        ]);
        return answer(transactionId, wallet.id);
      },
    });
    return response as IdempotentResponse<FundResult>;
  }

  async function fund(
    ctx: RequestContext,
    action: AuditAction,
    walletId: string,
    rawAmount: unknown,
  ): Promise<FundResult> {
    return (await fundWithKey(ctx, action, walletId, rawAmount, undefined)).body;
  }

  /** The wallet statement: ledger entries newest first, each with the balance after it. */
  async function statement(ctx: RequestContext, walletId: string, page: PageRequest): Promise<StatementPage> {
    const wallet = await loadAccessibleWallet(store, ctx.principal, walletId);
    return store.getStatement(wallet.id, page);
  }

  return { create, list, get, fund, fundWithKey, statement };
}

export type WalletService = ReturnType<typeof createWalletService>;
