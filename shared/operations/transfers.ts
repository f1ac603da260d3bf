import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { TransferClientService } from '../domain/transfers/transfer-service.js';
import { presentTransfer, presentViewedTransfer, type ViewedTransfer } from '../domain/transfers/transfer-view.js';
import type { RequestContext } from '../domain/tenancy.js';
import type { Transfer } from '../domain/transfers/types.js';
import {
  EXTERNAL_RAILS,
  TRANSFER_CURRENCIES,
  TRANSFER_DIRECTIONS,
  TRANSFER_STATUSES,
} from '../domain/transfers/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import {
  describe,
  idempotencyKey,
  paymentDescription,
  text,
  walletId,
  MAX_PAYMENT_DESCRIPTION_LENGTH,
} from './fields.js';
import { withThousands } from '../domain/text.js';
import { listOperation } from './list.js';

export interface TransfersServices {
  transfers: TransferClientService;
}

const op = operation<TransfersServices>();
const list = listOperation<TransfersServices>();

/** Transfer amounts are decimal strings (interface-spec 4.5); the money rules check them (INVALID_AMOUNT). */
const transferAmount = (description: string) =>
  describe(
    z.string().check(z.maxLength(64, 'must be at most 64 characters')),
    `${description} A decimal string such as "250.00": at most 2 decimal places for USD, 6 for USDC.`,
  );

const counterparty = (role: 'source' | 'destination') =>
  z.optional(
    describe(
      z.strictObject({
        type: describe(
          z.enum(EXTERNAL_RAILS),
          'The rail: ACH, WIRE or FEDNOW (USD, a bank account) or USDC (an address).',
        ),
        bankAccountId: z.optional(
          text(
            128,
            'Bank rails: a linked, verified bank account (`ba_...`), or the counterparty id at the banking provider.',
            { min: 1 },
          ),
        ),
        routingNumber: z.optional(
          describe(
            z.string().check(z.maxLength(9, 'must be 9 digits'), z.regex(/^\d{9}$/, 'must be 9 digits')),
            'Bank rails: the 9-digit ABA routing number (checksum verified).',
          ),
        ),
        accountNumber: z.optional(
          describe(
            z
              .string()
              .check(z.maxLength(17, 'must be 4 to 17 digits'), z.regex(/^\d{4,17}$/, 'must be 4 to 17 digits')),
            'Bank rails: the account number, 4-17 digits; stored encrypted, shown as last4.',
          ),
        ),
        address: z.optional(
          describe(
            z
              .string()
              .check(
                z.maxLength(128, 'must be 8 to 128 letters and digits'),
                z.regex(/^[A-Za-z0-9]{8,128}$/, 'must be 8 to 128 letters and digits'),
              ),
            'USDC: the address, kept as sent. EVM chains: 0x + 40 hex digits, EIP-55 checksummed when the letters mix cases; Solana: base58 of a 32-byte key (32-44 characters).',
          ),
        ),
        chain: z.optional(
          text(
            32,
            'USDC: the chain of the address (default Ethereum): Ethereum, Base, Polygon, Arbitrum, Optimism, Avalanche or Solana, in any case.',
            { min: 1 },
          ),
        ),
      }),
      role === 'source'
        ? 'Where the money comes from: a bank (type ACH, WIRE or FEDNOW with `bankAccountId`, or `routingNumber` and `accountNumber`) or a USDC address. Give this or `bankAccountId`.'
        : 'Where the money goes: a bank (type ACH, WIRE or FEDNOW with `bankAccountId`, or `routingNumber` and `accountNumber`) or a USDC address. Give this or `bankAccountId`.',
    ),
  );

const externalFields = (role: 'source' | 'destination', walletText: string) => ({
  walletId: walletId(walletText),
  amount: transferAmount(
    role === 'source'
      ? 'Amount to deposit (at least 25.00); the wallet receives it minus the fee.'
      : 'Amount to withdraw; the wallet pays it plus the fee.',
  ),
  currency: describe(
    z.enum(TRANSFER_CURRENCIES),
    'USD (bank rails) or USDC (the USDC rail; credited or debited 1:1 in USD).',
  ),
  bankAccountId: z.optional(
    text(128, 'A linked, verified bank account (`ba_...`) instead of a source/destination object (ACH).', { min: 1 }),
  ),
  idempotencyKey: idempotencyKey(),
});

