/**
 * The MCP function as plain data, read by CDK (lib/stacks/mcp-stack.ts), the local server and the
 * MCP edge alike (no SDK import here, so CDK and the local server load nothing else).
 */
export const MCP_FUNCTION = {
  /** The folder under functions/ (functions/mcp/handler.ts). */
  name: 'mcp',
  /** The endpoint's path, locally and behind the function URL. */
  path: '/mcp',
  /**
   * A batch of up to 100 payments runs its items one after the other (the payments group's
   * reason for 28 s); a function URL has no 29 s integration limit, so a little more is fine.
   */
  timeoutS: 30,
} as const;

/** The header carrying the API key the tools act with (the Authorization header carries the MCP token). */
export const API_KEY_HEADER = 'x-api-key';
