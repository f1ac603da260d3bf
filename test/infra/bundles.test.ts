import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../bench/bundles.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a function's bundle is made of (esbuild as CDK builds it; nothing written): packages and project files. */
async function contentsOf(group: string): Promise<{ packages: Set<string>; files: Set<string> }> {
  const result = await build({ ...esbuildOptions(), entryPoints: [path.join(ROOT, 'functions', group, 'handler.ts')], outdir: path.join(ROOT, 'cdk.out', 'bundle-test'), write: false, metafile: true, absWorkingDir: ROOT, logLevel: 'silent' });
  const output = Object.values(result.metafile.outputs).find((out) => out.entryPoint);
  const inputs = Object.entries(output?.inputs ?? {}).filter(([, input]) => input.bytesInOutput > 0).map(([file]) => file);
  const packages = inputs.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]).filter((name): name is string => name !== undefined);
  return { packages: new Set(packages), files: new Set(inputs.filter((file) => !file.includes('node_modules'))) };
}

describe('function bundles carry what their function uses', () => {
  // Workers that take no outside input present views but never build them: no validation library.
  it.each(['journal-projector', 'webhook-delivery', 'expiry', 'expiry-sweep'])('%s bundles no zod', async (group) => {
    const { packages } = await contentsOf(group);
    expect(packages.has('@aws-sdk/client-dynamodb')).toBe(true);
    expect(packages.has('zod')).toBe(false);
  });

  // Operations name their output view; only the functions that describe the API resolve the names.
  it.each(['payments', 'agents', 'cards'])('%s validates with zod but carries no view registry', async (group) => {
    const { packages, files } = await contentsOf(group);
    expect(packages.has('zod')).toBe(true);
    expect(files.has('shared/domain/view-registry.ts')).toBe(false);
  });

  it('docs resolves the views (it generates the OpenAPI document)', async () => {
    expect((await contentsOf('docs')).files.has('shared/domain/view-registry.ts')).toBe(true);
  });
});
