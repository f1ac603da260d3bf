import { createMcpFunctionUrlHandler } from '../../shared/mcp/function-url.js';
import type { McpRuntime } from '../../shared/mcp/server.js';
import { mcpTokenSource } from '../../shared/mcp/token.js';
import { core as sharedCore, type Core } from '../../shared/runtime/core.js';
import { toolServices } from '../../shared/runtime/tool-services.js';

/** What the MCP edge needs, from the core: the services of every group that offers tools (TOOL_AREAS). */
export function runtimeOf(core: Core): McpRuntime {
  return {
    authKeys: core.authKeys,
    clock: core.clock,
    rateLimiter: core.rateLimiter,
    cursors: () => core.cursors(),
    services: toolServices(core),
    authToken: mcpTokenSource(core.config),
    toolPrefix: core.config.mcpToolPrefix,
  };
}

/** The MCP tools behind a Lambda function URL (and POST /mcp of the local server); services are built on first use. */
export const handler = createMcpFunctionUrlHandler(() => runtimeOf(sharedCore()));
