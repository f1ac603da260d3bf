import * as z from 'zod/mini';
import { SANDBOX_FUNDING_MAX } from '../config/config.js';
import { AUDIT } from '../domain/audit/actions.js';
import type { createWalletService } from '../domain/wallets/wallet-service.js';
import { presentBalance, presentStatementEntry, presentWallet } from '../domain/wallets/wallet-view.js';
import { HINTS, defineGroup, operation } from './define.js';
import { amount, idempotencyKey, name, MAX_NAME_LENGTH, decimalText } from './fields.js';
import { listOperation } from './list.js';

export interface WalletsServices {
  wallets: ReturnType<typeof createWalletService>;
}

const op = operation<WalletsServices>();
const list = listOperation<WalletsServices>();
const walletParam = { id: 'The wallet id (`wal_...`).' };

export const WALLETS = defineGroup<WalletsServices>()('wallets', {}, [
  op({
    name: 'createWallet',
    summary: 'Create a wallet',
    description:
      "Creates an organization wallet in the key's environment, with a zero balance. Agent wallets are created with POST /v1/agents.",
    access: 'organization',
    permission: 'wallets:write',
    audit: AUDIT.wallet.create,
    events: ['wallet.created'],
    http: { method: 'POST', path: '/v1/wallets', status: 201 },
    mcp: { tool: 'create_wallet', hints: HINTS.create },
    body: () =>
      z.strictObject({
        name: name(`Display name of the wallet (1-${MAX_NAME_LENGTH} characters).`),
        agentName: z.optional(name('Name of the agent the wallet is meant for, if any.')),
      }),
    output: 'walletView',
    errors: ['WALLET_LIMIT_EXCEEDED', 'ACTIVATION_REQUIRED'],
    run: ({ services, auth, audit, body }) => services.wallets.create(auth, audit, body),
    present: presentWallet,
  }),
  list({
    name: 'listWallets',
    summary: 'List wallets',
    description:
      "Lists the wallets of the organization in the key's environment, newest first. A wallet-scoped (agent) key sees only its own wallet.",
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/wallets', status: 200 },
    mcp: { tool: 'list_wallets', hints: HINTS.read },
    filters: () => ({}),
    output: 'walletPageView',
    errors: [],
    list: ({ services, auth }, page) => services.wallets.list(auth, page),
    present: presentWallet,
  }),
  op({
    name: 'getWallet',
    summary: 'Get a wallet',
    description: 'Returns one wallet with its available, pending and held balances.',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/wallets/{id}', status: 200 },
    params: walletParam,
    mcp: { tool: 'get_wallet', hints: HINTS.read },
    output: 'walletView',
    errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, params }) => services.wallets.get(auth, params.id!),
    present: presentWallet,
  }),
  op({
    name: 'getBalance',
    summary: 'Get a wallet balance',
    description:
      'Returns the available, pending and held balance of one wallet. Use it before paying to check the funds.',
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/wallets/{id}/balance', status: 200 },
    params: walletParam,
    mcp: { tool: 'get_balance', hints: HINTS.read },
    output: 'balanceView',
    errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, params }) => services.wallets.get(auth, params.id!),
    present: presentBalance,
  }),
  op({
    name: 'fundWallet',
    summary: 'Fund a wallet (sandbox)',
    description: `Adds test money to a sandbox wallet (at most ${decimalText(SANDBOX_FUNDING_MAX)} per call). Production wallets are funded with a deposit transfer. A money movement like a payment: send an idempotency key so a retry never funds twice.`,
    access: 'key',
    permission: 'wallets:write',
    audit: AUDIT.wallet.fund,
    events: ['wallet.funded'],
    idempotency: 'key',
    sandboxOnly: true,
    http: { method: 'POST', path: '/v1/wallets/{id}/fund', status: 200 },
    params: walletParam,
    mcp: { tool: 'fund_wallet', hints: HINTS.money },
    body: () =>
      z.strictObject({
        amount: amount(`Amount to add, in USD, from 0.01 to ${decimalText(SANDBOX_FUNDING_MAX)}.`),
        idempotencyKey: idempotencyKey(),
      }),
    output: 'walletFundingView',
    errors: [
      'WALLET_NOT_FOUND',
      'WALLET_FROZEN',
      'INVALID_AMOUNT',
      'ENVIRONMENT_MISMATCH',
      'CONCURRENT_UPDATE',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
    ],
    run: ({ services, auth, audit, params, body, idempotencyKey }) =>
      services.wallets.fundWithKey(auth, audit, params.id!, body.amount, idempotencyKey),
  }),
  list({
    name: 'getStatement',
    summary: "List a wallet's ledger entries",
    description:
      "The wallet's statement: every ledger entry (payments, reversals, funding, budget moves), newest first, with the balance after each.",
    access: 'key',
    permission: 'wallets:read',
    http: { method: 'GET', path: '/v1/wallets/{id}/transactions', status: 200 },
    params: walletParam,
    mcp: { tool: 'list_transactions', hints: HINTS.read },
    filters: () => ({}),
    output: 'statementPageView',
    errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    list: ({ services, auth, params }, page) => services.wallets.statement(auth, params.id!, page),
    present: presentStatementEntry,
  }),
]);
