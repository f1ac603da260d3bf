import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { EVENT_PAYLOADS } from '../../shared/domain/event-payloads.js';
import { built, exampleOf, lazy, view } from '../../shared/domain/views.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';

const DOMAIN = fileURLToPath(new URL('../../shared/domain/', import.meta.url));
const VIEW_MODULES = [
  path.join(DOMAIN, 'views.ts'),
  ...readdirSync(DOMAIN, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('-view.ts'))
    .map((file) => path.join(DOMAIN, file)),
];

describe('views are built on first use (cold start, bundle size)', () => {
  it('finds the view modules', () => {
    expect(VIEW_MODULES.length).toBeGreaterThan(15);
  });

  it.each(VIEW_MODULES.map((file) => [path.relative(DOMAIN, file), file]))('every schema %s exports is lazy', async (_name, file) => {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const schemas = Object.entries(module).filter(([, value]) => value instanceof z.ZodMiniType);
    for (const [name, schema] of schemas) expect(schema, name).toBeInstanceOf(z.ZodMiniLazy);
  });

  it('importing the whole catalog builds none of its schemas (pages of a view included)', () => {
    // zod keeps a lazy schema's built inner schema on its definition (checked on a fresh one below).
    const isBuilt = (schema: z.ZodMiniType) => (schema._zod.def as { _cachedInner?: unknown })._cachedInner !== undefined;
    const probe = lazy(() => z.string());
    expect(isBuilt(probe)).toBe(false);
    void built(probe);
    expect(isBuilt(probe)).toBe(true);
    const lazies = CATALOG_ENTRIES.flatMap(({ operation }) => [operation.body, operation.query, operation.output]).filter((schema): schema is z.ZodMiniType => schema instanceof z.ZodMiniLazy);
    expect(lazies.length).toBeGreaterThan(100);
    expect(lazies.filter(isBuilt)).toEqual([]);
    // Every response schema is a view (or a page of one), except the OpenAPI document's own.
    const eager = CATALOG_ENTRIES.filter(({ operation }) => !(operation.output instanceof z.ZodMiniLazy)).map(({ operation }) => operation.name);
    expect(eager).toEqual(['getOpenApiDocument']);
  });

  it('every event payload schema is lazy', () => {
    for (const [name, schema] of Object.entries(EVENT_PAYLOADS)) expect(schema, name).toBeInstanceOf(z.ZodMiniLazy);
  });

  it('every operation builds its body and query schemas on first use', () => {
    const inputs = CATALOG_ENTRIES.flatMap(({ operation }) => [operation.body, operation.query].filter((schema) => schema !== undefined).map((schema) => [operation.name, schema] as const));
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
