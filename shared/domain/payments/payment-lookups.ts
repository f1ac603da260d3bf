import { assertPayable } from '../access.js';
import { ApiError } from '../errors.js';
import type { IdempotencySlot } from '../idempotency/ports.js';
import { MERCHANT_PREFIX } from '../policies/recipients.js';
import type { OrganizationScope } from '../tenancy.js';
import type { Wallet } from '../types.js';
import type { WalletSnapshot } from '../wallets/ports.js';
import type { PaymentStore } from './ports.js';

export interface Payee {
  wallet: Wallet;
  merchant?: string;
}

/** The payee as read (or why it can not be paid), and the key's first slot read with it. */
export interface PayeeRead {
  payee: Promise<Payee>;
  slot: IdempotencySlot | null | undefined;
}

/** Reads a payment needs before its transaction; a batch shares the payer's and the payees' across its items. */
export interface PaymentLookups {
  snapshot(walletId: string): Promise<WalletSnapshot | undefined>;
  payee(scope: OrganizationScope, to: string, slotId: string | undefined): Promise<PayeeRead>;
}

export function createPaymentLookups(store: PaymentStore) {
  /**
   * The payee (a wallet, or a merchant's wallet) and the key's first slot in one read. A payee
   * that can not be paid is kept as a rejected promise: its error is thrown in the evaluation
   * order (after a replay and the payer's checks), not here.
   */
  async function readPayee(scope: OrganizationScope, to: string, slotId: string | undefined): Promise<PayeeRead> {
    if (!to.startsWith(MERCHANT_PREFIX)) {
      const read = await store.readTogether({ slotId, walletId: to });
      return {
        slot: read.slot,
        payee: settled(async () => ({ wallet: assertPayable(scope, read.wallet ?? undefined) })),
      };
    }
    const domain = to.slice(MERCHANT_PREFIX.length).toLowerCase();
    const read = await store.readTogether({ slotId, merchant: { environment: scope.environment, domain } });
    const payee = settled(async (): Promise<Payee> => {
      const merchant = read.merchant ?? undefined;
      if (!merchant) throw new ApiError('MERCHANT_NOT_FOUND', `No merchant ${domain}.`, { merchant: domain });
      if (merchant.status === 'SUSPENDED')
        throw new ApiError('MERCHANT_SUSPENDED', `The merchant ${domain} is suspended.`, { merchant: domain });
      if (!merchant.closedLoop)
        throw new ApiError('CLOSED_LOOP_UNAVAILABLE', `The merchant ${domain} does not accept closed-loop payments.`, {
          merchant: domain,
        });
      return { wallet: assertPayable(scope, await store.getWallet(merchant.walletId)), merchant: domain };
    });
    return { slot: read.slot, payee };
  }

  const freshLookups: PaymentLookups = { snapshot: (walletId) => store.getWalletSnapshot(walletId), payee: readPayee };

  /**
   * Within one batch the payer's policies and the payee are read once (each item's key slot is
   * its own). That is safe because the posting transaction re-checks everything that can change
   * meanwhile (status, environment, funds, period spend) as conditions.
   */
  function batchLookups(): PaymentLookups {
    const snapshots = new Map<string, Promise<WalletSnapshot | undefined>>();
    const payees = new Map<string, Promise<Payee>>();
    return {
      snapshot(walletId) {
        let value = snapshots.get(walletId);
        if (!value) {
          value = store.getWalletSnapshot(walletId);
          snapshots.set(walletId, value);
          value.catch(() => snapshots.delete(walletId));
        }
        return value;
      },
      async payee(scope, to, slotId) {
        const known = payees.get(to);
        if (known)
          return {
            payee: known,
            slot: slotId === undefined ? undefined : ((await store.getIdempotencySlot(slotId)) ?? null),
          };
        const read = await readPayee(scope, to, slotId);
        payees.set(to, read.payee);
        return read;
      },
    };
  }

  return { freshLookups, batchLookups };
}

/** A promise whose rejection is handled until someone awaits it (its error belongs to a later check). */
function settled<T>(run: () => Promise<T>): Promise<T> {
  const promise = run();
  promise.catch(() => undefined);
  return promise;
}
