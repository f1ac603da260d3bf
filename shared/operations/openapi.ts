import * as z from 'zod/mini';
import { ERRORS, type ErrorCode } from '../domain/errors.js';
import { viewOf, type ViewName } from '../domain/view-registry.js';
import { errorView } from '../domain/views.js';
import type { Operation } from './define.js';
import { IDEMPOTENCY_KEY_MEANING, idempotencyKeyValue, typedQueryValue } from './fields.js';
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

/**
 * Answers that carry a code but are not failures of the request, each with its own schema instead
 * of the Error envelope: the 202 of a payment queued for approval, the 207 of a partial batch.
 */
const ANSWER_VIEWS: Partial<Record<ErrorCode, ViewName>> = {
  APPROVAL_REQUIRED: 'approvalRequiredView',
  BATCH_PARTIAL_FAILURE: 'batchPartialFailureView',
};

/**
 * Every error code an operation can answer: its own, the common ones, validation and unknown ids.
 * Every route may answer 400 and 413: the edge refuses a body larger than 1 MB before anything
 * else, and a body (or a bad query) on any route, whether or not the operation takes one. Every
 * operation that writes may answer 409 CONCURRENT_UPDATE: a transaction still conflicting after its
 * retries (shared/persistence/transact.ts) writes nothing and says so.
 */
export function errorCodesOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    ...op.errors,
    ...COMMON_ERRORS[op.access],
    'VALIDATION_ERROR',
    'PAYLOAD_TOO_LARGE',
  ]);
  if (op.http.method !== 'GET' && op.access !== 'public') codes.add('CONCURRENT_UPDATE');
  if (op.body) codes.add('UNSUPPORTED_MEDIA_TYPE');
  if (op.params) codes.add('NOT_FOUND');
  if (op.sandboxOnly) codes.add('SANDBOX_ONLY');
  return [...codes];
}

function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  // Query fields are declared as the typed values a client sends (`limit` an integer), see fields.ts.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: typedQueryValue,
  }) as JsonSchema;
  return rest;
}

/**
 * A path parameter described as an id (`The card id (\`card_...\`).`) only ever holds that prefix:
 * declared as a pattern, it tells `/v1/cards/cardholders/{id}` from `/v1/cards/{id}/details`.
 */
function pathParameterSchema(description: string): JsonSchema {
  const prefix = /`([a-z]+_)\.\.\.`/.exec(description)?.[1];
  return { type: 'string', maxLength: 253, ...(prefix ? { pattern: `^${prefix}[A-Za-z0-9_]+$` } : {}) };
}

function idempotencyHeader(): JsonSchema {
  const description = `${IDEMPOTENCY_KEY_MEANING} The body field \`idempotencyKey\` is the same key; both given and different is a VALIDATION_ERROR.`;
  const { description: _same, ...schema } = jsonSchemaOf(idempotencyKeyValue(description), 'input');
  return { name: 'Idempotency-Key', in: 'header', required: false, description, schema };
}

function parametersOf(op: Operation): JsonSchema[] {
  const path = Object.entries(op.params ?? {}).map(([name, description]) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: pathParameterSchema(description),
  }));
  const header = op.idempotency ? [idempotencyHeader()] : [];
  if (!op.query) return [...path, ...header];
  const query = jsonSchemaOf(op.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  const fromQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: (query.required ?? []).includes(name), description, schema: rest };
  });
  return [...path, ...fromQuery, ...header];
}

const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

function responsesOf(op: Operation): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {
    [String(op.http.status)]: {
      description: op.summary,
      content: jsonContent(jsonSchemaOf(viewOf(op.output), 'output')),
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op))
    byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const key = String(status);
    const existing = responses[key];
    const answers = codes.flatMap((code) => (ANSWER_VIEWS[code] ? [viewOf(ANSWER_VIEWS[code])] : []));
    const errors = codes.filter((code) => !ANSWER_VIEWS[code]);
    const description = answers.length
      ? `${codes.join(', ')}: ${answers.map((a) => String(jsonSchemaOf(a, 'output').description)).join(' ')}`
      : `Error codes: ${codes.join(', ')}.`;
    const schemas = [
      ...(existing ? [(existing.content as Record<string, { schema: JsonSchema }>)['application/json']!.schema] : []),
      ...answers.map((a) => jsonSchemaOf(a, 'output')),
      ...(errors.length ? [{ $ref: '#/components/schemas/Error' }] : []),
    ];
    const schema = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
    responses[key] = {
      description: existing ? `${String(existing.description)} ${description}` : description,
      content: jsonContent(schema),
    };
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
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(op.body, 'input') } } } }
      : {}),
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
      description:
        'Wallets, budgets and payments for AI agents. Amounts are decimal strings in USD; every error answers `{ error: { code, message, details?, requestId } }`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerKey: [] }],
    tags: [...new Set(CATALOG_ENTRIES.map((e) => e.group))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key: `svc_test_...` (sandbox), `svc_live_...` (production) or `svc_admin_...` (operator).',
        },
      },
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
