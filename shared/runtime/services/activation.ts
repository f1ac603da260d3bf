import { createActivationService, type ActivationService } from '../../domain/activation/activation-service.js';
import type { ActivationStore } from '../../domain/activation/ports.js';
import { createActivationStore } from '../../persistence/activation-store.js';
import type { Core } from '../core.js';

export function activationService(
  core: Core,
  { store = createActivationStore(core.table) }: { store?: ActivationStore } = {},
): ActivationService {
  return createActivationService({ ...core.deps, store }, { kybAutoApprove: core.config.kybAutoApprove });
}
