import type { HotModeStore } from '../../domain/hot-mode/ports.js';
import type { Environment } from '../../domain/tenancy.js';
import { createCommitter } from '../change-writer.js';
import { HOT_ORGANIZATION_SHARDS } from '../entities/shards.js';
import { walletKeys } from '../entities/wallet.js';
import { raiseShards } from '../org-shards.js';
import { getItem, type TableContext } from '../table-context.js';
import { createWalletReader } from '../wallet-store.js';
import { auditWriters } from '../writers/audit-writers.js';
import { readExactWallet } from './hot-read.js';
import { conflictsOf, registeredHotWallets, registerHotWallet, unregisterHotWallet } from './hot-candidates.js';
import type { KeeperMoves } from './keeper-port.js';

/**
 * The hot-mode edges' store: the wallet, its `hot`, the keeper's moves and the scheduled keeper's
 * bookkeeping. A promotion also raises the organization's shards (part shards: org-shards.ts),
 * and first registers the wallet with the scheduled keeper (a registration
 * without a hot wallet is dropped by a later run), so a hot wallet is never left unkept.
 */
export function createHotModeStore(
  table: TableContext,
  moves: KeeperMoves,
  now: () => Date = () => new Date(),
): HotModeStore {
  return {
    ...createWalletReader(table),
    // The operator's answer shows a hot wallet's exact balances (the seqlocked read of all its sub-items).
    getWallet: (walletId) => readExactWallet(table, walletId),
    ...createCommitter(table, auditWriters),
    async getHotConfig(walletId) {
      const item = await getItem(table, walletKeys.primary(walletId));
      return item ? moves.hotConfigOf(item) : undefined;
    },
    hasStragglers: (walletId) => moves.hasStragglers(table, walletId),
    async promote(wallet, sizing) {
      await registerHotWallet(table, { walletId: wallet.id, registeredAt: now().toISOString() });
      const hot = await moves.promote(table, wallet.id, sizing);
      // The organization's projected keys (payments, audit, events) take a write per payment of the wallet: shard them.
      await raiseShards(table, wallet.organizationId, wallet.environment, HOT_ORGANIZATION_SHARDS, { now: now() });
      return hot;
    },
    demote: (walletId) => moves.demote(table, walletId),
    foldInbox: (walletId, partitions) => moves.foldInbox(table, walletId, partitions),
    async keep(walletId, at) {
      await moves.keep(table, walletId, at);
      // A wallet promoted while HOT_ORGANIZATION_SHARDS was lower (or whose raise failed after the
      // promotion) brings its organization to the count now: only a promotion raises, and a hot wallet
      // is not promoted again. A no-op (one consistent read) once there.
      const wallet = await getItem(table, walletKeys.primary(walletId));
      if (wallet?.organizationId !== undefined && wallet.hot !== undefined)
        await raiseShards(
          table,
          String(wallet.organizationId),
          wallet.environment as Environment,
          HOT_ORGANIZATION_SHARDS,
          {
            now: now(),
          },
        );
    },
    registeredWallets: () => registeredHotWallets(table),
    unregister: (walletId) => unregisterHotWallet(table, walletId),
    conflictsOf: (minute) => conflictsOf(table, minute),
  };
}
