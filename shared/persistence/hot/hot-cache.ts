import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { walletKeys } from '../entities/wallet.js';
import type { Item } from '../item.js';
import { hotEntryOf, type HotWalletEntry, type HotWalletReads } from './hot-routes.js';
import { log } from '../../observability/log.js';

/** How long a process trusts what it read of a hot wallet's `hot` (design 2: the demotion wait W is far longer). */
export const HOT_CONFIG_TTL_MS = 1000;

/**
 * The per-process routing state of hot wallets (one per table context, created by the runtime
 * container, tests and the bench): the hot wallets seen, each for at most HOT_CONFIG_TTL_MS, and
 * the process's sticky lane per wallet. A wallet never seen hot is routed cold with no read: its
 * main write requires `hot` absent, so a stale cold route fails once and teaches the cache.
 */
export interface HotRouting {
  /** The entry of a wallet known hot and still fresh; undefined: route it cold. */
  entryOf(walletId: string): HotWalletEntry | undefined;
  /** Wallets known hot whose entry is older than the TTL: read again before routing. */
  expired(walletIds: readonly string[]): string[];
  /** What a main item as read says (hot or not). */
  remember(walletId: string, item: Item | undefined): void;
  /** The lane this process tries first (only with `stickyLanes`; else each debit's id hash decides). */
  stickyLane(walletId: string, lanes: number): number | undefined;
  /** The sticky lane refused: this process moves to the next one. */
  moveSticky(walletId: string, lanes: number): void;
  /**
   * A debit from `lane` met a TransactionConflict there (another process's transaction held it): a
   * process with a sticky lane leaves it for good, for one of the other lanes at random, so
   * processes that met converge to distinct lanes (as slotted Aloha does); without one, nothing.
   */
  laneConflicted(walletId: string, lane: number, lanes: number): void;
  /** The keeper's reads for the slow path, bound to the table (tests and the bench inject their own). */
  reads?: HotWalletReads;
  /** Learns the wallets known hot when the process starts (`knownHot`), once; at once without it. */
  warm(): Promise<void>;
}

export function createHotRouting(
  options: {
    now?: () => number;
    random?: () => number;
    reads?: HotWalletReads;
    /**
     * A sticky lane per wallet: right where a process serves one request at a time (a Lambda
     * execution environment), wrong for a process serving many at once (the local server, the
     * bench), which would pile every debit on one lane.
     */
    stickyLanes?: boolean;
    /**
     * The wallets hot when the process starts (the runtime: the keeper's registry), read once at its
     * first commit and read again (their main) before routing: a new execution environment does not
     * route its first debit of a hot wallet cold. Without it (local server, tests) a wallet is learnt
     * hot from its first failed cold route, which is cheap unless many new processes race on one main.
     */
    knownHot?: () => Promise<readonly string[]>;
  } = {},
): HotRouting {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const entries = new Map<string, { entry: HotWalletEntry; at: number }>();
  const sticky = new Map<string, number>();
  /** Wallets known hot whose main was not read yet (from `knownHot`). */
  const unread = new Set<string>();
  let warming: Promise<void> | undefined;
  return {
    entryOf(walletId) {
      const cached = entries.get(walletId);
      return cached && now() - cached.at <= HOT_CONFIG_TTL_MS ? cached.entry : undefined;
    },
    expired(walletIds) {
      return walletIds.filter((id) => {
        const cached = entries.get(id);
        // A stopped wallet is read again on every use: a credit is refused on the cached status, and a
        // refusal must not outlive an unfreeze (a credit landing within the TTL of a freeze is allowed).
        if (cached === undefined) return unread.has(id);
        return now() - cached.at > HOT_CONFIG_TTL_MS || stopped(cached.entry);
      });
    },
    remember(walletId, item) {
      unread.delete(walletId);
      const entry = hotEntryOf(item);
      if (entry) entries.set(walletId, { entry, at: now() });
      else entries.delete(walletId);
    },
    stickyLane(walletId, lanes) {
      if (!options.stickyLanes) return undefined;
      let lane = sticky.get(walletId);
      if (lane === undefined || lane >= lanes) {
        lane = Math.floor(random() * lanes);
        sticky.set(walletId, lane);
      }
      return lane;
    },
    moveSticky(walletId, lanes) {
      sticky.set(walletId, ((sticky.get(walletId) ?? 0) + 1) % lanes);
    },
    laneConflicted(walletId, lane, lanes) {
      if (!options.stickyLanes || lanes < 2 || sticky.get(walletId) !== lane) return;
      sticky.set(walletId, (lane + 1 + Math.floor(random() * (lanes - 1))) % lanes);
    },
    warm() {
      const { knownHot } = options;
      warming ??= knownHot
        ? knownHot().then(
            (walletIds) => walletIds.forEach((id) => entries.has(id) || unread.add(id)),
            (error: unknown) => {
              // Best effort: without it a hot wallet is learnt from its first cold route, as locally.
              log.warn('hot wallets not read at start', error);
            },
          )
        : Promise.resolve();
      return warming;
    },
    ...(options.reads ? { reads: options.reads } : {}),
  };
}

const stopped = (entry: HotWalletEntry) => entry.status !== 'ACTIVE' || entry.deletedAt !== undefined;

/** The main items of `walletIds`, read again (strongly consistent: a demotion's COOLING must be seen). */
export async function refreshHotEntries(
  table: { client: { send: (command: GetCommand) => Promise<{ Item?: Item }> }; tableName: string },
  routing: HotRouting,
  walletIds: readonly string[],
): Promise<void> {
  await routing.warm();
  await Promise.all(
    routing.expired(walletIds).map(async (walletId) => {
      const output = await table.client.send(
        new GetCommand({ TableName: table.tableName, Key: walletKeys.primary(walletId), ConsistentRead: true }),
      );
      routing.remember(walletId, output.Item);
    }),
  );
}
