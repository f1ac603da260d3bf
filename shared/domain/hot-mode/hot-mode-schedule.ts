import type { Clock } from '../clock.js';
import type { HotConfig } from '../ledger/hot/hot-types.js';
import type { Actor } from '../tenancy.js';
import type { Wallet } from '../types.js';
import { previousMinuteOf, promotionCandidates } from './hot-mode-rules.js';
import { domainLog as log } from '../telemetry.js';
import type { HotModeStore } from './ports.js';

/** Who promotes a wallet from its measured conflicts (its audit entry's actor). */
export const HOT_PROMOTION_ACTOR: Actor = {
  actorType: 'SYSTEM',
  actorId: 'hot-mode-promotion',
  ipAddress: '127.0.0.1',
};

/** A registration older than this without a hot wallet is dropped (a promotion that failed, a finished demotion). */
export const REGISTRATION_GRACE_MS = 5 * 60_000;

/** Wallets kept side by side in one run (each keeper step is a few reads and transactions). */
export const KEEP_CONCURRENCY = 8;

/** One credit partition of one wallet (what a HOT_INBOX stream record names). */
export interface InboxPartition {
  walletId: string;
  partition: number;
}

export const partitionKeyOf = (pair: InboxPartition) => `${pair.walletId}#${pair.partition}`;

export interface ScheduleReport {
  kept: string[];
  unregistered: string[];
  promoted: string[];
  failed: { walletId: string; error: string }[];
}

async function eachBounded<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * The keeper's schedule (shared/workers.ts `hot-keeper`, every minute) and its stream (`hot-fold`):
 * one keeper step over every registered wallet, then the automatic promotions of the last complete
 * minute (hot-mode-rules.ts). A failure of one wallet does not stop the others; the run reports it.
 */
export function createHotModeSchedule(deps: {
  store: HotModeStore;
  clock: Clock;
  promote: (actor: Actor, wallet: Wallet) => Promise<HotConfig>;
}) {
  const { store, clock, promote } = deps;

  async function runSchedule(): Promise<ScheduleReport> {
    const now = clock.now();
    const report: ScheduleReport = { kept: [], unregistered: [], promoted: [], failed: [] };
    const failed = (walletId: string, error: unknown) => report.failed.push({ walletId, error: String(error) });

    await eachBounded(await store.registeredWallets(), KEEP_CONCURRENCY, async ({ walletId, registeredAt }) => {
      try {
        if ((await store.getHotConfig(walletId)) || (await store.hasStragglers(walletId))) {
          // A hot wallet, or a closed one whose stragglers' bounces were refused so far (a payer
          // paused meanwhile): the keeper bounces them (runKeeperOnce), the wallet stays registered.
          await store.keep(walletId, now);
          report.kept.push(walletId);
        } else if (now.getTime() - Date.parse(registeredAt) > REGISTRATION_GRACE_MS) {
          await store.unregister(walletId);
          report.unregistered.push(walletId);
        }
      } catch (error) {
        failed(walletId, error);
      }
    });

    for (const walletId of promotionCandidates(await store.conflictsOf(previousMinuteOf(now)))) {
      try {
        const wallet = await store.getWallet(walletId);
        if (!wallet || wallet.deletedAt || wallet.status !== 'ACTIVE') continue;
        if (await store.getHotConfig(walletId)) continue;
        await promote(HOT_PROMOTION_ACTOR, wallet);
        report.promoted.push(walletId);
      } catch (error) {
        failed(walletId, error);
      }
    }
    return report;
  }

  /**
   * Folds the partitions the stream saw credits land in: each once, whatever the number of its
   * records, each wallet's once. Answers the partitions whose fold failed (the stream delivers their records again).
   */
  async function foldPartitions(pairs: readonly InboxPartition[]): Promise<InboxPartition[]> {
    const byWallet = new Map<string, Set<number>>();
    for (const { walletId, partition } of pairs)
      byWallet.set(walletId, (byWallet.get(walletId) ?? new Set()).add(partition));
    const failedFolds: InboxPartition[] = [];
    await eachBounded([...byWallet], KEEP_CONCURRENCY, async ([walletId, partitions]) => {
      try {
        await store.foldInbox(
          walletId,
          [...partitions].sort((a, b) => a - b),
        );
      } catch (error) {
        log.warn('hot fold failed', error, { walletId });
        failedFolds.push(...[...partitions].map((partition) => ({ walletId, partition })));
      }
    });
    return failedFolds;
  }

  return { runSchedule, foldPartitions };
}
