import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { classify, functionBuildOptions, functionGroups } from '../../bench/bundles.js';
import { VIEW_MODULES } from '../../shared/domain/view-registry.js';
import { built } from '../../shared/domain/views.js';
import { FUNCTION_GROUPS } from '../../shared/operations/groups.js';

interface Bundle {
  packages: Set<string>;
  files: Set<string>;
  text: string;
  /** Which modules import each module (paths as esbuild's metafile gives them). */
  importers: Map<string, string[]>;
}


/** A function's bundle as CDK builds it (nothing written): its packages, its project files and its code. */
async function bundleOf(group: string): Promise<Bundle> {
  const result = await build({ ...functionBuildOptions(group), outdir: 'cdk.out/bundle-test', write: false, metafile: true });
  const output = Object.values(result.metafile.outputs).find((out) => out.entryPoint);
  const inputs = Object.entries(output?.inputs ?? {}).filter(([, input]) => input.bytesInOutput > 0).map(([file]) => file);
  const packages = inputs.map((file) => classify(file).pkg).filter((name): name is string => name !== undefined);
  const text = result.outputFiles.find((file) => /\.m?js$/.test(file.path))?.text ?? '';
  const importers = new Map<string, string[]>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) for (const imported of input.imports) importers.set(imported.path, [...(importers.get(imported.path) ?? []), file]);
  return { packages: new Set(packages), files: new Set(inputs.filter((file) => !file.includes('node_modules'))), text, importers };
}

/** The description of every view (the text a bundle would carry if it built the view). */
function viewDescriptions(): string[] {
  return Object.values(VIEW_MODULES)
    .flatMap((module) => Object.values(module as Record<string, unknown>))
    .filter((value): value is z.ZodMiniType => value instanceof z.ZodMiniType)
    .map((view) => z.globalRegistry.get(built(view))?.description)
    .filter((description): description is string => description !== undefined && description.length >= 30);
}

describe('function bundles carry what their function uses', () => {
  // Workers that take no outside input present views but never build them: no validation library.
  it.each(['journal-projector', 'webhook-delivery', 'expiry', 'expiry-sweep'])('%s bundles no zod', async (group) => {
    const { packages } = await bundleOf(group);
    expect(packages.has('@aws-sdk/client-dynamodb')).toBe(true);
    expect(packages.has('zod')).toBe(false);
  });

  // Operations name their output view; only the functions that describe the API resolve the names.
  const presenting = functionGroups().filter((group) => group !== 'docs' && group !== 'mcp');
  it('checks every function but docs and mcp, HTTP groups and workers', () => {
    expect(presenting.length).toBeGreaterThan(FUNCTION_GROUPS.length);
  });

  it.each(presenting)('%s carries no view schema (no registry, no view description)', async (group) => {
    const descriptions = viewDescriptions();
    expect(descriptions.length).toBeGreaterThan(50);
    const { files, text } = await bundleOf(group);
    expect(files.has('shared/domain/view-registry.ts')).toBe(false);
    expect(descriptions.filter((description) => text.includes(description))).toEqual([]);
  });

  it('mcp bundles no Ajv (BUNDLE_ALIASES: the SDK imports it for elicitation, which our server never offers)', async () => {
    const { packages, importers } = await bundleOf('mcp');
    expect(packages.has('@modelcontextprotocol/sdk')).toBe(true);
    expect([...packages].filter((name) => name.startsWith('ajv'))).toEqual([]);
    // Only the SDK's elicitation validator gets the stub: code of ours importing Ajv would get it too.
    const stubImporters = importers.get('shared/mcp/ajv-stub.ts') ?? [];
    expect(stubImporters.length).toBeGreaterThan(0);
    expect(stubImporters.filter((file) => !file.endsWith('@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js'))).toEqual([]);
  });

  it('docs resolves the views (it generates the OpenAPI document)', async () => {
    const { files, text } = await bundleOf('docs');
    expect(files.has('shared/domain/view-registry.ts')).toBe(true);
    // The check above sees a view's description in a bundle (a few are escaped by the minifier).
    const descriptions = viewDescriptions();
    expect(descriptions.filter((description) => text.includes(description)).length).toBeGreaterThan(descriptions.length * 0.8);
  });
});
