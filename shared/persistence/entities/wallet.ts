import Big from 'big.js';
import type { Bucket } from '../../domain/ledger/posting.js';
import type { Period, SpendCounter } from '../../domain/policies/policy-types.js';
import type { Environment } from '../../domain/tenancy.js';
import type { Wallet } from '../../domain/types.js';
import { readBig, readInt, toNumberAttribute } from '../client.js';
import { str, type Item, type ItemKey } from '../item.js';

export const WALLET_ENTITY = 'WALLET';

/**
 * A wallet's partition holds, in sort-key order, its policies (POLICY#...) and the wallet item
 * itself (WALLET): one query from "POLICY#" reads the wallet with its policies. The wallet item
 * carries the balances and the spend of the current calendar periods (`spend#<PERIOD>#<key>`),
 * and no index keys: lists find wallets through wallet-listing.ts, so balance changes write no
 * index entry.
 */
export const walletKeys = {
  partition: (walletId: string) => `WALLET#${walletId}`,
  primary: (walletId: string): ItemKey => ({ PK: walletKeys.partition(walletId), SK: 'WALLET' }),
};

/** The wallet item's attribute of each bucket a leg moves. */
export const bucketAttribute: Record<Bucket, string> = {
  available: 'balance',
  held: 'heldBalance',
  pending: 'pendingBalance',
};

const SPEND_PREFIX = 'spend#';
const PERIODS: readonly Period[] = ['DAY', 'WEEK', 'MONTH'];

/** The spend of one calendar period, an attribute of the wallet item (e.g. `spend#DAY#2026-11-21`). */
export const spendAttribute = (period: Period, periodKey: string) => `${SPEND_PREFIX}${period}#${periodKey}`;

/** The spend counters a wallet item carries. */
export function spendCountersOf(item: Item): SpendCounter[] {
  const counters: SpendCounter[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(SPEND_PREFIX)) continue;
    const [period, ...key] = name.slice(SPEND_PREFIX.length).split('#');
    if (!PERIODS.includes(period as Period)) continue;
    counters.push({
      walletId: str(item.id),
      period: period as Period,
      periodKey: key.join('#'),
      spent: readBig(value),
    });
  }
  return counters;
}

export const walletCodec = {
  toItem(wallet: Wallet): Item {
    return {
      ...walletKeys.primary(wallet.id),
      entityType: WALLET_ENTITY,
      id: wallet.id,
      organizationId: wallet.organizationId,
      environment: wallet.environment,
      name: wallet.name,
      agentName: wallet.agentName,
      walletType: wallet.walletType,
      isMain: wallet.isMain,
      status: wallet.status,
      balance: toNumberAttribute(wallet.balance),
      pendingBalance: toNumberAttribute(wallet.pendingBalance),
      heldBalance: toNumberAttribute(wallet.heldBalance),
      currency: wallet.currency,
      createdAt: wallet.createdAt,
      deletedAt: wallet.deletedAt,
      activeKeyId: wallet.activeKeyId,
    };
  },
  fromItem(item: Item): Wallet {
    return {
      id: str(item.id),
      organizationId: str(item.organizationId),
      environment: item.environment as Environment,
      name: str(item.name),
      ...(typeof item.agentName === 'string' ? { agentName: item.agentName } : {}),
      walletType: item.walletType as Wallet['walletType'],
      isMain: item.isMain === true,
      status: item.status as Wallet['status'],
      balance: readBig(item.balance),
      pendingBalance: item.pendingBalance === undefined ? new Big(0) : readBig(item.pendingBalance),
      heldBalance: item.heldBalance === undefined ? new Big(0) : readBig(item.heldBalance),
      currency: 'USD',
      createdAt: str(item.createdAt),
      ...(typeof item.deletedAt === 'string' ? { deletedAt: item.deletedAt } : {}),
      ...(typeof item.activeKeyId === 'string' ? { activeKeyId: item.activeKeyId } : {}),
    };
  },
  /** Postings the wallet took part in (each adds one): a statement read checks nothing landed meanwhile. */
  entryCountOf(item: Item): number {
    return readInt(item.entryCount);
  },
};
