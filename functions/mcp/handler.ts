import { createMcpFunctionUrlHandler } from '../../shared/mcp/function-url.js';
import type { McpRuntime } from '../../shared/mcp/server.js';
import { mcpTokenSource } from '../../shared/mcp/token.js';
import { container, type Container } from '../../shared/runtime/container.js';

/** What the MCP edge needs, from the container: every area's services, since the tools span the whole catalog. */
export function runtimeOf({ core, services }: Container): McpRuntime {
  return {
    authKeys: core.authKeys,
    clock: core.clock,
    rateLimiter: core.rateLimiter,
    cursors: () => core.cursors(),
    services,
    authToken: mcpTokenSource(core.config),
    toolPrefix: core.config.mcpToolPrefix,
  };
}

/** The MCP tools behind a Lambda function URL (and POST /mcp of the local server); services are built on first use. */
export const handler = createMcpFunctionUrlHandler(() => runtimeOf(container()));
