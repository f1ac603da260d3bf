import * as z from 'zod/mini';
import { ERRORS, type ErrorCode } from '../domain/errors.js';
import { viewOf } from '../domain/view-registry.js';
import { errorView } from '../domain/views.js';
import type { Operation } from './define.js';
import { CATALOG_ENTRIES } from './index.js';
import { withEventSchemas } from './openapi-webhooks.js';

type JsonSchema = Record<string, unknown>;

/** Failures any operation of an access kind may answer, besides its own `errors`. */
const COMMON_ERRORS: Record<Operation['access'], readonly ErrorCode[]> = {
  public: ['RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'],
  key: ['UNAUTHORIZED', 'API_KEY_REVOKED', 'PERMISSION_DENIED', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'],
  organization: ['UNAUTHORIZED', 'API_KEY_REVOKED', 'PERMISSION_DENIED', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'],
  operator: ['UNAUTHORIZED', 'API_KEY_REVOKED', 'PERMISSION_DENIED', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'],
};

/** Every error code an operation can answer: its own, the common ones, validation and unknown ids. */
export function errorCodesOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...op.errors, ...COMMON_ERRORS[op.access]]);
  if (op.body || op.query) codes.add('VALIDATION_ERROR');
  if (op.body) codes.add('PAYLOAD_TOO_LARGE');
  if (op.body) codes.add('UNSUPPORTED_MEDIA_TYPE');
  if (op.params) codes.add('NOT_FOUND');
  if (op.sandboxOnly) codes.add('SANDBOX_ONLY');
  return [...codes];
}

function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parametersOf(op: Operation): JsonSchema[] {
  const path = Object.entries(op.params ?? {}).map(([name, description]) => ({ name, in: 'path', required: true, description, schema: { type: 'string', maxLength: 253 } }));
  if (!op.query) return path;
  const query = jsonSchemaOf(op.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  const fromQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: (query.required ?? []).includes(name), description, schema: rest };
  });
  return [...path, ...fromQuery];
}

function responsesOf(op: Operation): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {
    [String(op.http.status)]: { description: op.summary, content: { 'application/json': { schema: jsonSchemaOf(viewOf(op.output), 'output') } } },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op)) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const key = String(status);
    const existing = responses[key];
    const description = `Error codes: ${codes.join(', ')}.`;
    responses[key] = existing
      ? { ...existing, description: `${String(existing.description)} ${description}` }
      : { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return responses;
}

function operationObject(group: string, op: Operation): JsonSchema {
  return {
    operationId: op.name,
    summary: op.summary,
    description: op.description,
    tags: [group],
    ...(op.access === 'public' ? { security: [] } : {}),
    parameters: parametersOf(op),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(op.body, 'input') } } } } : {}),
    ...(op.idempotency ? { 'x-idempotency': 'Idempotency-Key header or idempotencyKey body field' } : {}),
    ...(op.permission ? { 'x-permission': op.permission } : {}),
    ...(op.audit ? { 'x-audit-action': op.audit } : {}),
    ...(op.events?.length ? { 'x-events': op.events } : {}),
    responses: responsesOf(op),
  };
}

/** The OpenAPI 3.1 document of the whole catalog. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { group, operation } of CATALOG_ENTRIES) {
    paths[operation.http.path] ??= {};
    paths[operation.http.path]![operation.http.method.toLowerCase()] = operationObject(group, operation);
  }
  return withEventSchemas({
    openapi: '3.1.0',
    info: {
      title: 'Allowance API',
      version: '1.0.0',
      description: 'Wallets, budgets and payments for AI agents. Amounts are decimal strings in USD; every error answers `{ error: { code, message, details?, requestId } }`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerKey: [] }],
    tags: [...new Set(CATALOG_ENTRIES.map((e) => e.group))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerKey: { type: 'http', scheme: 'bearer', description: 'An API key: `svc_test_...` (sandbox), `svc_live_...` (production) or `svc_admin_...` (operator).' } },
      schemas: { Error: jsonSchemaOf(errorView, 'output') },
    },
  });
}

let cached: JsonSchema | undefined;

/** Built once per process. */
export function openApiDocument(): JsonSchema {
  cached ??= buildOpenApiDocument();
  return cached;
}