const EXTERNAL_ERRORS = [
  'INVALID_AMOUNT',
  'WALLET_NOT_FOUND',
  'WALLET_FROZEN',
  'BANK_ACCOUNT_NOT_FOUND',
  'BANK_ACCOUNT_NOT_VERIFIED',
  'ENVIRONMENT_MISMATCH',
  'IDEMPOTENCY_KEY_REUSE',
  'IDEMPOTENCY_KEY_IN_USE',
  'CONCURRENT_UPDATE',
] as const;
const transferParam = { id: 'The transfer id (`tr_...`).' };
const viewedBy =
  (auth: RequestContext) =>
  (transfer: Transfer): ViewedTransfer => ({ transfer, viewerWalletId: auth.principal.walletId });

export const TRANSFERS = defineGroup<TransfersServices>()(
  'transfers',
  {
    // Creating a transfer starts its workflow; an ACH deposit's clearing gets an expiry schedule; account numbers are opened from their seal.
    grants: ['transferWorkflow:start', 'scheduler:create', 'dataKey:seal'],
  },
  [
    op({
      name: 'createDeposit',
      summary: 'Deposit into a wallet',
      description:
        'Starts a deposit from a bank (ACH, wire, FedNow) or a USDC address into a wallet. Answers 202 with the transfer INITIATED; it moves to PENDING when submitted to the rail and to COMPLETED when it settles (events deposit.initiated, deposit.completed; ACH deposits then clear in `pendingBalance`: wallet.funds_pending, wallet.funds_available). Minimum 25.00; fee 0.5 %, at least 0.25, taken from the amount.',
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.transfer.deposit,
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/transfers/deposit', status: 202 },
      mcp: { tool: 'deposit_wallet', hints: HINTS.money },
      body: () =>
        z.strictObject({
          ...externalFields('source', 'The wallet to credit; an agent key may deposit only into its own wallet.'),
          source: counterparty('source'),
        }),
      output: 'transferView',
      errors: [...EXTERNAL_ERRORS, 'VALIDATION_ERROR'],
      run: ({ services, auth, audit, body, idempotencyKey }) =>
        services.transfers.deposit(
          auth,
          audit,
          {
            walletId: body.walletId,
            amount: body.amount,
            currency: body.currency,
            counterparty: body.source,
            bankAccountId: body.bankAccountId,
          },
          idempotencyKey,
        ),
    }),
    op({
      name: 'createWithdrawal',
      summary: 'Withdraw from a wallet',
      description:
        "Starts a withdrawal from a wallet to a bank (ACH, wire, FedNow) or a USDC address. Amount + fee (0.5 %, at least 0.25) are held at once (`heldBalance`) and paid out when the transfer settles; a failed or cancelled withdrawal returns both. The wallet's spend policies apply (limits count amount + fee; a transfer can not wait for approval).",
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.transfer.withdraw,
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/transfers/withdraw', status: 201 },
      mcp: { tool: 'withdraw_wallet', hints: HINTS.money },
      body: () =>
        z.strictObject({
          ...externalFields('destination', 'The wallet to debit; an agent key may withdraw only from its own wallet.'),
          destination: counterparty('destination'),
        }),
      output: 'transferView',
      errors: [...EXTERNAL_ERRORS, 'INSUFFICIENT_FUNDS', 'POLICY_DENIED', 'VALIDATION_ERROR'],
      run: ({ services, auth, audit, body, idempotencyKey }) =>
        services.transfers.withdraw(
          auth,
          audit,
          {
            walletId: body.walletId,
            amount: body.amount,
            currency: body.currency,
            counterparty: body.destination,
            bankAccountId: body.bankAccountId,
          },
          idempotencyKey,
        ),
    }),
    op({
      name: 'createInternalTransfer',
      summary: 'Move money between two wallets',
      description:
        "Moves money between two ACTIVE wallets of the organization at once (COMPLETED, no fee), under the paying wallet's spend policies.",
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.transfer.internal,
      idempotency: 'key',
      http: { method: 'POST', path: '/v1/transfers/internal', status: 201 },
      mcp: { tool: 'create_internal_transfer', hints: HINTS.money },
      body: () =>
        z.strictObject({
          fromWalletId: walletId('The paying wallet; an agent key may pay only from its own wallet.'),
          toWalletId: walletId('The receiving wallet, of the same organization and environment.'),
          amount: transferAmount('Amount to move, in USD.'),
          description: z.optional(
            paymentDescription(
              `Free text for your own reference (at most ${withThousands(MAX_PAYMENT_DESCRIPTION_LENGTH)} characters).`,
            ),
          ),
          idempotencyKey: idempotencyKey(),
        }),
      output: 'transferView',
      errors: [
        'INVALID_AMOUNT',
        'SELF_PAYMENT',
        'WALLET_NOT_FOUND',
        'WALLET_FROZEN',
        'INSUFFICIENT_FUNDS',
        'POLICY_DENIED',
        'ENVIRONMENT_MISMATCH',
        'IDEMPOTENCY_KEY_REUSE',
        'IDEMPOTENCY_KEY_IN_USE',
        'CONCURRENT_UPDATE',
      ],
      run: ({ services, auth, audit, body, idempotencyKey }) =>
        services.transfers.internal(auth, audit, body, idempotencyKey),
    }),
    list({
      name: 'listTransfers',
      summary: 'List transfers',
      description:
        'Transfers of the organization (or of one wallet: deposits, withdrawals and internal transfers from or to it), newest first.',
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/transfers', status: 200 },
      mcp: { tool: 'list_transfers', hints: HINTS.read },
      filters: () => ({
        walletId: z.optional(walletId('Only transfers of this wallet.')),
        direction: z.optional(describe(z.enum(TRANSFER_DIRECTIONS), 'Only DEPOSIT, WITHDRAWAL or INTERNAL transfers.')),
        status: z.optional(describe(z.enum(TRANSFER_STATUSES), 'Only transfers in this status.')),
      }),
      output: 'transferPageView',
      errors: ['WALLET_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      list: async ({ services, auth, query }, page) => {
        const found = await services.transfers.list(auth, query, page);
        return { ...found, items: found.items.map(viewedBy(auth)) };
      },
      present: presentViewedTransfer,
    }),
    op({
      name: 'getTransfer',
      summary: 'Get a transfer',
      description: 'One transfer with its status, fee, rail and (for a completed ACH deposit) its clearing.',
      access: 'key',
      permission: 'payments:read',
      http: { method: 'GET', path: '/v1/transfers/{id}', status: 200 },
      params: transferParam,
      mcp: { tool: 'get_transfer', hints: HINTS.read },
      output: 'transferView',
      errors: ['TRANSFER_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
      run: async ({ services, auth, params }) => viewedBy(auth)(await services.transfers.get(auth, params.id!)),
      present: presentViewedTransfer,
    }),
    op({
      name: 'cancelTransfer',
      summary: 'Cancel a pending transfer',
      description:
        "Cancels a PENDING deposit or withdrawal before it settles (CANCELLED): a withdrawal's amount and fee return to the wallet. Any other state: 409 INVALID_STATE.",
      access: 'key',
      permission: 'payments:write',
      audit: AUDIT.transfer.cancel,
      events: ['deposit.cancelled', 'withdrawal.cancelled'],
      http: { method: 'POST', path: '/v1/transfers/{id}/cancel', status: 200 },
      params: transferParam,
      mcp: { tool: 'cancel_transfer', hints: HINTS.destructive },
      output: 'transferView',
      errors: ['TRANSFER_NOT_FOUND', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH', 'CONCURRENT_UPDATE'],
      run: ({ services, auth, audit, params }) => services.transfers.cancel(auth, audit, params.id!),
      present: presentTransfer,
    }),
    op({
      name: 'advanceTransfer',
      summary: 'Advance a sandbox transfer (test helper)',
      description:
        'Sandbox only: moves a transfer to PENDING, COMPLETED or FAILED now, through the same transitions and ledger movements as the workflow (which then finds the work done). From INITIATED, COMPLETED passes through PENDING. Any other move: 409 INVALID_STATE.',
      access: 'organization',
      permission: 'payments:write',
      audit: AUDIT.transfer.advance,
      events: [
        'deposit.initiated',
        'deposit.completed',
        'deposit.failed',
        'withdrawal.initiated',
        'withdrawal.completed',
        'withdrawal.failed',
        'wallet.funds_pending',
      ],
      sandboxOnly: true,
      http: { method: 'POST', path: '/v1/test-helpers/transfers/{id}/advance', status: 200 },
      params: transferParam,
      mcp: { tool: 'advance_test_transfer', hints: HINTS.update },
      body: () =>
        z.strictObject({
          to: describe(z.enum(['PENDING', 'COMPLETED', 'FAILED']), 'The state to move the transfer to.'),
        }),
      output: 'transferView',
      errors: ['TRANSFER_NOT_FOUND', 'INVALID_STATE', 'SANDBOX_ONLY', 'ENVIRONMENT_MISMATCH', 'CONCURRENT_UPDATE'],
      run: ({ services, auth, audit, params, body }) => services.transfers.advance(auth, audit, params.id!, body.to),
      present: presentTransfer,
    }),
  ],
);
