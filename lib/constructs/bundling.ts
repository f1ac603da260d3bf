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
