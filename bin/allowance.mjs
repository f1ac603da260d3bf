#!/usr/bin/env node
// The package's command (`npx allowance mcp` in a checkout): `allowance mcp` runs the stdio MCP
// server of bin/mcp.ts, loaded through tsx like every other script of the repository.
import { register } from 'tsx/esm/api';

const USAGE = 'usage: allowance mcp   (stdio MCP server; see README "Use it from an agent")';
const [command, ...rest] = process.argv.slice(2);
if (command !== 'mcp' || rest.length > 0) {
  console.error(USAGE);
  process.exit(command === undefined || command === '--help' || command === '-h' ? 0 : 2);
}
register();
const { bridgeSettings, runBridge } = await import('./mcp.ts');
try {
  const settings = bridgeSettings();
  console.error(`allowance mcp: relaying stdio to ${settings.url}`);
  await runBridge(settings);
  process.exit(0);
} catch (error) {
  console.error(`allowance mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
