import { randomBytes } from 'node:crypto';
import { issueKey } from '../auth/api-key-format.js';
import { loadConfig, SANDBOX_FUNDING_MAX, type Config } from '../config/config.js';
import type { ApiKeyAuthReader } from '../domain/api-keys/ports.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { newId, type IdGenerator } from '../domain/ids.js';
import type { CoreDeps } from '../domain/ports.js';
import { createCursorCodec, type CursorCodec } from '../operations/pagination.js';
import { createRateLimiter, type RateLimiter } from '../edge/rate-limit.js';
import { createApiKeyAuthReader } from '../persistence/api-key-auth-store.js';
import { createDocumentClient } from '../persistence/client.js';
import { createConfigStore } from '../persistence/config-store.js';
import { createHotRouting, type HotRouting } from '../persistence/hot/hot-cache.js';
import { conflictCounterOf, registeredHotWallets } from '../persistence/hot/hot-candidates.js';
import { keeperReads } from '../persistence/hot/keeper.js';
import { installObservability } from '../observability/domain-telemetry.js';
import type { TableContext } from '../persistence/table-context.js';

export type { TableContext };

/**
 * What every function needs whatever its area: config parsed once, the clock, ids, the table
 * (one SDK client per process), the deps every service shares, authentication's key reads,
 * cursors and rate limiters. It builds no service and no area store: a function builds its own
 * area's service from it (shared/runtime/services/<area>.ts), so it bundles only that area.
 */
export interface Core {
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  table: TableContext;
  deps: CoreDeps;
  authKeys: ApiKeyAuthReader;
  /** The cursor codec, its secret from config or else from the table (created on first use). */
  cursors(): Promise<CursorCodec>;
  rateLimiter: RateLimiter;
  publicRateLimiter: RateLimiter;
}

const CURSOR_SECRET_NAME = 'cursor-signing-secret';
const CURSOR_SECRET_BYTES = 32;
const SECONDS_PER_MINUTE = 60;

/**
 * The hot-wallet routing of a process: with the keeper's reads for the slow path; where the process
 * serves one request at a time (Lambda) a sticky lane per hot wallet and the registry of hot wallets
 * read at its first commit; the local server serves many at once, picks lanes by id and learns a hot
 * wallet from its first cold route. The bench builds its execution environments with it.
 */
export function processRouting(
  table: TableContext,
  oneRequestAtATime: boolean,
  inject: { now?: () => number; random?: () => number } = {},
): HotRouting {
  return createHotRouting({
    ...inject,
    reads: keeperReads(table),
    ...(oneRequestAtATime
      ? {
          stickyLanes: true,
          knownHot: async () => (await registeredHotWallets(table)).map((entry) => entry.walletId),
        }
      : {}),
  });
}

/**
 * The process's table, with its hot-wallet routing cache and the keeper's reads for the slow path
 * (docs/architecture.md "Hot wallets"): a sticky lane per hot wallet only where the process serves
 * one request at a time (Lambda); the local server serves many at once and picks lanes by id.
 */
function tableOf(config: Config, clock: Clock): TableContext {
  const base = {
    client: createDocumentClient({ endpoint: config.dynamodbEndpoint, region: config.region }),
    tableName: config.tableName,
    clock,
  };
  // The cache's TTL on the clock the keeper's settle window is measured on (a demotion must outlast every cached route).
  return { ...base, hot: processRouting(base, config.oneRequestAtATime, { now: () => clock.now().getTime() }) };
}

export function createCore(
  config: Config = loadConfig(),
  overrides: { clock?: Clock; table?: TableContext } = {},
): Core {
  // The domain reports its failures and outcomes through the logger and the metrics (shared/observability).
  installObservability();
  const clock = overrides.clock ?? systemClock;
  const table = overrides.table ?? tableOf(config, clock);
  // Conflict counts for automatic promotion are stamped with this clock (hot/hot-candidates.ts).
  conflictCounterOf(table, clock);
  const deps: CoreDeps = {
    clock,
    ids: newId,
    issueKey,
    limits: { walletsPerEnvironment: config.walletLimitPerEnvironment, sandboxFundingMax: SANDBOX_FUNDING_MAX },
    timeScale: config.timeScale,
  };
  const now = () => clock.now().getTime();
  let cursorCodec: Promise<CursorCodec> | undefined;
  return {
    config,
    clock,
    ids: deps.ids,
    table,
    deps,
    authKeys: createApiKeyAuthReader(table),
    cursors() {
      cursorCodec ??= (
        config.cursorSecret
          ? Promise.resolve(config.cursorSecret)
          : createConfigStore(table).getOrCreateSecret(CURSOR_SECRET_NAME, () =>
              randomBytes(CURSOR_SECRET_BYTES).toString('hex'),
            )
      ).then(createCursorCodec);
      return cursorCodec;
    },
    rateLimiter: createRateLimiter(
      { perSecond: config.rateLimit.perSecond, perMinute: config.rateLimit.perMinute },
      now,
    ),
    publicRateLimiter: createRateLimiter(
      { perSecond: config.rateLimit.publicPerSecond, perMinute: config.rateLimit.publicPerSecond * SECONDS_PER_MINUTE },
      now,
    ),
  };
}

let shared: Core | undefined;

/** The process-wide core (one per Lambda instance), created on first use. */
export function core(): Core {
  shared ??= createCore();
  return shared;
}
