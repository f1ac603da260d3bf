import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../domain/json.js';
import * as z from 'zod/mini';
import { ApiError } from '../domain/errors.js';
import { describe } from '../domain/views.js';
import { toolViewOf } from '../domain/tool-views.js';
import { parseWith } from '../edge/parse.js';
import type { Operation } from '../operations/define.js';
import { typedQueryValue } from '../operations/fields.js';
import { TOOL_GROUP_OPERATIONS } from '../operations/tool-groups.js';
import { queuedPaymentResult } from './outcomes.js';

/**
 * The MCP tools, generated from the operation catalog (docs/api.md "MCP"): one tool per operation
 * that declares `mcp` (the groups of TOOL_GROUPS, so the MCP bundle carries no group without
 * tools), named `<prefix><mcp.tool>`. A tool's input is the operation's path
 * parameters, query and body merged into one object; its output schema is the operation's
 * `output` (plus the queued answer for operations that can answer APPROVAL_REQUIRED). The JSON
 * Schemas are built once per process from the zod/mini schemas with zod's own `z.toJSONSchema`,
 * so `tools/list` costs no conversion per request.
 */

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/** Path parameters are ids or domain names: the pattern the HTTP edge accepts in a path. */
const PARAMETER_PATTERN = /^[A-Za-z0-9_.-]{1,253}$/;

/** What a money-moving tool says about `idempotencyKey`: the MCP edge derives no key itself. */
export const MONEY_IDEMPOTENCY_KEY_DESCRIPTION =
  'Strongly recommended. Without it a retry may pay twice: this tool derives no key of its own, so calling it again after a timeout, an error or a restart moves the money again. ' +
  'Choose a unique key for this one movement of money (e.g. a UUID made once and reused on every retry of the same request), 1-255 printable characters. ' +
  'With it, the same key and the same arguments within 24 hours return the first answer instead of acting again; the same key with other arguments fails with IDEMPOTENCY_KEY_REUSE.';

/**
 * Tools that mirror two operations, chosen by one field (interface-spec 4.13: "the agent-creation
 * tool also accepts a `templateId`"): with the field present the call runs `operation` instead.
 */
const VARIANTS: Readonly<Record<string, { field: string; operation: string; description: string }>> = {
  create_agent: {
    field: 'templateId',
    operation: 'createAgentFromTemplate',
    description:
      'Create the agent from this template instead (its permissions and spend policy; see list_agent_templates); then only `name` may be given besides it.',
  },
};

/**
 * Body fields a tool fills in when the call leaves them out: an operation whose body can ask for one
 * thing only is a tool taking the resource's id alone (contract-22: `cancel_payment_link` = PATCH
 * `{status: "CANCELLED"}`, input `id`). Keyed by the unprefixed tool name.
 */
const DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  cancel_payment_link: { status: 'CANCELLED' },
};

export interface McpTool {
  /** The prefixed tool name. */
  name: string;
  operation: Operation;
  /** The operation run when the variant's field is present (see VARIANTS). */
  variant: { field: string; operation: Operation } | undefined;
  /** Which input field goes where. */
  fields: { params: readonly string[]; query: readonly string[]; body: readonly string[] };
  /** Body fields filled in when absent (see DEFAULTS). */
  defaults: Readonly<Record<string, unknown>>;
  /** Whether a success may be the queued answer (APPROVAL_REQUIRED). */
  mayQueue: boolean;
  definition: Tool;
}

export interface ToolCatalog {
  tools: readonly McpTool[];
  byName: ReadonlyMap<string, McpTool>;
}

export const moneyMoving = (op: Operation) => op.idempotency === 'key';

function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  // Query fields as the typed values a model sends (`limit: 20`); resolveCall turns them into text.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: typedQueryValue,
  }) as JsonSchema;
  return rest;
}

/** Examples make `tools/list` several times larger and a model reads the descriptions anyway. */
function withoutExamples(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutExamples);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'examples') continue;
    // A `properties` map is keyed by field names: a field called "examples" is kept.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([name, child]) => [name, withoutExamples(child)]))
        : withoutExamples(value);
  }
  return out;
}

