/**
 * Stands in for `ajv` and `ajv-formats` in the MCP function's bundle (`BUNDLE_ALIASES` in
 * lib/constructs/bundling.ts). The MCP SDK's server module imports Ajv to validate the answers of
 * elicitations; our stateless server offers none and hands the SDK its own validator
 * (`NO_ELICITATION` in server.ts), so Ajv is never constructed, yet it was 230 KB of the bundle
 * and about 12 ms of its cold start. Should an SDK version construct it anyway, this fails loudly
 * (test/e2e/mcp-bundle.test.ts serves MCP requests from the bundle built this way).
 */
export default function ajvNotBundled(): never {
  throw new Error('Ajv is not bundled in the MCP function (BUNDLE_ALIASES in lib/constructs/bundling.ts)');
}
