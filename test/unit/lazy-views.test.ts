import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EVENT_DECLARATIONS } from '../../shared/domain/event-names.js';
import { VIEW_MODULES, viewOf } from '../../shared/domain/view-registry.js';
import { built, exampleOf, lazy, view } from '../../shared/domain/views.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';

const DOMAIN = fileURLToPath(new URL('../../shared/domain/', import.meta.url));
const VIEW_FILES = [
  path.join(DOMAIN, 'views.ts'),
  ...readdirSync(DOMAIN, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('-view.ts'))
    .map((file) => path.join(DOMAIN, file)),
];

describe('views are built on first use (cold start, bundle size)', () => {
  it('finds the view modules, each in the view registry', () => {
    expect(VIEW_FILES.length).toBeGreaterThan(15);
    expect(Object.keys(VIEW_MODULES)).toHaveLength(VIEW_FILES.length);
  });

  it.each(VIEW_FILES.map((file) => [path.relative(DOMAIN, file), file]))(
    'every schema %s exports is lazy',
    async (_name, file) => {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const schemas = Object.entries(module).filter(([, value]) => value instanceof z.ZodMiniType);
      for (const [name, schema] of schemas) expect(schema, name).toBeInstanceOf(z.ZodMiniLazy);
    },
  );

  it('importing the whole catalog and every view builds none of their schemas', () => {
    // zod keeps a lazy schema's built inner schema on its definition (checked on a fresh one below).
    const isBuilt = (schema: z.ZodMiniType) =>
      (schema._zod.def as { _cachedInner?: unknown })._cachedInner !== undefined;
    const probe = lazy(() => z.string());
    expect(isBuilt(probe)).toBe(false);
    void built(probe);
    expect(isBuilt(probe)).toBe(true);
    const inputs = CATALOG_ENTRIES.flatMap(({ operation }) => [operation.body, operation.query]).filter(
      (schema) => schema !== undefined,
    );
    const outputs = CATALOG_ENTRIES.map(({ operation }) => viewOf(operation.output));
    const lazies = [...inputs, ...outputs, ...Object.values(EVENT_DECLARATIONS).map((event) => viewOf(event.payload))];
    expect(lazies.length).toBeGreaterThan(150);
    expect(lazies.filter((schema) => !(schema instanceof z.ZodMiniLazy))).toEqual([]);
    expect(lazies.filter(isBuilt)).toEqual([]);
  });

  it('registers every view any domain module exports (else the catalog could not name it, or a name would hide it)', async () => {
    const registered = new Set(
      Object.values(VIEW_MODULES).flatMap((module) => Object.values(module as Record<string, unknown>)),
    );
    const unregistered: string[] = [];
    const files = readdirSync(DOMAIN, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    for (const file of files) {
      const module = (await import(pathToFileURL(path.join(DOMAIN, file)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        // A view is a schema with an example (view(), pageOf(), listOf()); input schemas have none.
        if (value instanceof z.ZodMiniType && exampleOf(value) !== undefined && !registered.has(value))
          unregistered.push(`${file}: ${name}`);
      }
    }
    expect(files.length).toBeGreaterThan(50);
    expect(unregistered).toEqual([]);
  });

  it('names every view once across the view modules (the catalog names outputs by it)', () => {
    const names = Object.values(VIEW_MODULES).flatMap((module) =>
      Object.entries(module as Record<string, unknown>)
        .filter(([, value]) => value instanceof z.ZodMiniType)
        .map(([name]) => name),
    );
    expect(names.length).toBeGreaterThan(60);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('every event payload schema is lazy', () => {
    for (const [name, { payload }] of Object.entries(EVENT_DECLARATIONS))
      expect(viewOf(payload), name).toBeInstanceOf(z.ZodMiniLazy);
  });

  it('every operation builds its body and query schemas on first use', () => {
    const inputs = CATALOG_ENTRIES.flatMap(({ operation }) =>
      [operation.body, operation.query]
        .filter((schema) => schema !== undefined)
        .map((schema) => [operation.name, schema] as const),
    );
    expect(inputs.length).toBeGreaterThan(40);
    for (const [name, schema] of inputs) expect(schema, name).toBeInstanceOf(z.ZodMiniLazy);
  });

  it('builds a lazy view once, on first use, and reads its example through it', () => {
    let builds = 0;
    const thing = lazy(() => {
      builds += 1;
      return view({ name: z.string() }, 'A thing.', { name: 'example' });
    });
    expect(builds).toBe(0);
    expect(thing.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(exampleOf(thing)).toEqual({ name: 'example' });
    expect(built(thing)).toBe(built(thing));
    expect(builds).toBe(1);
  });
});
