import type { HotConfig } from '../../domain/ledger/hot/hot-types.js';
import { readInt } from '../client.js';
import { str, type Item } from '../item.js';
import type { KeeperMoves } from './keeper-moves.js';

const notMergedYet = (move: string) => () =>
  Promise.reject(new Error(`hot-mode keeper move ${move} is not merged yet`));

/** The keeper's moves the runtime uses (bound to part keeper's functions once they are on main). */
export const KEEPER_MOVES: KeeperMoves = {
  promote: notMergedYet('promote'),
  demote: notMergedYet('demote'),
  foldPartition: notMergedYet('foldPartition'),
  keep: notMergedYet('keep'),
  hotConfigOf(item: Item): HotConfig | undefined {
    const hot = item.hot as Record<string, unknown> | undefined;
    if (!hot || typeof hot !== 'object') return undefined;
    return {
      state: hot.state === 'COOLING' ? 'COOLING' : 'HOT',
      partitions: readInt(hot.partitions),
      lanes: readInt(hot.lanes),
      since: str(hot.since),
    };
  },
};
