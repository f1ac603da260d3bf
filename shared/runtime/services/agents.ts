import { createAgentService, type AgentService } from '../../domain/agents/agent-service.js';
import type { AgentStore } from '../../domain/agents/ports.js';
import { createAgentStore } from '../../persistence/agent-store.js';
import type { Core } from '../core.js';

export function agentService(
  core: Core,
  { store = createAgentStore(core.table) }: { store?: AgentStore } = {},
): AgentService {
  return createAgentService({ ...core.deps, store });
}
