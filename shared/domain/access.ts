import { ApiError, notFound } from './errors.js';
import type { OrganizationScope, Principal } from './tenancy.js';
import type { Wallet } from './types.js';
import type { WalletReader } from './wallets/ports.js';

/** The organization and environment a key acts in; operator keys have none. */
export function scopeOf(principal: Principal): OrganizationScope {
  if (!principal.organizationId || !principal.environment) {
    throw new ApiError('PERMISSION_DENIED', 'This operation needs an organization API key.');
  }
  return { organizationId: principal.organizationId, environment: principal.environment };
}

/**
 * Loads a wallet the caller may see. Other organizations' wallets and, for a wallet-scoped key,
 * every wallet but its own answer as absent (404); the caller's own wallet in the other
 * environment answers ENVIRONMENT_MISMATCH.
 */
export async function loadAccessibleWallet(
  store: WalletReader,
  principal: Principal,
  walletId: string,
): Promise<Wallet> {
  return assertAccessible(principal, await store.getWallet(walletId), walletId);
}

/**
 * `walletId`: the id the request asked for, named in the 404's message. Always the id asked for,
 * never one read from the stored wallet: otherwise another organization's wallet would answer with a
 * message an id that exists nowhere does not get (an existence oracle, decisions.md section 1).
 */
export function assertAccessible(principal: Principal, wallet: Wallet | undefined, walletId: string): Wallet {
  const scope = scopeOf(principal);
  if (!wallet || wallet.organizationId !== scope.organizationId) throw notFound('WALLET_NOT_FOUND', walletId);
  if (principal.walletId !== null && principal.walletId !== wallet.id) throw notFound('WALLET_NOT_FOUND', walletId);
  if (wallet.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
  return wallet;
}

/**
 * A payee may be any wallet of the same environment (decisions.md section 1). Another
 * organization's wallet in the other environment answers as absent; the caller's own answers
 * ENVIRONMENT_MISMATCH.
 */
export function assertPayable(scope: OrganizationScope, wallet: Wallet | undefined): Wallet {
  if (!wallet) throw new ApiError('WALLET_NOT_FOUND', undefined, { field: 'to' });
  if (wallet.environment !== scope.environment) {
    if (wallet.organizationId === scope.organizationId)
      throw new ApiError('ENVIRONMENT_MISMATCH', undefined, { field: 'to' });
    throw new ApiError('WALLET_NOT_FOUND', undefined, { field: 'to' });
  }
  return wallet;
}
