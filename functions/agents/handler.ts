import { createHttpHandler } from '../../shared/http/middleware.js';
import { AGENTS } from '../../shared/operations/agents.js';
import { core } from '../../shared/runtime/core.js';
import { agentService } from '../../shared/runtime/services/agents.js';

export const handler = createHttpHandler(AGENTS, core, () => ({ agents: agentService(core()) }));
