import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../bench/bundles.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The packages in a function's bundle (esbuild as CDK builds it; nothing written). */
async function packagesOf(group: string): Promise<Set<string>> {
  const result = await build({ ...esbuildOptions(), entryPoints: [path.join(ROOT, 'functions', group, 'handler.ts')], outdir: path.join(ROOT, 'cdk.out', 'bundle-test'), write: false, metafile: true, absWorkingDir: ROOT, logLevel: 'silent' });
  const output = Object.values(result.metafile.outputs).find((out) => out.entryPoint);
  const packages = Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1])
    .filter((name): name is string => name !== undefined);
  return new Set(packages);
}

describe('function bundles carry what their function uses', () => {
  // Workers that take no outside input present views but never build them: no validation library.
  it.each(['journal-projector', 'webhook-delivery', 'expiry', 'expiry-sweep'])('%s bundles no zod', async (group) => {
    const packages = await packagesOf(group);
    expect(packages.has('@aws-sdk/client-dynamodb')).toBe(true);
    expect(packages.has('zod')).toBe(false);
  });

  it('an HTTP function keeps zod (it validates requests)', async () => {
    expect((await packagesOf('payments')).has('zod')).toBe(true);
  });
});
