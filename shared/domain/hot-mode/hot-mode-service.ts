import { AUDIT, type AuditAction } from '../audit/actions.js';
import { auditChange } from '../audit/audit.js';
import type { Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import type { HotConfig } from '../ledger/hot/hot-types.js';
import type { Actor, RequestContext } from '../tenancy.js';
import type { Wallet } from '../types.js';
import { hotModeSizing } from './hot-mode-rules.js';
import type { HotModeStore } from './ports.js';
import { createHotModeSchedule } from './hot-mode-schedule.js';

export interface HotModeAnswer {
  wallet: Wallet;
  hot: HotConfig | undefined;
}

export interface HotModeDeps {
  store: HotModeStore;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * The hot-mode switch (decisions.md section 13). Turning it on promotes the wallet (the keeper
 * creates its sub-items, then sets `hot`); turning it off starts the demotion (COOLING: the
 * scheduled keeper folds, drains and removes `hot` once the 60 s window has passed; turning it on
 * while cooling makes the wallet HOT again). A call that
 * changes nothing (on for a hot wallet, off for a cold or cooling one) answers the wallet as it is
 * and writes no audit entry.
 */
export function createHotModeService(deps: HotModeDeps) {
  const { store, clock, ids } = deps;

  async function audited(actor: Actor, action: AuditAction, wallet: Wallet, hot: HotConfig | undefined) {
    await store.commit([
      auditChange(
        {
          organizationId: wallet.organizationId,
          environment: wallet.environment,
          actor,
          action,
          resource: 'wallet',
          resourceId: wallet.id,
          walletId: wallet.id,
          metadata: hot ? { state: hot.state, partitions: hot.partitions, lanes: hot.lanes } : { state: 'COLD' },
          createdAt: clock.now().toISOString(),
        },
        ids,
      ),
    ]);
  }

  /** Promotes a cold ACTIVE wallet and audits it (the operator's call, or the measured conflicts' SYSTEM actor). */
  async function promote(actor: Actor, action: AuditAction, wallet: Wallet): Promise<HotConfig> {
    const hot = await store.promote(wallet, hotModeSizing());
    await audited(actor, action, wallet, hot);
    return hot;
  }

  /**
   * `enableAction` is the operation's declared action (`wallet.hot_mode.enabled`); turning hot mode
   * off writes its pair, `wallet.hot_mode.disabled`.
   */
  async function setHotMode(
    ctx: RequestContext,
    enableAction: AuditAction,
    walletId: string,
    enabled: boolean,
  ): Promise<HotModeAnswer> {
    const wallet = await store.getWallet(walletId);
    if (!wallet) throw notFound('WALLET_NOT_FOUND', walletId);
    const current = await store.getHotConfig(walletId);
    let hot: HotConfig | undefined;
    if (enabled) {
      if (wallet.deletedAt) throw new ApiError('INVALID_STATE', 'A closed wallet can not go hot.');
      if (current?.state === 'HOT') return { wallet, hot: current };
      if (wallet.status !== 'ACTIVE') throw new ApiError('INVALID_STATE', 'Only an ACTIVE wallet can go hot.');
      hot = await promote(ctx.actor, enableAction, wallet);
    } else {
      if (current?.state !== 'HOT') return { wallet, hot: current };
      hot = await store.demote(walletId);
      await audited(ctx.actor, AUDIT.wallet.disableHotMode, wallet, hot);
    }
    // A switch moves no money: the wallet as read before it (exact) is the answer, without a second exact read.
    return { wallet, hot };
  }

  return {
    setHotMode,
    ...createHotModeSchedule({
      store,
      clock,
      promote: (actor, wallet) => promote(actor, AUDIT.wallet.enableHotMode, wallet),
    }),
  };
}

export type HotModeService = ReturnType<typeof createHotModeService>;
