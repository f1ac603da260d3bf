import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { EMITTED_EVENT_NAMES, EVENT_DECLARATIONS, RESERVED_EVENT_NAMES } from '../../shared/domain/event-names.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { payloadJsonSchema } from '../../shared/events/catalog.js';
import { buildOpenApiDocument } from '../../shared/operations/openapi.js';

type Schema = {
  $ref?: string;
  type?: unknown;
  const?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  examples?: unknown[];
};
type WebhookItem = {
  post?: {
    summary?: string;
    description?: string;
    requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
    responses?: Record<string, unknown>;
  };
};
type Document = {
  webhooks?: Record<string, WebhookItem>;
  components: { schemas: Record<string, Schema> };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
};

const document = buildOpenApiDocument() as Document;

/** The schema a `$ref` of this document points to (one level). */
function resolved(schema: Schema | undefined): Schema {
  if (!schema?.$ref) return schema ?? {};
  const name = schema.$ref.replace('#/components/schemas/', '');
  return document.components.schemas[name] ?? {};
}

/** The payload (`data`) the `type` of a branch names, through the document's references. */
function dataOf(envelope: Schema): Schema {
  return resolved(resolved(envelope).properties?.data);
}

const isFreeForm = (schema: Schema) => !schema.properties || Object.keys(schema.properties).length === 0;

describe("the OpenAPI document's webhooks (one per emitted event)", () => {
  it('is still a valid OpenAPI 3.1 document with its webhooks', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has a webhook for every emitted event and none for a reserved name', () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...EMITTED_EVENT_NAMES].sort());
    for (const name of RESERVED_EVENT_NAMES) expect(document.webhooks?.[name]).toBeUndefined();
  });

  it.each(EMITTED_EVENT_NAMES.map((name) => [name] as const))(
    '%s: a described POST of the Standard Webhooks envelope whose data is the payload view, with an example',
    (name) => {
      const post = document.webhooks?.[name]?.post;
      expect(post?.summary).toBeTruthy();
      expect(post?.description).toBeTruthy();
      expect(post?.requestBody?.required).toBe(true);
      expect(Object.keys(post?.responses ?? {}).length).toBeGreaterThan(0);

      const envelope = resolved(post?.requestBody?.content?.['application/json']?.schema);
      expect(Object.keys(envelope.properties ?? {}).sort()).toEqual([
        'createdAt',
        'data',
        'environment',
        'id',
        'organizationId',
        'type',
      ]);
      expect([...(envelope.required ?? [])].sort()).toEqual([
        'createdAt',
        'data',
        'environment',
        'id',
        'organizationId',
        'type',
      ]);
      expect(envelope.properties?.type?.const).toBe(name);
      const data = dataOf(envelope);
      expect(isFreeForm(data)).toBe(false);
      const { $schema: _dialect, ...payload } = payloadJsonSchema(name);
      expect(data).toMatchObject(payload);
      expect(data.description).toBeTruthy();

      const example = envelope.examples?.[0] as { type?: string; data?: unknown } | undefined;
      expect(example?.type).toBe(name);
      expect(viewOf(EVENT_DECLARATIONS[name].payload).safeParse(example?.data).success).toBe(true);
    },
  );

  it('types the items of GET /v1/events and GET /v1/events/{id} as a union discriminated by `type` (a const per branch), one branch per emitted event', () => {
    const list = document.paths['/v1/events']!.get!.responses['200']!.content!['application/json']!.schema;
    const one = document.paths['/v1/events/{id}']!.get!.responses['200']!.content!['application/json']!.schema;
    for (const item of [list.properties!.data!.items!, one]) {
      const union = item.allOf?.find((part) => part.oneOf);
      const branches = (union?.oneOf ?? []).map(resolved);
      expect(branches.map((branch) => branch.properties?.type?.const).sort()).toEqual([...EMITTED_EVENT_NAMES].sort());
      for (const branch of branches) expect(isFreeForm(dataOf(branch))).toBe(false);
    }
  });
});
