import { scopeOf } from '../access.js';
import { ApiError, notFound } from '../errors.js';
import type { RequestContext } from '../tenancy.js';
import type { Authorization, Card, Cardholder } from './types.js';

/**
 * What a caller may see of cards (decisions.md section 1): another organization's card answers as
 * absent, and so does, for a wallet-scoped (agent) key, a card of another wallet; the caller's own
 * card in the other environment answers ENVIRONMENT_MISMATCH.
 */
export function accessibleCard(ctx: RequestContext, card: Card | undefined, cardId: string): Card {
  const scope = scopeOf(ctx.principal);
  if (!card || card.organizationId !== scope.organizationId) throw notFound('CARD_NOT_FOUND', cardId);
  if (ctx.principal.walletId !== null && card.walletId !== ctx.principal.walletId)
    throw notFound('CARD_NOT_FOUND', cardId);
  if (card.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
  return card;
}

/** Cardholders are the organization's: a wallet-scoped key sees none. */
export function accessibleCardholder(
  ctx: RequestContext,
  cardholder: Cardholder | undefined,
  cardholderId: string,
  field?: string,
): Cardholder {
  const scope = scopeOf(ctx.principal);
  const absent = () => notFound('CARDHOLDER_NOT_FOUND', cardholderId, field ? { field } : undefined);
  if (!cardholder || cardholder.organizationId !== scope.organizationId || ctx.principal.walletId !== null)
    throw absent();
  if (cardholder.environment !== scope.environment)
    throw new ApiError('ENVIRONMENT_MISMATCH', undefined, field ? { field } : undefined);
  return cardholder;
}

export function accessibleAuthorization(
  ctx: RequestContext,
  authorization: Authorization | undefined,
  authorizationId: string,
): Authorization {
  const scope = scopeOf(ctx.principal);
  if (!authorization || authorization.organizationId !== scope.organizationId)
    throw notFound('AUTHORIZATION_NOT_FOUND', authorizationId);
  if (ctx.principal.walletId !== null && authorization.walletId !== ctx.principal.walletId)
    throw notFound('AUTHORIZATION_NOT_FOUND', authorizationId);
  if (authorization.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
  return authorization;
}
