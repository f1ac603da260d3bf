import type Big from 'big.js';
import { ApiError } from '../errors.js';
import { canTransition } from '../state-table.js';
import type { RequestContext } from '../tenancy.js';
import { accessibleAuthorization } from './access.js';
import { isLiveKey } from './card-rules.js';
import { AUTHORIZATION_STATES } from './card-states.js';
import type { CardChange, CardStore } from './ports.js';
import type { Authorization, Card } from './types.js';

/**
 * What a capture and a reversal share: the APPROVED authorization they act on, and the card write
 * that settles its spend.
 */

export type ApprovedAuthorization = Authorization & { holdId: string };

/** The caller's APPROVED authorization with a hold, or INVALID_STATE for any other. */
export async function loadApproved(
  store: CardStore,
  ctx: RequestContext,
  authorizationId: string,
  trigger: 'capture' | 'reverse',
): Promise<ApprovedAuthorization> {
  const auth = accessibleAuthorization(ctx, await store.getAuthorization(authorizationId), authorizationId);
  if (auth.status === 'DECLINED' || !canTransition(AUTHORIZATION_STATES, auth.status, trigger) || !auth.holdId) {
    throw new ApiError(
      'INVALID_STATE',
      `A ${auth.status} authorization can not be ${trigger === 'capture' ? 'captured' : 'reversed'}.`,
      { status: auth.status },
    );
  }
  return auth as ApprovedAuthorization;
}

/**
 * The card write of a capture or reversal: spend given back (only to counters still kept), a
 * single-use card closed by a capture, or freed by the reversal of its authorization (decisions:
 * docs/api.md "Cards": a reversed single-use authorization paid nothing, so the card may be used again).
 */
export function settleCard(
  auth: Authorization,
  card: Card | undefined,
  released: Big,
  now: Date,
  frees = false,
): { change?: CardChange; closed?: Card } {
  const keys = (auth.spendKeys ?? []).filter((key) => isLiveKey(key, now));
  const release = released.gt(0) && keys.length > 0 ? { amount: released.toFixed(), keys } : undefined;
  const closes = card?.type === 'SINGLE_USE' && card.status !== 'CANCELLED';
  const free = frees && auth.usesCard ? auth.id : undefined;
  if (!release && !closes && !free) return {};
  const at = now.toISOString();
  return {
    change: {
      type: 'settleCard',
      cardId: auth.cardId,
      ...(release ? { release } : {}),
      ...(closes ? { closeAt: at } : {}),
      ...(free ? { free } : {}),
    },
    ...(closes ? { closed: { ...card, status: 'CANCELLED', cancelledAt: at, updatedAt: at } } : {}),
  };
}
