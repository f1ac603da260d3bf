import Big from 'big.js';
import { ApiError, validationError } from '../errors.js';
import { formatAmount, roundToCents } from '../money.js';
import type { Environment } from '../tenancy.js';
import { usdcRecipientName } from '../policies/recipients.js';
import {
  DEFAULT_USDC_CHAIN,
  USDC_CHAIN_NAMES,
  usdcAddressProblem,
  usdcChainNamed,
  type UsdcChain,
} from '../usdc/addresses.js';
import type { Counterparty, ExternalRail, TransferDirection } from './types.js';

/** interface-spec 8 and decisions.md section 2: deposits and withdrawals pay 0.5 %, at least 0.25; internal transfers are free. */
export const TRANSFER_FEE_RATE = new Big('0.005');
export const MINIMUM_TRANSFER_FEE = new Big('0.25');
export const MINIMUM_DEPOSIT = new Big('25.00');

/** The fee of a transfer, exact and rounded half-up to the cent. */
export function transferFeeOf(direction: TransferDirection, amount: Big): Big {
  if (direction === 'INTERNAL') return new Big(0);
  const fee = roundToCents(amount.times(TRANSFER_FEE_RATE));
  return fee.lt(MINIMUM_TRANSFER_FEE) ? MINIMUM_TRANSFER_FEE : fee;
}

/** A deposit of at least 25.00 (and so always more than its fee). */
export function assertDepositAmount(amount: Big): void {
  if (amount.lt(MINIMUM_DEPOSIT)) {
    throw new ApiError('INVALID_AMOUNT', `amount: the minimum deposit is ${formatAmount(MINIMUM_DEPOSIT)}`, {
      field: 'amount',
      minimum: formatAmount(MINIMUM_DEPOSIT),
    });
  }
}

/** How long each rail takes to settle (decisions.md section 4, sandbox); production rails report their own times. */
export const RAIL_SETTLEMENT_MS: Record<ExternalRail, number> = {
  ACH: 3 * 60_000,
  WIRE: 60_000,
  FEDNOW: 2_000,
  USDC: 30_000,
};

/**
 * How long a completed ACH deposit stays in `pendingBalance` before it becomes available: two days
 * in production (ACH returns), two minutes in the sandbox (both divided by TIME_SCALE in the sandbox).
 */
export const ACH_CLEARING_MS: Record<Environment, number> = { PRODUCTION: 2 * 24 * 3600_000, SANDBOX: 2 * 60_000 };

/** Sandbox durations are divided by TIME_SCALE (decisions.md section 0); production ones are real. */
export function scaledMs(environment: Environment, ms: number, timeScale: number): number {
  return environment === 'SANDBOX' ? Math.max(1, Math.floor(ms / timeScale)) : ms;
}

/** How long past its due time a transfer's work may be late before the reconciler does it (real time: 5 minutes). */
export const RECONCILE_GRACE_MS = 5 * 60_000;

/**
 * When the reconciler looks at a transfer whose next step is due at `due` (now for a submission,
 * the settlement time, the end of the clearing) if the workflow or the expiry has not done it:
 * a grace period later, long enough for the workflow's own retries (sandbox: divided by TIME_SCALE).
 */
export function reconcileAfter(environment: Environment, due: Date, timeScale: number): string {
  return new Date(due.getTime() + scaledMs(environment, RECONCILE_GRACE_MS, timeScale)).toISOString();
}

/** Rails by currency: USD moves on ACH, WIRE and FEDNOW; USDC on its chain. */
export function assertRailCurrency(rail: ExternalRail, currency: 'USD' | 'USDC', field: string): void {
  if ((rail === 'USDC') !== (currency === 'USDC')) {
    throw validationError(`${field}.type`, `${rail} moves ${rail === 'USDC' ? 'USDC' : 'USD'}, not ${currency}`);
  }
}

/** The chain of a USDC counterparty (any case, canonical name kept) and its address, checked for that chain and kept as given. */
export function usdcCounterparty(
  field: string,
  address: string,
  chainName: string | undefined,
): { type: 'USDC'; address: string; chain: UsdcChain } {
  const chain = usdcChainNamed(chainName ?? DEFAULT_USDC_CHAIN);
  if (!chain) throw validationError(`${field}.chain`, `must be one of ${USDC_CHAIN_NAMES.join(', ')}`);
  const problem = usdcAddressProblem(chain, address);
  if (problem) throw validationError(`${field}.address`, `${problem} (a ${chain} address)`);
  return { type: 'USDC', address, chain };
}

/**
 * A withdrawal's recipient as spend policies name it: a linked bank account by its `ba_` id, a USDC
 * address as `usdc:<chain>:<address>` (which list entries cover it, by address and chain:
 * policies/recipients.ts); a bank given by numbers or a provider's id has none.
 */
export function withdrawalRecipientOf(counterparty: Counterparty): string | undefined {
  if (counterparty.type === 'USDC')
    return usdcRecipientName(usdcChainNamed(counterparty.chain) ?? DEFAULT_USDC_CHAIN, counterparty.address);
  return counterparty.bankAccountId;
}
