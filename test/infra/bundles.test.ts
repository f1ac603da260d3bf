import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  classify,
  esbuildOptions,
  EVERY_AREA_FUNCTIONS,
  FLOOR,
  FLOOR_ENTRIES,
  FLOOR_PLAIN,
  type FloorSizes,
  functionBuildOptions,
  functionGroups,
  observabilityBytes,
  sizeRatioOf,
  TARGETS,
  targetOf,
} from '../../bench/bundles.js';
import { VIEW_MODULES } from '../../shared/domain/view-registry.js';
import { built } from '../../shared/domain/views.js';
import { FUNCTION_GROUPS } from '../../shared/operations/index.js';

interface Bundle {
  packages: Set<string>;
  files: Set<string>;
  text: string;
  /** Which modules import each module (paths as esbuild's metafile gives them). */
  importers: Map<string, string[]>;
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bundles = new Map<string, Promise<Bundle>>();

/** A function's bundle as CDK builds it (nothing written, built once per file): its packages, its project files and its code. */
function bundleOf(group: string): Promise<Bundle> {
  let bundle = bundles.get(group);
  if (!bundle) bundles.set(group, (bundle = buildBundleOf(group)));
  return bundle;
}

async function buildBundleOf(group: string): Promise<Bundle> {
  const result = await build({
    ...functionBuildOptions(group),
    outdir: 'cdk.out/bundle-test',
    write: false,
    metafile: true,
  });
  const output = Object.values(result.metafile.outputs).find((out) => out.entryPoint);
  const inputs = Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  const packages = inputs.map((file) => classify(file).pkg).filter((name): name is string => name !== undefined);
  const text = result.outputFiles.find((file) => /\.m?js$/.test(file.path))?.text ?? '';
  const importers = new Map<string, string[]>();
  for (const [file, input] of Object.entries(result.metafile.inputs))
    for (const imported of input.imports) importers.set(imported.path, [...(importers.get(imported.path) ?? []), file]);
  return {
    packages: new Set(packages),
    files: new Set(inputs.filter((file) => !file.includes('node_modules'))),
    text,
    importers,
  };
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
    expect(files.has('shared/domain/tool-views.ts')).toBe(false);
    expect(descriptions.filter((description) => text.includes(description))).toEqual([]);
  });

  it('mcp bundles no Ajv (BUNDLE_ALIASES: the SDK imports it for elicitation, which our server never offers)', async () => {
    const { packages, importers } = await bundleOf('mcp');
    expect(packages.has('@modelcontextprotocol/sdk')).toBe(true);
    expect([...packages].filter((name) => name.startsWith('ajv'))).toEqual([]);
    // Only the SDK's elicitation validator gets the stub: code of ours importing Ajv would get it too.
    const stubImporters = importers.get('shared/mcp/ajv-stub.ts') ?? [];
    expect(stubImporters.length).toBeGreaterThan(0);
    expect(
      stubImporters.filter((file) => !file.endsWith('@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js')),
    ).toEqual([]);
  });

  // The MCP function builds its tools from TOOL_GROUPS, its services from TOOL_AREAS and resolves views in TOOL_VIEW_MODULES (issue 23).
  it('mcp bundles no group without tools: not the catalog of every group, nor their operations, services or views', async () => {
    const { files } = await bundleOf('mcp');
    expect(files.has('shared/operations/tool-groups.ts')).toBe(true);
    const others = [
      'shared/operations/index.ts',
      'shared/runtime/container.ts',
      'shared/operations/internal.ts',
      'shared/operations/api-keys.ts',
      'shared/operations/activation.ts',
      'shared/runtime/services/activation.ts',
      'shared/runtime/services/api-keys.ts',
      'shared/runtime/services/compliance.ts',
      'shared/runtime/services/organizations.ts',
      'shared/domain/view-registry.ts',
      'shared/domain/activation/activation-view.ts',
      'shared/domain/compliance/compliance-view.ts',
    ];
    expect(others.filter((file) => files.has(file))).toEqual([]);
  });

  // No tool plays the card network: the MCP's card service is built without the engine (shared/runtime/services/card-tools.ts).
  it('mcp bundles no card authorization engine; the cards function and the card network do', async () => {
    const engine = 'shared/domain/cards/authorization-engine.ts';
    expect((await bundleOf('mcp')).files.has(engine)).toBe(false);
    expect(
      [...(await bundleOf('mcp')).files].filter((file) => file.startsWith('shared/domain/cards/authorization-')),
    ).toEqual([]);
    expect((await bundleOf('cards')).files.has(engine)).toBe(true);
    expect((await bundleOf('card-network')).files.has(engine)).toBe(true);
  });

  // The functions that only move transfers along build the steps alone (shared/runtime/services/transfer-steps.ts).
  it.each(['transfer-steps', 'expiry', 'expiry-sweep'])(
    '%s bundles the transfer steps without the client operations nor the workflow start',
    async (group) => {
      const { files, packages } = await bundleOf(group);
      expect(files.has('shared/domain/transfers/transfer-workflow-steps.ts')).toBe(true);
      expect(files.has('shared/domain/transfers/transfer-operations.ts')).toBe(false);
      expect(files.has('shared/runtime/workflows.ts')).toBe(false);
      expect(packages.has('@aws-sdk/client-sfn')).toBe(false);
    },
  );

  // An ESM import of node:http builds its namespace, whose lazy getters load Node's bundled undici:
  // about 10 ms of a cold start (shared/webhooks/http-sender.ts takes it when it sends instead).
  it.each(functionGroups())('%s imports no node:http at load', async (group) => {
    const { text } = await bundleOf(group);
    expect(text).toMatch(/from\s*"node:https"/);
    expect(text).not.toMatch(/from\s*"(node:)?http"/);
  });

  it('docs resolves the views (it generates the OpenAPI document)', async () => {
    const { files, text } = await bundleOf('docs');
    expect(files.has('shared/domain/view-registry.ts')).toBe(true);
    // The check above sees a view's description in a bundle (a few are escaped by the minifier).
    const descriptions = viewDescriptions();
    expect(descriptions.filter((description) => text.includes(description)).length).toBeGreaterThan(
      descriptions.length * 0.8,
    );
  });
});

