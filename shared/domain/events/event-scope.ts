import { EVENT_DECLARATIONS, type EmittedEventName } from '../event-names.js';
import { ID_PREFIX } from '../ids.js';
import type { OutboxEvent } from '../types.js';
import type { WalletsOfPayload } from './event-declaration.js';

const WALLET_ID = new RegExp(`^${ID_PREFIX.wallet}[A-Za-z0-9]+$`);

const isEmitted = (type: string): type is EmittedEventName => Object.hasOwn(EVENT_DECLARATIONS, type);

/**
 * The wallets an event concerns (at most two): a wallet-scoped (agent) key sees an event when its
 * wallet is one of them. Read from the public payload only, by the function its area declares for
 * the event (`wallets` in its `<area>-events.ts`); what is not a wallet id (a system account) is dropped.
 */
export function walletsOfEvent(event: Pick<OutboxEvent, 'type' | 'data'>): string[] {
  if (!isEmitted(event.type)) return [];
  const walletsOf = EVENT_DECLARATIONS[event.type].wallets as WalletsOfPayload<Record<string, unknown>>;
  const candidates: readonly unknown[] = walletsOf(event.data);
  return [
    ...new Set(candidates.filter((value): value is string => typeof value === 'string' && WALLET_ID.test(value))),
  ].slice(0, 2);
}
