import { createHotModeService, type HotModeService } from '../../domain/hot-mode/hot-mode-service.js';
import type { HotModeStore } from '../../domain/hot-mode/ports.js';
import { createHotModeStore } from '../../persistence/hot/hot-mode-store.js';
import { keeperMoves } from '../../persistence/hot/keeper-binding.js';
import type { Core } from '../core.js';

export function hotModeService(
  core: Core,
  {
    store = createHotModeStore(core.table, keeperMoves(core.clock), () => core.clock.now()),
  }: { store?: HotModeStore } = {},
): HotModeService {
  return createHotModeService({ store, clock: core.clock, ids: core.deps.ids });
}
