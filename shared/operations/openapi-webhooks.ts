import * as z from 'zod/mini';
import { EMITTED_EVENT_NAMES, EVENT_DECLARATIONS, type EmittedEventName } from '../domain/event-names.js';
import { eventView } from '../domain/events/event-view.js';
import { viewOf } from '../domain/view-registry.js';
import { DELIVERY_TIMEOUT_MS, RETRY_WINDOW_MS } from '../domain/webhooks/backoff.js';

/**
 * The events' side of the OpenAPI document, generated from the event declarations
 * (each area's `<area>-events.ts`, joined in event-names.ts): one `webhooks` entry per emitted event,
 * a POST of the Standard Webhooks envelope whose `data` is the event's payload view, and the items
 * of the events API typed as a union discriminated by `type`. Reserved names get nothing.
 */

type JsonSchema = Record<string, unknown>;

const SCHEMAS = '#/components/schemas/';
const ENVELOPE_FIELDS = ['id', 'type', 'createdAt', 'environment', 'organizationId', 'data'] as const;
const EVENT_OPERATIONS = ['listEvents', 'getEvent'];
const HOURS_PER_DAY = 24;
const MS_PER_HOUR = 3_600_000;

function jsonSchemaOf(schema: z.ZodMiniType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

const pascal = (name: string) =>
  name
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
const envelopeName = (name: EmittedEventName) => `${pascal(name)}Event`;
const refTo = (component: string) => ({ $ref: `${SCHEMAS}${component}` });

/**
 * An event's own payload view: named after its event (`walletFundedEventView`), shown by no route;
 * the others are public views events share with the API (`transferView`).
 */
export const isOwnPayloadView = (view: string): boolean => view.endsWith('EventView');

/** The schema of an event's payload: its view, resolved by the name its area declares. */
export const payloadViewOf = (name: EmittedEventName): z.ZodMiniType => viewOf(EVENT_DECLARATIONS[name].payload);

/**
 * The OpenAPI component of an event's payload, after its view: a public view several events share
 * is described once (`transferView` -> `TransferEventData`), an event's own view after its event
 * (`walletFundedEventView` -> `WalletFundedEventData`).
 */
export function payloadComponentName(name: EmittedEventName): string {
  return `${pascal(EVENT_DECLARATIONS[name].payload.replace(/(Event)?View$/, ''))}EventData`;
}

function payloadComponents(): { byEvent: Map<EmittedEventName, string>; schemas: Record<string, JsonSchema> } {
  const byEvent = new Map<EmittedEventName, string>();
  const schemas: Record<string, JsonSchema> = {};
  for (const name of EMITTED_EVENT_NAMES) {
    const component = payloadComponentName(name);
    schemas[component] ??= jsonSchemaOf(payloadViewOf(name));
    byEvent.set(name, component);
  }
  return { byEvent, schemas };
}

/** The Standard Webhooks envelope of one event: `{id, type, createdAt, environment, organizationId, data}`. */
function envelopeOf(
  name: EmittedEventName,
  payloadComponent: string,
  payloadSchema: JsonSchema,
  event: { properties: Record<string, JsonSchema>; example: JsonSchema },
): JsonSchema {
  const { properties: eventFields, example } = event;
  return {
    type: 'object',
    description: `\`${name}\`: ${EVENT_DECLARATIONS[name].occasion}`,
    properties: {
      ...Object.fromEntries(
        ENVELOPE_FIELDS.filter((field) => field !== 'type' && field !== 'data').map((field) => [
          field,
          eventFields[field],
        ]),
      ),
      type: { type: 'string', const: name, description: `Always "${name}".` },
      data: { ...refTo(payloadComponent), description: String(payloadSchema.description ?? 'The payload.') },
    },
    required: [...ENVELOPE_FIELDS],
    examples: [
      {
        id: example.id,
        type: name,
        createdAt: example.createdAt,
        environment: example.environment,
        organizationId: example.organizationId,
        data: (payloadSchema.examples as unknown[] | undefined)?.[0],
      },
    ],
  };
}

/** The Standard Webhooks headers of every delivery, declared once under `components.parameters`. */
const SIGNATURE_HEADERS: Record<string, JsonSchema> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_...`): the same on every attempt. De-duplicate on it.',
    schema: { type: 'string' },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in seconds since the epoch. Refuse one too far from your clock.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the webhook\'s secret (Standard Webhooks; the `standardwebhooks` and `svix` packages verify it).',
    schema: { type: 'string' },
  },
};

function webhookOf(name: EmittedEventName, envelope: string, payloadSchema: JsonSchema): JsonSchema {
  const days = RETRY_WINDOW_MS / MS_PER_HOUR / HOURS_PER_DAY;
  return {
    post: {
      operationId: `${envelope.charAt(0).toLowerCase()}${envelope.slice(1)}`,
      summary: name,
      description: `${EVENT_DECLARATIONS[name].occasion} \`data\`: ${String(payloadSchema.description ?? '')}`.trim(),
      tags: ['events'],
      security: [],
      parameters: Object.keys(SIGNATURE_HEADERS).map((header) => ({ $ref: `#/components/parameters/${header}` })),
      requestBody: {
        required: true,
        description: 'The Standard Webhooks envelope of the event.',
        content: { 'application/json': { schema: refTo(envelope) } },
      },
      responses: {
        '2XX': {
          description: `Any 2xx acknowledges the delivery. Anything else, or no answer within ${String(DELIVERY_TIMEOUT_MS / 1000)} s, is retried with exponential backoff for ${String(days)} days (scaled in the sandbox), then dead-lettered.`,
        },
      },
    },
  };
}

