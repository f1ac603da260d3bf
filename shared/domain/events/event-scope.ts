import type { OutboxEvent } from '../types.js';

const WALLET_ID = /^wal_[A-Za-z0-9]+$/;

/**
 * The wallets an event concerns (at most two): a wallet-scoped (agent) key sees an event when its
 * wallet is one of them. Read from the public payload only, by event family.
 */
export function walletsOfEvent(event: Pick<OutboxEvent, 'type' | 'data'>): string[] {
  const data = event.data;
  const candidates = ((): unknown[] => {
    switch (event.type.split('.')[0]) {
      case 'payment':
        return [data.from, data.to, data.walletId];
      case 'approval':
        return [data.walletId];
      case 'deposit':
      case 'withdrawal':
        return [data.walletId];
      case 'agent':
        return [data.id];
      case 'card':
        return [data.walletId];
      case 'wallet':
        return [data.walletId ?? data.id];
      default:
        return [];
    }
  })();
  return [...new Set(candidates.filter((value): value is string => typeof value === 'string' && WALLET_ID.test(value)))].slice(0, 2);
}