describe("bundle size against the floor (the targets of bench/bundles.ts; import time is the bench's to guard)", () => {
  /** A floor bundle (the SDK as published), built as the bench builds it. */
  const floorBytes = async (floor: keyof typeof FLOOR_ENTRIES) => {
    const result = await build({
      ...esbuildOptions(floor),
      entryPoints: [path.join(REPO_ROOT, FLOOR_ENTRIES[floor])],
      absWorkingDir: REPO_ROOT,
      outdir: `cdk.out/bundle-test-${floor}`,
      write: false,
      logLevel: 'silent',
    });
    return Buffer.byteLength(result.outputFiles.find((file) => /\.m?js$/.test(file.path))?.text ?? '');
  };
  let floors: FloorSizes;
  beforeAll(async () => {
    floors = { observed: await floorBytes(FLOOR), plain: await floorBytes(FLOOR_PLAIN) };
  });

  it('allows the observability layer once: the observed floor is the plain floor and the layer, 1.00x', () => {
    expect(floors.plain).toBeGreaterThan(100_000);
    // Powertools' Logger and Metrics and shared/observability: tens of KB, never a ratio of them.
    expect(observabilityBytes(floors)).toBeGreaterThan(20_000);
    expect(observabilityBytes(floors)).toBeLessThan(60_000);
    expect(sizeRatioOf(floors.observed, floors)).toBe(1);
    expect(sizeRatioOf(floors.plain + observabilityBytes(floors) + floors.plain * 0.3, floors)).toBeCloseTo(1.3, 10);
  });

  it('holds every HTTP and worker group to 1.3x, docs (every area) to 2.6x, MCP (every tool schema) to 3.0x', () => {
    expect(TARGETS.group.sizeRatio).toBe(1.3);
    expect(TARGETS.everyArea.sizeRatio).toBe(2.6);
    expect(TARGETS.mcp.sizeRatio).toBe(3.0);
    expect(targetOf('mcp')).toBe(TARGETS.mcp);
    expect(targetOf('docs')).toBe(TARGETS.everyArea);
    expect(targetOf('invoices')).toBe(TARGETS.severalAreas);
    expect(targetOf('hosted')).toBe(TARGETS.hostedPages);
    expect(targetOf('dashboard')).toBe(TARGETS.dashboard);
    expect(targetOf('payment-links')).toBe(TARGETS.severalAreas);
    expect(targetOf('transfers')).toBe(TARGETS.severalAreas);
    expect(targetOf('expiry-sweep')).toBe(TARGETS.severalAreas);
    expect(targetOf('transfer-steps')).toBe(TARGETS.group);
    expect(targetOf('payments')).toBe(TARGETS.group);
    expect([...EVERY_AREA_FUNCTIONS].sort()).toEqual(['docs', 'mcp']);
    expect(functionGroups()).toEqual(expect.arrayContaining([...EVERY_AREA_FUNCTIONS]));
  });

  // (bundle - the observability layer) / the plain floor: the layer allowed once, not multiplied by the target.
  it.each(functionGroups())('%s is within its size target', async (group) => {
    const { text } = await bundleOf(group);
    const ratio = sizeRatioOf(Buffer.byteLength(text), floors);
    expect(ratio, `${group}: ${ratio.toFixed(3)}x the plain floor, the observability layer once`).toBeLessThanOrEqual(
      targetOf(group).sizeRatio,
    );
  });
});