/**
 * The item of `GET /v1/events` and `GET /v1/events/{id}`: the event view, and one of the envelopes.
 * Each envelope's `type` is a `const`, so the `oneOf` is a union discriminated by `type` for any
 * JSON Schema validator and typed client. No `discriminator` keyword: Ajv refuses its `mapping`
 * (which the event names would need) and Prism does not support it; the `const` says the same.
 */
function typedEventItem(item: JsonSchema, envelopes: Map<EmittedEventName, string>): JsonSchema {
  return { allOf: [item, { oneOf: [...envelopes.values()].map(refTo) }] };
}

type Responses = Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
type Document = JsonSchema & {
  paths: Record<string, Record<string, { operationId?: string; responses?: Responses }>>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, JsonSchema> };
};

/** The document with the events' webhooks, their schemas, and the events API's items typed by `type`. */
export function withEventSchemas<D extends JsonSchema>(input: D): D {
  const document = input as unknown as Document;
  const { byEvent, schemas } = payloadComponents();
  const eventSchema = jsonSchemaOf(eventView) as { properties: Record<string, JsonSchema>; examples: JsonSchema[] };
  const event = { properties: eventSchema.properties, example: eventSchema.examples[0]! };
  const envelopes = new Map<EmittedEventName, string>();
  const webhooks: Record<string, JsonSchema> = {};
  for (const name of EMITTED_EVENT_NAMES) {
    const payloadComponent = byEvent.get(name)!;
    const envelope = envelopeName(name);
    schemas[envelope] = envelopeOf(name, payloadComponent, schemas[payloadComponent]!, event);
    envelopes.set(name, envelope);
    webhooks[name] = webhookOf(name, envelope, schemas[payloadComponent]!);
  }
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      if (!EVENT_OPERATIONS.includes(operation.operationId ?? '')) continue;
      const body = operation.responses?.['200']?.content?.['application/json'];
      if (!body?.schema) continue;
      const page = body.schema as { properties?: { data?: { items?: JsonSchema } } };
      if (page.properties?.data?.items)
        page.properties.data.items = typedEventItem(page.properties.data.items, envelopes);
      else body.schema = typedEventItem(body.schema, envelopes);
    }
  }
  const components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...schemas },
    parameters: { ...document.components?.parameters, ...SIGNATURE_HEADERS },
  };
  return { ...input, webhooks, components };
}
