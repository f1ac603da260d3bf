import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ERRORS } from '../../shared/domain/errors.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { ROUTES } from '../../shared/http/routes.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';
import { buildOpenApiDocument, errorCodesOf } from '../../shared/operations/openapi.js';

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; examples?: unknown[]; type?: unknown };

/** Paths to every property (at any depth) that has no description. */
function undescribed(schema: Schema, at: string): string[] {
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => [
    ...(child.description ? [] : [`${at}.${name}`]),
    ...undescribed(child, `${at}.${name}`),
  ]);
  const nested = [schema.items, ...(schema.anyOf ?? [])].filter((s): s is Schema => s !== undefined).flatMap((s) => undescribed(s, `${at}[]`));
  return [...own, ...nested];
}

const document = buildOpenApiDocument() as { paths: Record<string, Record<string, { description?: string; responses: Record<string, { description: string }>; parameters: { name: string; description?: string }[]; requestBody?: { content: { 'application/json': { schema: Schema } } } }>> };

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every route of the route table, generated from the catalog', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  for (const { operation: op } of CATALOG_ENTRIES) {
    describe(op.name, () => {
      const described = document.paths[op.http.path]![op.http.method.toLowerCase()]!;

      it('has a summary and a description', () => {
        expect(op.summary.length).toBeGreaterThan(5);
        expect(op.description.length).toBeGreaterThan(20);
      });

      it('describes every input field and parameter', () => {
        const body = described.requestBody?.content['application/json'].schema;
        expect(body ? undescribed(body, 'body') : []).toEqual([]);
        expect(described.parameters.filter((p) => !p.description).map((p) => p.name)).toEqual([]);
      });

      it('has an output schema with a valid example and every field described', () => {
        const output = z.toJSONSchema(viewOf(op.output), { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Schema;
        expect(output.description).toBeTruthy();
        expect(undescribed(output, 'output')).toEqual([]);
        if (op.name === 'getOpenApiDocument') return;
        expect(output.examples?.length ?? 0).toBeGreaterThan(0);
        expect(viewOf(op.output).safeParse(output.examples![0]).success).toBe(true);
      });

      it('documents each of its error codes under its status', () => {
        const codes = errorCodesOf(op);
        expect(codes.length).toBeGreaterThan(0);
        for (const code of codes) expect(described.responses[String(ERRORS[code].status)]?.description).toContain(code);
      });
    });
  }
});