describe('function bundles read AWS credentials from the environment only (EVERY_FUNCTION_ALIASES)', () => {
  // The SDK's default chain without its first link (environment variables, which Lambda sets).
  const CHAIN =
    /^(@aws-sdk\/(credential-provider-(?!env$).+|nested-clients|token-providers)|@smithy\/credential-provider-imds)$/;

  it.each(functionGroups())(
    '%s carries no other credential provider, nor the STS and SSO clients they use',
    async (group) => {
      const { packages, files, importers } = await bundleOf(group);
      expect(packages.has('@aws-sdk/client-dynamodb')).toBe(true);
      expect([...packages].filter((name) => CHAIN.test(name))).toEqual([]);
      expect(files.has('shared/runtime/lambda-credentials.ts')).toBe(true);
      // Only the AWS clients' runtime configuration gets the replacement: code of ours importing the chain would get it too.
      const replacementImporters = importers.get('shared/runtime/lambda-credentials.ts') ?? [];
      expect(replacementImporters.length).toBeGreaterThan(0);
      expect(
        replacementImporters.filter(
          (file) => !/node_modules\/@aws-sdk\/client-[a-z-]+\/dist-es\/runtimeConfig\.js$/.test(file),
        ),
      ).toEqual([]);
    },
  );

  it("uses the copy of the environment provider the SDK's chain uses (the pin in package.json follows the SDK)", () => {
    const fromProject = createRequire(path.join(REPO_ROOT, 'package.json'));
    const chain = path.dirname(path.dirname(fromProject.resolve('@aws-sdk/credential-provider-node')));
    expect(createRequire(path.join(chain, 'package.json')).resolve('@aws-sdk/credential-provider-env')).toBe(
      fromProject.resolve('@aws-sdk/credential-provider-env'),
    );
  });

  describe('a client in a bundle built this way', () => {
    let dir: string;
    const probes: Record<'function' | 'sdkDefault', string> = { function: '', sdkDefault: '' };
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'allowance-credential-probe-'));
      const entryPoints = [path.join(REPO_ROOT, 'test/fixtures/credential-probe.ts')];
      // As the wallets function is built, and as the SDK is published (the floor's options).
      for (const [kind, group] of [
        ['function', 'wallets'],
        ['sdkDefault', FLOOR],
      ] as const) {
        probes[kind] = path.join(dir, `${kind}.mjs`);
        await build({
          ...esbuildOptions(group),
          entryPoints,
          outfile: probes[kind],
          absWorkingDir: REPO_ROOT,
          logLevel: 'silent',
        });
      }
      writeFileSync(
        path.join(dir, 'credentials'),
        '[probe]\naws_access_key_id = AKIDFROMPROFILE\naws_secret_access_key = profile-secret\n',
      );
      writeFileSync(path.join(dir, 'config'), '');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const run = (probe: string, env: Record<string, string>) =>
      JSON.parse(
        execFileSync(process.execPath, [probe], {
          env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
          encoding: 'utf8',
          timeout: 20_000,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      ) as Record<string, string>;

    it("resolves Lambda's environment variables", () => {
      const env = {
        AWS_ACCESS_KEY_ID: 'AKIDFROMLAMBDA',
        AWS_SECRET_ACCESS_KEY: 'lambda-secret',
        AWS_SESSION_TOKEN: 'lambda-session',
      };
      expect(run(probes.function, env)).toEqual({ accessKeyId: 'AKIDFROMLAMBDA', sessionToken: 'lambda-session' });
    });

    it('fails without them rather than reading a profile, which the SDK as published would read', () => {
      const env = {
        AWS_PROFILE: 'probe',
        AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'credentials'),
        AWS_CONFIG_FILE: path.join(dir, 'config'),
      };
      expect(run(probes.function, env).error).toMatch(
        /^CredentialsProviderError: No AWS credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, the only place a function bundle looks/,
      );
      expect(run(probes.sdkDefault, env)).toEqual({ accessKeyId: 'AKIDFROMPROFILE' });
    });
  });
});
