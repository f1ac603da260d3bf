import type { AuthorizationEngine } from '../../domain/cards/authorization-engine.js';
import { createCardService, type CardService } from '../../domain/cards/card-service.js';
import type { CardIssuer, CardStore } from '../../domain/cards/ports.js';
import type { Environment } from '../../domain/tenancy.js';
import { createCardStore } from '../../persistence/card-store.js';
import type { Core } from '../core.js';
import { cardIssuers } from './cards.js';

const notOffered = (method: keyof AuthorizationEngine) => () => {
  throw new Error(
    `card authorization ${method} is not offered by the MCP tools (no tool plays the card network; see cardToolService)`,
  );
};

/**
 * No tool plays the card network: the authorizations are the card network's function
 * (functions/card-network) and the sandbox test helpers' (createTestAuthorization and the capture,
 * reversal and refund helpers: HTTP only, no MCP tool; test/unit/mcp-tools.test.ts holds it so).
 */
const NO_AUTHORIZATION_ENGINE: AuthorizationEngine = {
  authorize: notOffered('authorize'),
  authorizeForNetwork: notOffered('authorizeForNetwork'),
  capture: notOffered('capture'),
  reverse: notOffered('reverse'),
  refund: notOffered('refund'),
  getAuthorization: notOffered('getAuthorization'),
  expireDue: notOffered('expireDue'),
};

/**
 * The card service of the MCP tools (TOOL_AREAS): cards and cardholders as `cardService` builds
 * them, without the authorization engine no tool runs (about 12 KB of the MCP bundle; its methods
 * refuse). Every other function that serves the card group builds `cardService` (./cards.ts).
 */
export function cardToolService(
  core: Core,
  overrides: { store?: CardStore; issuers?: Record<Environment, CardIssuer> } = {},
): CardService {
  return createCardService(
    { ...core.deps, store: overrides.store ?? createCardStore(core.table) },
    { issuers: overrides.issuers ?? cardIssuers(core), engine: NO_AUTHORIZATION_ENGINE },
  );
}
