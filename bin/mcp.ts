/**
 * npm run mcp / npx allowance mcp: the MCP tools over stdio, for desktop clients that start a
 * command (Claude Desktop, Cursor, ...). It relays JSON-RPC messages between stdio and a running
 * service's Streamable HTTP endpoint (POST /mcp of `npm start`, or the function URL of a deployed
 * stage), so the tools run in exactly one place, with the same code, token and key checks and rate
 * limits, and the desktop holds an API key and the MCP token but never database credentials
 * (docs/api.md "MCP").
 *
 *   ALLOWANCE_MCP_URL   the endpoint (default: mcpUrl of .local/credentials.json, written by npm start)
 *   MCP_AUTH_TOKEN      the endpoint's token (default: mcpToken of .local/credentials.json)
 *   ALLOWANCE_API_KEY   the API key the tools act with, e.g. an agent's key (default: the demo
 *                       organization's sandbox key of .local/credentials.json)
 *
 * Nothing but JSON-RPC goes to stdout; diagnostics go to stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ENV } from '../shared/config/env-names.js';
import { API_KEY_HEADER } from '../shared/mcp/function.js';

export const BRIDGE_ENV = { url: 'ALLOWANCE_MCP_URL', token: ENV.mcpAuthToken, apiKey: 'ALLOWANCE_API_KEY' } as const;

/** JSON-RPC "server error" range: the relay could not reach the service. */
const RELAY_ERROR = -32000;

interface LocalCredentials {
  mcpUrl?: string;
  mcpToken?: string;
  sandboxKey?: string;
}

function localCredentials(): LocalCredentials {
  const candidates = [
    fileURLToPath(new URL('../.local/credentials.json', import.meta.url)),
    resolve('.local/credentials.json'),
  ];
  const file = candidates.find((path) => existsSync(path));
  if (!file) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LocalCredentials;
  } catch {
    return {};
  }
}

export interface BridgeSettings {
  url: string;
  token: string;
  apiKey: string;
}

export function bridgeSettings(env: Record<string, string | undefined> = process.env): BridgeSettings {
  const local = localCredentials();
  const url = env[BRIDGE_ENV.url] ?? local.mcpUrl;
  const token = env[BRIDGE_ENV.token] ?? local.mcpToken;
  const apiKey = env[BRIDGE_ENV.apiKey] ?? local.sandboxKey;
  const missing = [!url && BRIDGE_ENV.url, !token && BRIDGE_ENV.token, !apiKey && BRIDGE_ENV.apiKey].filter(Boolean);
  if (missing.length > 0 || !url || !token || !apiKey) {
    throw new Error(`set ${missing.join(', ')} (or run npm start, which writes .local/credentials.json)`);
  }
  return { url, token, apiKey };
}

/** Relays stdio <-> Streamable HTTP until stdin closes. */
export async function runBridge(settings: BridgeSettings): Promise<void> {
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(new URL(settings.url), {
    requestInit: { headers: { authorization: `Bearer ${settings.token}`, [API_KEY_HEADER]: settings.apiKey } },
  });
  const initializing = new Set<string | number>();

  remote.onmessage = (message) => {
    // The negotiated version goes on every later request (Mcp-Protocol-Version header).
    if ('result' in message && message.id !== undefined && initializing.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (error) => console.error(`allowance mcp: ${error.message}`);
  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && isInitializeRequest(message)) initializing.add(message.id);
    remote.send(message).catch((error: unknown) => {
      // StreamableHTTPError carries the HTTP status as `code` (401: wrong token or API key).
      const status =
        typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : undefined;
      const text = `${status ? `HTTP ${status}: ` : ''}${error instanceof Error ? error.message : String(error)}`;
      console.error(`allowance mcp: ${text}`);
      // A request must get an answer, or the client waits for ever.
      if (isJSONRPCRequest(message)) {
        void local.send({
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: RELAY_ERROR,
            message: `Allowance MCP endpoint ${settings.url}: ${text}`,
            ...(status ? { data: { status } } : {}),
          },
        });
      }
    });
  };
  const closed = new Promise<void>((done) => {
    local.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await remote.start();
  await local.start();
  await closed;
  await Promise.allSettled([remote.close(), local.close()]);
}

async function main() {
  const settings = bridgeSettings();
  console.error(`allowance mcp: relaying stdio to ${settings.url}`);
  await runBridge(settings);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`allowance mcp: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
