import type { ServiceDeps } from '../ports.js';
import type { RequestContext } from '../tenancy.js';
import { accessibleAuthorization } from './access.js';
import { createAuthorize } from './authorization-authorize.js';
import { createCapture } from './authorization-capture.js';
import { createAuthorizationCommit } from './authorization-commit.js';
import { createExpiry } from './authorization-expiry.js';
import { createRefund } from './authorization-refund.js';
import { createReversal } from './authorization-reversal.js';
import type { CardStore } from './ports.js';
import type { Authorization } from './types.js';

export {
  CARD_NETWORK_ACTOR,
  ENVIRONMENT_MISMATCH_DECLINE,
  type AuthorizationRequest,
  type NetworkDecision,
} from './authorization-authorize.js';
export {
  AUTHORIZATION_EXPIRY_ACTOR,
  AUTHORIZATION_EXPIRY_BATCH_SIZE,
  AUTHORIZATION_EXPIRY_MS,
  authorizationExpiresAt,
} from './authorization-expiry.js';

/**
 * The authorization engine: the real-time decision committed as one transaction with its hold
 * (authorization-authorize.ts), and the capture, reversal, expiry and refund that follow
 * (authorization-capture.ts, -reversal.ts, -expiry.ts, -refund.ts), over the shared commit helpers
 * (authorization-commit.ts). The card network's function (functions/card-network) and the sandbox
 * test helpers call the same code.
 */
export function createAuthorizationEngine(deps: ServiceDeps<CardStore>) {
  const { store } = deps;
  const commit = createAuthorizationCommit(deps);
  const { authorize, authorizeForNetwork } = createAuthorize(deps, commit);
  const { reverseApproved, reverse } = createReversal(deps, commit);

  async function getAuthorization(ctx: RequestContext, authorizationId: string): Promise<Authorization> {
    return accessibleAuthorization(ctx, await store.getAuthorization(authorizationId), authorizationId);
  }

  return {
    authorize,
    authorizeForNetwork,
    capture: createCapture(deps, commit),
    reverse,
    refund: createRefund(deps, commit),
    getAuthorization,
    expireDue: createExpiry(deps, reverseApproved),
  };
}

export type AuthorizationEngine = ReturnType<typeof createAuthorizationEngine>;
