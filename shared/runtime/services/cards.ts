import { randomInt } from 'node:crypto';
import type { Environment } from '../../domain/tenancy.js';
import { createAuthorizationEngine } from '../../domain/cards/authorization-engine.js';
import { createCardService, type CardService } from '../../domain/cards/card-service.js';
import type { CardIssuer, CardStore } from '../../domain/cards/ports.js';
import { sandboxIssuer, unconfiguredIssuer } from '../../domain/cards/sandbox-issuer.js';
import { createCardStore } from '../../persistence/card-store.js';
import type { Core } from '../core.js';
import { dataSealer } from '../sealing.js';

/** A uniformly random decimal digit from the CSPRNG (card numbers and CVCs). */
const randomDigit = () => randomInt(0, 10);

/** The sandbox issuer (numbers and CVCs sealed by the data sealer) in SANDBOX; none configured in PRODUCTION. */
export const cardIssuers = (core: Core): Record<Environment, CardIssuer> => ({
  SANDBOX: sandboxIssuer(dataSealer(core), randomDigit),
  PRODUCTION: unconfiguredIssuer,
});

/**
 * The card service of functions that never issue a card nor open its details (the card network's
 * authorizations, the expiry sweep's reversals): no issuer, so no data sealer (nor KMS client) in
 * their bundles.
 */
export function cardAuthorizationService(core: Core): CardService {
  const deps = { ...core.deps, store: createCardStore(core.table) };
  return createCardService(deps, {
    issuers: { SANDBOX: unconfiguredIssuer, PRODUCTION: unconfiguredIssuer },
    engine: createAuthorizationEngine(deps),
  });
}

/** Cards: the sandbox issuer (numbers and CVCs sealed by the data sealer) in SANDBOX; in PRODUCTION no issuing processor is configured yet, so live cards are refused. */
export function cardService(
  core: Core,
  overrides: { store?: CardStore; issuers?: Record<Environment, CardIssuer> } = {},
): CardService {
  const deps = { ...core.deps, store: overrides.store ?? createCardStore(core.table) };
  return createCardService(deps, {
    issuers: overrides.issuers ?? cardIssuers(core),
    engine: createAuthorizationEngine(deps),
  });
}
