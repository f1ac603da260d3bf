import { describe, expect, it } from 'vitest';
import { EVENT_DECLARATIONS } from '../../shared/domain/event-names.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { EMITTED_EVENTS, EVENT_CATALOG, payloadJsonSchema } from '../../shared/events/catalog.js';

type Schema = { description?: string; properties?: Record<string, Schema>; examples?: unknown[] };

describe('the event catalog', () => {
  it('names every event once, with a payload schema for each emitted event', () => {
    const names = EVENT_CATALOG.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    expect(EMITTED_EVENTS.length).toBe(Object.keys(EVENT_DECLARATIONS).length);
  });

  for (const name of EMITTED_EVENTS) {
    it(`${name}: a described payload with a valid example`, () => {
      const schema = payloadJsonSchema(name) as Schema;
      expect(schema.description).toBeTruthy();
      expect(
        Object.entries(schema.properties ?? {})
          .filter(([, p]) => !p.description)
          .map(([k]) => k),
      ).toEqual([]);
      expect(viewOf(EVENT_DECLARATIONS[name].payload).safeParse(schema.examples?.[0]).success).toBe(true);
    });
  }

  it('never carries internal approval fields such as the requesting key', () => {
    for (const name of ['approval.requested', 'approval.approved'] as const) {
      const schema = payloadJsonSchema(name) as Schema;
      expect(Object.keys(schema.properties ?? {})).not.toContain('requestedByKeyId');
      expect(Object.keys(schema.properties ?? {})).not.toContain('organizationId');
    }
  });
});
