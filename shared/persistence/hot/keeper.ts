import Big from 'big.js';
import type { Clock } from '../../domain/clock.js';
import { periodLimitsAt } from '../../domain/ledger/hot/hot-balances.js';
import type { HotConfig, HotWalletParts } from '../../domain/ledger/hot/hot-types.js';
import { planKeeper, PREGRANT_MS, type KeeperStep } from '../../domain/ledger/hot/keeper-plan.js';
import { walletKeys } from '../entities/wallet.js';
import { getItem, type TableContext } from '../table-context.js';
import { TransactionConflictError } from '../transact.js';
import { createWalletSnapshotReader } from '../wallet-store.js';
import { finishHotClose } from './hot-close.js';
import { foldAll, foldedPartitions, foldIntoMain, foldPartition, keeperTransaction, raced } from './fold-moves.js';
import { hotConfigItem, hotConfigOf } from './hot-items.js';
import { readHotWallet } from './hot-read.js';
import { laneStatusWrites } from './hot-status.js';
import type { HotWalletReads } from './hot-routes.js';
import { drainAndCool, dropKeys, rebalance, resync, setLaneStatus } from './keeper-moves.js';
import { bounceStragglers } from './straggler-bounce.js';

/** Read-plan-move rounds of one keeper run (each round re-reads: every guarded move bumps main's seq). */
const KEEPER_ROUNDS = 8;

export interface KeeperRun {
  /** The steps that moved something, in order. */
  moved: KeeperStep['kind'][];
  /** Steps whose guard failed (another keeper or a payment moved first): harmless, tried next run. */
  raced: number;
}

/**
 * One run of a hot wallet's keeper (part ops calls it from the HOT_INBOX stream worker and the
 * minute schedule; the property test and the bench drive it): read exactly, plan (keeper-plan.ts),
 * make the first move due, read again... until nothing is due. Stateless and idempotent: two runs
 * at once, or a run that died half way, only cost guarded moves that fail.
 */
export async function runKeeperOnce(table: TableContext, walletId: string, clock: Clock): Promise<KeeperRun> {
  const run: KeeperRun = { moved: [], raced: 0 };
  const reader = createWalletSnapshotReader(table);
  for (let round = 0; round < KEEPER_ROUNDS; round++) {
    const snapshot = await reader.getWalletSnapshot(walletId);
    if (!snapshot) return run;
    const parts = await readHotWallet(table, walletId);
    if (!parts) {
      // Cold (demoted, or closed and cooled): only stragglers of a closed wallet remain to bounce.
      if (snapshot.wallet.deletedAt) await bounceAll(table, walletId, run);
      return run;
    }
    const now = clock.now();
    const steps = planKeeper(parts, {
      now,
      limits: periodLimitsAt(snapshot.policies, now),
      nextLimits: periodLimitsAt(snapshot.policies, new Date(now.getTime() + PREGRANT_MS)),
    });
    if (steps.length === 0) return run;
    const folds = steps.filter((step) => step.kind === 'fold' || step.kind === 'bounce');
    if (folds.length > 0 || steps[0]?.kind === 'foldIntoMain') {
      await Promise.all(folds.map((step) => runStep(table, parts, step, run)));
      if (steps.some((step) => step.kind === 'foldIntoMain') || folds.some((step) => step.kind === 'fold'))
        await runStep(table, parts, { kind: 'foldIntoMain' }, run);
      continue;
    }
    await runStep(table, parts, steps[0]!, run);
  }
  return run;
}

async function runStep(table: TableContext, parts: HotWalletParts, step: KeeperStep, run: KeeperRun): Promise<void> {
  const done = await (async (): Promise<boolean> => {
    switch (step.kind) {
      case 'fold':
        return (await foldPartition(table, parts.walletId, step.partition)) > 0;
      case 'bounce':
        return (await bounceStragglers(table, parts.walletId, step.partition)).bounced > 0;
      case 'foldIntoMain':
        return (await foldIntoMain(table, parts.walletId)).gt(0);
      case 'resync':
        return resync(table, parts.walletId, step);
      case 'dropKeys':
        return dropKeys(table, parts.walletId, step);
      case 'laneStatus':
        return setLaneStatus(table, parts.walletId, step);
      case 'rebalance':
        return rebalance(table, parts.walletId, step);
      case 'finishDemotion':
        return finishDemotion(table, parts.walletId);
      case 'finishClose':
        return finishHotClose(table, parts);
    }
  })();
  if (done) run.moved.push(step.kind);
  else run.raced++;
}

