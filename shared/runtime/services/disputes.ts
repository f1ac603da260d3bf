import type { DisputeStore, DisputeWorkflows } from '../../domain/disputes/ports.js';
import { createDisputeService, type DisputeService } from '../../domain/disputes/dispute-service.js';
import { createDisputeStore } from '../../persistence/dispute-store.js';
import type { Core } from '../core.js';
import { log } from '../../observability/log.js';
import { disputeWorkflows } from '../workflows.js';

/**
 * Disputes over the table, starting the deadline workflow after each opening. Its result is also
 * the `DisputeDeadline` the dispute-steps worker calls (`runDeadline`).
 */
export function disputeService(
  core: Core,
  overrides: { store?: DisputeStore; workflows?: DisputeWorkflows } = {},
): DisputeService {
  return createDisputeService({
    ...core.deps,
    store: overrides.store ?? createDisputeStore(core.table),
    workflows: overrides.workflows ?? disputeWorkflows(core),
    log,
  });
}