const paramsSchemas = new WeakMap<Operation, z.ZodMiniObject | undefined>();

/** The path parameters as a schema (built once per operation): described ids. */
function paramsSchemaOf(op: Operation): z.ZodMiniObject | undefined {
  if (paramsSchemas.has(op)) return paramsSchemas.get(op);
  const entries = Object.entries(op.params ?? {});
  const schema =
    entries.length === 0
      ? undefined
      : z.strictObject(
          Object.fromEntries(
            entries.map(([name, description]) => [
              name,
              describe(z.string().check(z.regex(PARAMETER_PATTERN, 'is not a valid id')), description),
            ]),
          ),
        );
  paramsSchemas.set(op, schema);
  return schema;
}

function propertiesOf(schema: z.ZodMiniType | undefined): JsonSchema {
  if (!schema) return { properties: {}, required: [] };
  const json = jsonSchemaOf(schema, 'input');
  if (json.type !== 'object' || !json.properties) throw new Error('an MCP tool input must be an object schema');
  return json;
}

function inputSchemaOf(
  op: Operation,
  variant: { field: string; operation: Operation; description: string } | undefined,
  defaults: Readonly<Record<string, unknown>>,
) {
  const parts = {
    params: propertiesOf(paramsSchemaOf(op)),
    query: propertiesOf(op.query),
    body: propertiesOf(op.body),
  };
  const properties: Record<string, JsonSchema> = {
    ...parts.params.properties,
    ...parts.query.properties,
    ...parts.body.properties,
  };
  if (moneyMoving(op) && properties.idempotencyKey)
    properties.idempotencyKey = { ...properties.idempotencyKey, description: MONEY_IDEMPOTENCY_KEY_DESCRIPTION };
  if (variant) {
    const field = propertiesOf(variant.operation.body).properties?.[variant.field];
    if (!field) throw new Error(`${variant.operation.name} has no body field ${variant.field}`);
    properties[variant.field] = {
      ...field,
      description: `${String(field.description ?? '')} ${variant.description}`.trim(),
    };
  }
  for (const [name, value] of Object.entries(defaults)) {
    if (!properties[name]) throw new Error(`${op.name} has no body field ${name} to default`);
    properties[name] = { ...properties[name], default: value };
  }
  const required = [
    ...(parts.params.required ?? []),
    ...(parts.query.required ?? []),
    ...(parts.body.required ?? []),
  ].filter((name) => !(name in defaults));
  const fields = {
    params: Object.keys(parts.params.properties ?? {}),
    query: Object.keys(parts.query.properties ?? {}),
    body: Object.keys(parts.body.properties ?? {}),
  };
  const names = [...fields.params, ...fields.query, ...fields.body];
  if (new Set(names).size !== names.length)
    throw new Error(`${op.name}: a field name is used twice among path parameters, query and body`);
  return {
    schema: {
      type: 'object' as const,
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    fields,
  };
}

function outputSchemaOf(op: Operation, mayQueue: boolean) {
  const output = withoutExamples(jsonSchemaOf(toolViewOf(op.output), 'output')) as JsonSchema;
  if (!mayQueue) return { ...output, type: 'object' as const };
  return {
    type: 'object' as const,
    description:
      'Either the result of the operation, or (when a spend policy needs a person to approve the payment) the queued answer.',
    anyOf: [output, withoutExamples(jsonSchemaOf(queuedPaymentResult, 'output'))],
  };
}

function descriptionOf(op: Operation, prefix: string, mayQueue: boolean): string {
  const lines = [`${op.summary}. ${op.description}`];
  if (moneyMoving(op))
    lines.push(
      'Pass an idempotencyKey and reuse it on every retry of the same request: without one, a retry may pay twice.',
    );
  if (mayQueue)
    lines.push(
      `When a spend policy needs human approval the result is not an error: it says the payment is queued, with the approval id to check with ${prefix}get_approval. Do not retry a queued payment.`,
    );
  return lines.join('\n');
}

function toolOf(op: Operation, prefix: string): McpTool {
  const mcp = op.mcp!;
  const name = `${prefix}${mcp.tool}`;
  const variantSpec = VARIANTS[mcp.tool];
  const variantOperation = variantSpec
    ? TOOL_GROUP_OPERATIONS.find((operation) => operation.name === variantSpec.operation)
    : undefined;
  if (variantSpec && !variantOperation) throw new Error(`${name}: no operation ${variantSpec.operation}`);
  const variant = variantSpec && variantOperation ? { ...variantSpec, operation: variantOperation } : undefined;
  const mayQueue = op.errors.includes('APPROVAL_REQUIRED');
  const defaults = DEFAULTS[mcp.tool] ?? {};
  const input = inputSchemaOf(op, variant, defaults);
  return {
    name,
    operation: op,
    variant: variant ? { field: variant.field, operation: variant.operation } : undefined,
    fields: input.fields,
    defaults,
    mayQueue,
    definition: {
      name,
      title: op.summary,
      description: descriptionOf(op, prefix, mayQueue),
      inputSchema: input.schema,
      outputSchema: outputSchemaOf(op, mayQueue),
      annotations: { title: op.summary, ...mcp.hints },
    },
  };
}

/** Every tool of the catalog under a prefix (the operations that declare `mcp`). */
export function buildToolCatalog(prefix: string): ToolCatalog {
  const tools = TOOL_GROUP_OPERATIONS.flatMap((operation) => (operation.mcp ? [toolOf(operation, prefix)] : []));
  return { tools, byName: new Map(tools.map((t) => [t.name, t])) };
}

const catalogs = new Map<string, ToolCatalog>();

/** Built once per process and prefix. */
export function toolCatalog(prefix: string): ToolCatalog {
  let catalog = catalogs.get(prefix);
  if (!catalog) {
    catalog = buildToolCatalog(prefix);
    catalogs.set(prefix, catalog);
  }
  return catalog;
}

/** A tool call resolved to one operation and its validated input, as the HTTP edge would hand it over. */
export interface ResolvedCall {
  operation: Operation;
  body: unknown;
  query: unknown;
  params: Record<string, string>;
}

/** Query values are strings on the wire; a model may well send `limit: 10`. */
const asQueryValue = (value: unknown) =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;

/**
 * Splits the arguments into path parameters, query and body and validates each with the
 * operation's own schema (the same VALIDATION_ERROR fields as the HTTP edge). Unknown fields are
 * refused, like unknown body fields over HTTP.
 */
export function resolveCall(tool: McpTool, args: unknown): ResolvedCall {
  if (args !== undefined && !isJsonObject(args))
    throw new ApiError('VALIDATION_ERROR', 'arguments: must be an object', { field: 'arguments' });
  const values = { ...tool.defaults, ...args };
  const variant = tool.variant && values[tool.variant.field] !== undefined ? tool.variant : undefined;
  const op = variant?.operation ?? tool.operation;
  const outsideBody = (name: string) => !tool.fields.params.includes(name) && !tool.fields.query.includes(name);
  // With the variant's field present, the other arguments are the variant's body: its strict schema refuses extras.
  const bodyFields = variant ? Object.keys(values).filter(outsideBody) : tool.fields.body;
  const unknown = Object.keys(values).find((name) => outsideBody(name) && !bodyFields.includes(name));
  if (unknown)
    throw new ApiError('VALIDATION_ERROR', `${unknown}: is not a recognized field`, {
      field: unknown,
      issues: [{ field: unknown, message: 'is not a recognized field' }],
    });
  const pick = (names: readonly string[], map: (value: unknown) => unknown = (v) => v) =>
    Object.fromEntries(names.filter((name) => values[name] !== undefined).map((name) => [name, map(values[name])]));
  const paramsSchema = paramsSchemaOf(op);
  const params = paramsSchema ? (parseWith(paramsSchema, pick(tool.fields.params), '') as Record<string, string>) : {};
  const query = op.query ? parseWith(op.query, pick(tool.fields.query, asQueryValue), '') : {};
  const body = op.body ? parseWith(op.body, pick(bodyFields), '') : undefined;
  return { operation: op, body, query, params };
}
