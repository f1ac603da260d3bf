import { ApiError, validationError } from '../errors.js';
import { ID_PREFIX } from '../ids.js';
import type { Sealer } from '../sealing.js';
import type { OrganizationScope } from '../tenancy.js';
import { DEFAULT_USDC_CHAIN, usdcChainNamed } from '../usdc/addresses.js';
import { accessibleBankAccount } from '../bank-accounts/access.js';
import { isValidRoutingNumber } from '../bank-accounts/bank-account-rules.js';
import type { BankAccountReader } from '../bank-accounts/ports.js';
import { sealingContexts } from '../bank-accounts/types.js';
import type { RailTransfer, SubmittedRailTransfer } from './ports.js';
import { assertRailCurrency, usdcCounterparty } from './transfer-rules.js';
import type { Counterparty, ExternalRail, Transfer, TransferCurrency } from './types.js';

/** A deposit's source or a withdrawal's destination as the request gives it (interface-spec 4.5). */
export interface CounterpartyInput {
  type: ExternalRail;
  bankAccountId?: string | undefined;
  routingNumber?: string | undefined;
  accountNumber?: string | undefined;
  address?: string | undefined;
  chain?: string | undefined;
}

export interface ExternalTransferInput {
  walletId: string;
  amount: string;
  currency: TransferCurrency;
  /** `source` of a deposit, `destination` of a withdrawal. */
  counterparty?: CounterpartyInput | undefined;
  bankAccountId?: string | undefined;
}

export interface ResolvedCounterparty {
  rail: ExternalRail;
  stored: Counterparty;
}

/** A counterparty as the idempotency fingerprint compares it: the default chain filled in, a chain named in any case canonical. */
export function normalizedCounterparty(counterparty: CounterpartyInput | undefined): CounterpartyInput | undefined {
  if (counterparty?.type !== 'USDC') return counterparty;
  const chain = counterparty.chain ?? DEFAULT_USDC_CHAIN;
  return { ...counterparty, chain: usdcChainNamed(chain) ?? chain };
}

/**
 * The outside end of deposits and withdrawals: what a request names (resolved and kept, an account
 * number only sealed) and what the rail is told of it. Only a submission opens the account number
 * from its seal (one read and, in AWS, one KMS Decrypt); settlement and cancel go by the rail's
 * reference and get the last 4 digits only, as does a submission whose linked account was deleted since.
 */