async function bounceAll(table: TableContext, walletId: string, run: KeeperRun): Promise<void> {
  const main = await getItem(table, walletKeys.primary(walletId));
  const partitions = main ? foldedPartitions(main) : 0;
  for (let g = 0; g < partitions; g++) {
    if ((await bounceStragglers(table, walletId, g)).bounced > 0) run.moved.push('bounce');
  }
}

/** COOLING after the settle window: every credit folded, then every lane drained and `hot` removed (one transaction). */
async function finishDemotion(table: TableContext, walletId: string): Promise<boolean> {
  await foldAll(table, walletId);
  const parts = await readHotWallet(table, walletId);
  if (!parts || parts.main.hot.state !== 'COOLING') return false;
  const unfolded = parts.partitions.some(
    (p) => p.inbox.length > 0 || !p.credited.eq(parts.main.folded[p.partition] ?? new Big(0)),
  );
  if (unfolded) return false;
  return drainAndCool(table, parts);
}

/**
 * Hot mode off (design 3, "Demotion"), started: `hot.state` COOLING (routing sends every movement
 * to main from now on, within the cache's TTL); the keeper finishes it once the settle window has
 * passed (fold all, drain all, remove `hot`). Answers the config, or undefined for a cold wallet.
 */
export async function demote(table: TableContext, walletId: string, clock: Clock): Promise<HotConfig | undefined> {
  const main = await getItem(table, walletKeys.primary(walletId));
  const hot = main ? hotConfigOf(main) : undefined;
  if (!hot || hot.state === 'COOLING') return hot;
  const cooling: HotConfig = { ...hot, state: 'COOLING', coolingSince: clock.now().toISOString() };
  const done = await keeperTransaction(table, [
    {
      item: {
        Update: {
          TableName: table.tableName,
          Key: walletKeys.primary(walletId),
          UpdateExpression: 'SET #hot = :hot ADD seq :one',
          ConditionExpression: 'attribute_exists(PK) AND #hot.#state = :state',
          ExpressionAttributeNames: { '#hot': 'hot', '#state': 'state' },
          ExpressionAttributeValues: { ':hot': hotConfigItem(cooling), ':one': 1, ':state': 'HOT' },
        },
      },
      onConditionFailed: raced('main during demotion'),
    },
  ]);
  return done ? cooling : hotConfigOf((await getItem(table, walletKeys.primary(walletId))) ?? {});
}

/** Attempts of a freeze against payments holding the lanes (each attempt retries its own conflicts). */
const FREEZE_ATTEMPTS = 10;

/**
 * Freeze (or unfreeze) a hot wallet at once: main and every lane in ONE transaction, so no lane
 * pays out after the answer; retried longer than a payment (the lanes are busy). Payments INTO the
 * wallet that started before may still land for up to HOT_SETTLE_MS (decisions.md section 13).
 * The keeper re-syncs the lanes' status with main's anyway (keeper-plan.ts laneStatus).
 */
export async function setHotWalletStatus(
  table: TableContext,
  walletId: string,
  status: 'FROZEN' | 'ACTIVE',
): Promise<boolean> {
  const from = status === 'FROZEN' ? 'ACTIVE' : 'FROZEN';
  for (let attempt = 1; ; attempt++) {
    const main = await getItem(table, walletKeys.primary(walletId));
    const hot = main ? hotConfigOf(main) : undefined;
    if (!main || !hot || main.deletedAt || main.status !== from) return false;
    const writes = [
      {
        item: {
          Update: {
            TableName: table.tableName,
            Key: walletKeys.primary(walletId),
            UpdateExpression: 'SET #status = :to ADD seq :one',
            ConditionExpression: 'attribute_exists(#hot) AND attribute_not_exists(deletedAt) AND #status = :from',
            ExpressionAttributeNames: { '#status': 'status', '#hot': 'hot' },
            ExpressionAttributeValues: { ':to': status, ':from': from, ':one': 1 },
          },
        },
        onConditionFailed: raced('main status'),
      },
      ...laneStatusWrites(table.tableName, walletId, hot.lanes, status, (lane) => raced(`lane ${lane}`)),
    ];
    try {
      if (await keeperTransaction(table, writes)) return true;
    } catch (error) {
      if (!(error instanceof TransactionConflictError) || attempt >= FREEZE_ATTEMPTS) throw error;
    }
    if (attempt >= FREEZE_ATTEMPTS) return false;
  }
}

/** The keeper's reads the payment slow path uses (hot-committer.ts), bound to a table. */
export function keeperReads(table: TableContext): HotWalletReads {
  return {
    readHotWallet: (walletId) => readHotWallet(table, walletId),
    foldAll: async (walletId) => {
      await foldAll(table, walletId);
    },
  };
}
