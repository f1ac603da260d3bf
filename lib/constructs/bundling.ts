/**
 * The esbuild options every Lambda bundle is built with, as plain data (no CDK import), so that
 * `ServiceFunction` (through NodejsFunction) and the bundle benchmark (`bench/`) build bundles the
 * same way. Names follow esbuild's own options (`format`, `target`, `minify`, `sourcemap`,
 * `sourcesContent`, `mainFields`, `banner`, `external`); ServiceFunction maps them onto CDK's
 * `BundlingOptions` (`sourceMap`, `externalModules`, `OutputFormat.ESM`).
 *
 * - ESM output for the `nodejs24.x` runtime (the esbuild target matches the Lambda Node.js major).
 * - Minified, with source maps (without the sources) so stack traces point into the TypeScript
 *   sources once `NODE_OPTIONS=--enable-source-maps` is set.
 * - `mainFields: ['module', 'main']` prefers the ESM build of dependencies (better tree shaking).
 * - ESM bundles have no `require`; some CommonJS dependencies call it for Node built-ins, so the
 *   banner defines one from `import.meta.url`.
 * - No externals: the AWS SDK is bundled too; the code relies on the pinned lib-dynamodb behaviour
 *   (exact numbers via wrapNumbers), not on whichever SDK version the runtime happens to ship.
 */
export const BUNDLING = {
  format: 'esm',
  target: 'node24',
  platform: 'node',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  external: [],
} as const;

export type Bundling = typeof BUNDLING;

/**
 * Modules replaced at bundle time, as esbuild's `alias` option: CDK passes them as
 * `--alias:<module>=<path>` (ServiceFunction), the bundle benchmark and the bundle tests the same
 * way (`bench/bundles.ts` esbuildOptions), all through `bundleAliases`. Paths are relative to the
 * repository root, where CDK runs esbuild when it bundles locally, as it does here (esbuild is
 * installed with the project); CDK's Docker bundling would not resolve them. Only bundles get
 * them: the local run and the tests run the sources with the real modules.
 *
 * Every function:
 * - `@aws-sdk/credential-provider-node`, the SDK's default credential chain: Lambda gives a
 *   function its credentials in environment variables, the chain's first link, so the bundles read
 *   only those (shared/runtime/lambda-credentials.ts): 115 to 132 KB less in every bundle, and
 *   about 12 ms less import.
 */
export const EVERY_FUNCTION_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './shared/runtime/lambda-credentials.ts',
};

/**
 * Per function (by its folder under functions/):
 * - mcp: the MCP SDK's server imports Ajv (and ajv-formats) for elicitation, which our server never
 *   offers (see shared/mcp/ajv-stub.ts): 1117 -> 879 KB (before the credential replacement).
 */
export const BUNDLE_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  mcp: { ajv: './shared/mcp/ajv-stub.ts', 'ajv-formats': './shared/mcp/ajv-stub.ts' },
};

/** The aliases one function's bundle is built with: every function's, then its own. */
export function bundleAliases(group: string): Readonly<Record<string, string>> {
  return { ...EVERY_FUNCTION_ALIASES, ...BUNDLE_ALIASES[group] };
}