export function createTransferCounterparties(store: BankAccountReader, sealer: Sealer) {
  /**
   * The outside end of a deposit or withdrawal: a verified linked bank account (`bankAccountId`),
   * or the `source`/`destination` object (bank numbers, a provider's counterparty id, or a USDC
   * address). An account number given in the request is kept only sealed, bound to the transfer.
   */
  async function resolve(
    scope: OrganizationScope,
    transferId: string,
    field: 'source' | 'destination',
    input: ExternalTransferInput,
  ): Promise<ResolvedCounterparty> {
    const given = input.counterparty;
    if (given && input.bankAccountId !== undefined)
      throw validationError(field, `give either ${field} or bankAccountId, not both`);
    if (!given && input.bankAccountId === undefined)
      throw validationError(field, `${field} or bankAccountId is required`);
    const linkedId =
      input.bankAccountId ??
      (given?.bankAccountId?.startsWith(ID_PREFIX.bankAccount) ? given.bankAccountId : undefined);
    const rail: ExternalRail = given?.type ?? 'ACH';
    assertRailCurrency(rail, input.currency, field);

    if (rail === 'USDC') {
      if (!given?.address) throw validationError(`${field}.address`, 'is required for USDC');
      if (given.bankAccountId !== undefined || given.routingNumber !== undefined || given.accountNumber !== undefined)
        throw validationError(field, 'a USDC address takes no bank fields');
      return { rail, stored: usdcCounterparty(field, given.address, given.chain) };
    }
    if (given?.address !== undefined || given?.chain !== undefined)
      throw validationError(field, `${rail} takes bank fields, not an address`);

    if (linkedId !== undefined) {
      if (given?.routingNumber !== undefined || given?.accountNumber !== undefined)
        throw validationError(field, 'give a linked bank account or account numbers, not both');
      const account = accessibleBankAccount(
        scope,
        await store.getBankAccount(scope, linkedId),
        linkedId,
        input.bankAccountId !== undefined ? 'bankAccountId' : `${field}.bankAccountId`,
      );
      if (account.status !== 'VERIFIED')
        throw new ApiError('BANK_ACCOUNT_NOT_VERIFIED', undefined, { bankAccountId: linkedId, status: account.status });
      return {
        rail,
        stored: {
          type: rail as Exclude<ExternalRail, 'USDC'>,
          bankAccountId: account.id,
          routingNumber: account.routingNumber,
          last4: account.last4,
        },
      };
    }
    if (given?.bankAccountId !== undefined) {
      if (given.routingNumber !== undefined || given.accountNumber !== undefined)
        throw validationError(field, 'give a counterparty id or account numbers, not both');
      return { rail, stored: { type: rail as Exclude<ExternalRail, 'USDC'>, counterpartyId: given.bankAccountId } };
    }
    if (given?.routingNumber === undefined)
      throw validationError(`${field}.routingNumber`, `is required for ${rail} without a bankAccountId`);
    if (given.accountNumber === undefined)
      throw validationError(`${field}.accountNumber`, `is required for ${rail} without a bankAccountId`);
    if (!isValidRoutingNumber(given.routingNumber))
      throw validationError(`${field}.routingNumber`, 'is not a valid ABA routing number');
    return {
      rail,
      stored: {
        type: rail as Exclude<ExternalRail, 'USDC'>,
        routingNumber: given.routingNumber,
        last4: given.accountNumber.slice(-4),
        accountNumberSealed: await sealer.seal(given.accountNumber, transferId),
      },
    };
  }

  /** What a rail is told of a transfer at submission: a bank's account number opened from its seal (the linked account's, or the transfer's own). */
  async function submissionOf(transfer: Transfer): Promise<RailTransfer> {
    const told = railTransferOf(transfer);
    const counterparty = counterpartyOf(transfer);
    if (told.counterparty.kind !== 'bank' || counterparty.type === 'USDC' || counterparty.counterpartyId) return told;
    const accountNumber = counterparty.bankAccountId
      ? await linkedAccountNumber(transfer, counterparty.bankAccountId)
      : counterparty.accountNumberSealed
        ? await sealer.open(counterparty.accountNumberSealed, transfer.id)
        : undefined;
    return accountNumber ? { ...told, counterparty: { ...told.counterparty, accountNumber } } : told;
  }

  /** The account number of a linked bank account; none when the account was deleted since. */
  async function linkedAccountNumber(transfer: Transfer, bankAccountId: string): Promise<string | undefined> {
    const account = await store.getBankAccount(transfer, bankAccountId);
    return account?.accountNumberSealed
      ? sealer.open(account.accountNumberSealed, sealingContexts.accountNumber(account.id))
      : undefined;
  }

  /** What a rail is told of a submitted transfer (settlement, cancel): its reference, and a bank's last 4 digits only. */
  function submittedOf(transfer: Transfer): SubmittedRailTransfer {
    return {
      ...railTransferOf(transfer),
      reference: transfer.railReference ?? transfer.id,
      settleAt: transfer.settleAt ?? transfer.createdAt,
    };
  }

  return { resolve, submissionOf, submittedOf };
}

export type TransferCounterparties = ReturnType<typeof createTransferCounterparties>;

const counterpartyOf = (transfer: Transfer): Counterparty =>
  (transfer.direction === 'DEPOSIT' ? transfer.source : transfer.destination)!;

/** What a rail is told without opening a seal: a USDC address, a provider's counterparty id, or a bank's routing number and last 4 digits. */
function railTransferOf(transfer: Transfer): RailTransfer {
  const counterparty = counterpartyOf(transfer);
  const head = {
    id: transfer.id,
    environment: transfer.environment,
    direction: transfer.direction as 'DEPOSIT' | 'WITHDRAWAL',
    rail: transfer.rail as ExternalRail,
    amount: transfer.amount,
    currency: transfer.currency,
  };
  if (counterparty.type === 'USDC')
    return { ...head, counterparty: { kind: 'usdc', address: counterparty.address, chain: counterparty.chain } };
  if (counterparty.counterpartyId)
    return { ...head, counterparty: { kind: 'bank', counterpartyId: counterparty.counterpartyId } };
  return {
    ...head,
    counterparty: {
      kind: 'bank',
      ...(counterparty.routingNumber ? { routingNumber: counterparty.routingNumber } : {}),
      ...(counterparty.last4 ? { last4: counterparty.last4 } : {}),
    },
  };
}
