import type { Period, SpendCounter } from '../../domain/policies/policy-types.js';
import { readBig } from '../client.js';
import type { Item, ItemKey } from '../item.js';
import { walletKeys } from './wallet.js';

export const SPEND_COUNTER_ENTITY = 'SPEND_COUNTER';

/** Spend of a wallet in one calendar period, in the wallet's partition; created by the first posting that counts. */
export const spendCounterKeys = {
  primary: (walletId: string, period: Period, periodKey: string): ItemKey => ({ PK: walletKeys.partition(walletId), SK: `SPEND#${period}#${periodKey}` }),
};

export const spendCounterCodec = {
  fromItem(item: Item): SpendCounter {
    return { walletId: String(item.walletId), period: item.period as Period, periodKey: String(item.periodKey), spent: readBig(item.spent ?? '0') };
  },
};
