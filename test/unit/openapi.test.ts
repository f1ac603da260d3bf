import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ERRORS } from '../../shared/domain/errors.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { ROUTES, routeKeyOf } from '../../shared/http/routes.js';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';
import { buildOpenApiDocument, errorCodesOf } from '../../shared/operations/openapi.js';

type Schema = {
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  examples?: unknown[];
  type?: unknown;
};

/** Paths to every property (at any depth) that has no description. */
function undescribed(schema: Schema, at: string): string[] {
  const own = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => [
    ...(child.description ? [] : [`${at}.${name}`]),
    ...undescribed(child, `${at}.${name}`),
  ]);
  const nested = [schema.items, ...(schema.anyOf ?? [])]
    .filter((s): s is Schema => s !== undefined)
    .flatMap((s) => undescribed(s, `${at}[]`));
  return [...own, ...nested];
}

const document = buildOpenApiDocument() as {
  paths: Record<
    string,
    Record<
      string,
      {
        description?: string;
        responses: Record<string, { description: string }>;
        parameters: { name: string; description?: string }[];
        requestBody?: { content: { 'application/json': { schema: Schema } } };
      }
    >
  >;
};

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every route of the route table, generated from the catalog', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => routeKeyOf({ method: method.toUpperCase(), path })),
    );
    expect(documented.sort()).toEqual(ROUTES.map(routeKeyOf).sort());
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
        const output = z.toJSONSchema(viewOf(op.output), {
          target: 'draft-2020-12',
          io: 'output',
          unrepresentable: 'any',
        }) as Schema;
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

type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  schema: { type?: string; pattern?: string; minLength?: number };
};
type Described = {
  parameters: Parameter[];
  requestBody?: {
    content: { 'application/json': { schema: { properties?: Record<string, { minLength?: number }> } } };
  };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
const operationOf = (op: { http: { path: string; method: string } }) =>
  document.paths[op.http.path]![op.http.method.toLowerCase()] as unknown as Described;

describe('the OpenAPI document for typed clients', () => {
  it('declares numeric and boolean query parameters with their types, not as strings', () => {
    const query = CATALOG_ENTRIES.flatMap(({ operation: op }) =>
      operationOf(op)
        .parameters.filter((p) => p.in === 'query')
        .map((p) => ({ op: op.name, ...p })),
    );
    expect(query.filter((p) => p.name === 'limit').map((p) => p.schema)).toEqual(
      query
        .filter((p) => p.name === 'limit')
        .map(() => expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100 })),
    );
    expect(query.find((p) => p.name === 'includeDeleted')?.schema).toMatchObject({ type: 'boolean' });
  });

  it('declares the 202 APPROVAL_REQUIRED answer with its own schema, not the Error envelope', () => {
    const queuing = CATALOG_ENTRIES.filter(({ operation: op }) => op.errors.includes('APPROVAL_REQUIRED'));
    expect(queuing.length).toBeGreaterThan(0);
    for (const { operation: op } of queuing) {
      const schema = operationOf(op).responses['202']!.content!['application/json']!.schema;
      expect(schema, op.name).not.toEqual({ $ref: '#/components/schemas/Error' });
      expect(JSON.stringify(schema), op.name).toContain('approvalId');
    }
  });

  it('declares the Idempotency-Key header on every operation that takes an idempotency key, with the rule of the body field (not empty)', () => {
    for (const { operation: op } of CATALOG_ENTRIES) {
      const header = operationOf(op).parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (!op.idempotency) {
        expect(header, op.name).toBeUndefined();
        continue;
      }
      expect(header?.schema, op.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
      const field = operationOf(op).requestBody?.content['application/json'].schema.properties?.idempotencyKey;
      if (field) expect(field.minLength, op.name).toBe(1);
    }
  });

  it('declares 400 and 413 on every operation (the edge refuses a bad or oversized body on any route)', () => {
    const missing = CATALOG_ENTRIES.flatMap(({ operation: op }) =>
      ['400', '413'].filter((status) => !operationOf(op).responses[status]).map((status) => `${op.name} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it("tells apart every two paths that could match the same URL (the id parameter pattern rejects the other path's literal segment)", () => {
    const paths = Object.keys(document.paths);
    const patternOf = (path: string, name: string) => {
      const methods = Object.values(document.paths[path]!) as unknown as Described[];
      return methods.flatMap((m) => m.parameters).find((p) => p.in === 'path' && p.name === name)?.schema.pattern;
    };
    const unresolved: string[] = [];
    for (const a of paths) {
      for (const b of paths) {
        const sa = a.split('/');
        const sb = b.split('/');
        if (a >= b || sa.length !== sb.length) continue;
        const templated = (s: string) => s.startsWith('{');
        if (!sa.every((s, i) => s === sb[i] || templated(s) || templated(sb[i]!))) continue;
        const clashes = sa.flatMap((s, i) =>
          s !== sb[i] && templated(s) !== templated(sb[i]!)
            ? [templated(s) ? { path: a, param: s, literal: sb[i]! } : { path: b, param: sb[i]!, literal: s }]
            : [],
        );
        const resolved = clashes.some((c) => {
          const pattern = patternOf(c.path, c.param.slice(1, -1));
          return pattern !== undefined && !new RegExp(pattern).test(c.literal);
        });
        if (!resolved && !(clashes.length > 0 && clashes.every((c) => c.path === clashes[0]!.path)))
          unresolved.push(`${a} ~ ${b}`);
      }
    }
    expect(unresolved).toEqual([]);
  });
});
