import { loadConfig, type Config } from '../config/config.js';
import type { Clock } from '../domain/clock.js';
import { core as sharedCore, createCore, type Core, type TableContext } from './core.js';
import { activationService } from './services/activation.js';
import { cardService } from './services/cards.js';
import { transferService } from './services/transfers.js';
import { apiKeyService } from './services/api-keys.js';
import { complianceService } from './services/compliance.js';
import { organizationService } from './services/organizations.js';
import { hotModeService } from './services/hot-mode.js';
import { reviewService } from './services/reviews.js';
import { userService } from './services/users.js';
import { lazyServices, TOOL_AREAS, type AreaBuilder } from './tool-services.js';
import type { AreaServices } from '../operations/index.js';

/**
 * Every area's service and its builder: the one list a new area joins, through TOOL_AREAS
 * (./tool-services.ts) when its group offers MCP tools. Each area's builder is its own file,
 * shared/runtime/services/<area>.ts (`(core, overrides = {}) => service`, over its own area's
 * store unless `overrides.store` names another, plus what else a test may replace; no module-level
 * code); what several areas share is built in shared/runtime (expiries.ts, sealing.ts,
 * webhook-cipher.ts, event-bus.ts, workflows.ts). `Services`, `StoreOverrides` and the
 * container's lazy services are derived from this list. Only this module and ./tool-services.ts
 * import the builders: a function imports its own area's file, so it bundles only that area, and
 * the MCP function the tool areas only.
 */
const AREAS = {
  organizations: organizationService,
  apiKeys: apiKeyService,
  activation: activationService,
  compliance: complianceService,
  users: userService,
  reviews: reviewService,
  hotMode: hotModeService,
  ...TOOL_AREAS,
  // The whole services where the MCP tools' (TOOL_AREAS) hold a part: the card service with the authorization
  // engine (the sandbox test helpers run it), the transfer service with the workflow steps (tests run them).
  cards: cardService,
  transfers: transferService,
} satisfies Record<string, AreaBuilder>;

type Areas = typeof AREAS;
type StoreOf<Builder> = Builder extends (core: Core, overrides?: infer Overrides) => unknown
  ? Exclude<NonNullable<Overrides> extends { store?: infer Store } ? Store : never, undefined>
  : never;

/** Every service, for tests and tools that serve every area (the MCP function holds the tool areas' only, ./tool-services.ts). */
export type Services = { [Area in keyof Areas]: ReturnType<Areas[Area]> };

/** Stores to use instead of the table's (tests: fault injection). */
export type StoreOverrides = { [Area in keyof Areas]?: StoreOf<Areas[Area]> };

/**
 * The container holds every service an operation of the catalog needs: a group whose services are
 * missing here fails to compile (and a tool group's, in TOOL_AREAS: ./tool-services.ts). (Until
 * 2026-11-23 the webhook and event tools of MCP found no service and answered 500.)
 */
const holdsEveryArea: Services extends AreaServices ? true : never = true;
void holdsEveryArea;

/**
 * The core and every service, each built on first use. Functions do not use it (they build their
 * own area's service from the core, the MCP function the tool areas': ./tool-services.ts); tests do.
 */
export interface Container {
  config: Config;
  clock: Clock;
  core: Core;
  services: Services;
}

export function createContainer(
  config: Config = loadConfig(),
  overrides: { clock?: Clock; table?: TableContext; stores?: StoreOverrides } = {},
): Container {
  return containerOf(createCore(config, overrides), overrides.stores);
}

function containerOf(core: Core, stores: StoreOverrides = {}): Container {
  const services = lazyServices(core, AREAS, stores) as Services;
  return { config: core.config, clock: core.clock, core, services };
}

let shared: Container | undefined;

/** The process-wide container, over the process-wide core (the one the handlers use). */
export function container(): Container {
  shared ??= containerOf(sharedCore());
  return shared;
}
