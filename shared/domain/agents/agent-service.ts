import type { ServiceDeps } from '../ports.js';
import { createAgentBudget } from './agent-budget.js';
import { createAgentCreation } from './agent-creation.js';
import { createAgentKeyRotation } from './agent-key-rotation.js';
import { createAgentLifecycle } from './agent-lifecycle.js';
import { createAgentReads } from './agent-reads.js';
import type { AgentStore } from './ports.js';

export { MAX_POLICIES_PER_AGENT, type CreateAgentInput } from './agent-creation.js';
export type { AgentDetails } from './agent-reads.js';

/**
 * Agents (interface-spec 4.1): an AGENT wallet, its scoped key and optional policies, as one unit.
 *
 * The one service the rest of the code gets, composed of: creation, directly or from a template
 * (agent-creation.ts), the reads (agent-reads.ts), the budget (agent-budget.ts), the lifecycle:
 * pause, resume, delete (agent-lifecycle.ts), and key rotation (agent-key-rotation.ts).
 */
export function createAgentService(deps: ServiceDeps<AgentStore>) {
  const { create, createFromTemplate } = createAgentCreation(deps);
  const { get, list } = createAgentReads(deps.store);
  const { adjustBudget } = createAgentBudget(deps);
  const { pause, resume, remove } = createAgentLifecycle(deps);
  const { rotateKey } = createAgentKeyRotation(deps);
  return { create, createFromTemplate, get, list, adjustBudget, pause, resume, rotateKey, remove };
}

export type AgentService = ReturnType<typeof createAgentService>;
