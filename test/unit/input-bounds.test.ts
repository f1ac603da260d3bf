import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { CATALOG_ENTRIES } from '../../shared/operations/index.js';
import {
  amount,
  idempotencyKey,
  name,
  note,
  paymentDescription,
  recipient,
  text,
  walletId,
} from '../../shared/operations/fields.js';
import { createPolicyBody, updatePolicyBody } from '../../shared/operations/policy-fields.js';

type JsonSchema = {
  type?: string | string[];
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

/**
 * Paths of every string without maxLength (enum and const are bounded by their values), every
 * array without maxItems and every open-ended map without maxProperties, at any depth.
 */
function unbounded(schema: JsonSchema, at: string): string[] {
  const found: string[] = [];
  const types = typesOf(schema);
  const fixed = schema.enum !== undefined || schema.const !== undefined;
  if (types.includes('string') && !fixed && schema.maxLength === undefined)
    found.push(`${at} (string without maxLength)`);
  if (types.includes('array') && schema.maxItems === undefined) found.push(`${at} (array without maxItems)`);
  if (typeof schema.additionalProperties === 'object' && schema.maxProperties === undefined)
    found.push(`${at} (map without maxProperties)`);
  if (schema.$ref !== undefined) found.push(`${at} ($ref: inline schemas only, so that every field is checked)`);
  for (const [key, child] of Object.entries(schema.properties ?? {})) found.push(...unbounded(child, `${at}.${key}`));
  if (typeof schema.additionalProperties === 'object') found.push(...unbounded(schema.additionalProperties, `${at}.*`));
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  for (const child of [...items, ...(schema.prefixItems ?? [])]) found.push(...unbounded(child, `${at}[]`));
  for (const child of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    found.push(...unbounded(child, at));
  for (const [key, child] of Object.entries(schema.$defs ?? {})) found.push(...unbounded(child, `${at}#${key}`));
  return found;
}

const inputSchemaOf = (schema: z.ZodMiniType) =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;

describe('request schemas are bounded (decisions.md section 9)', () => {
  it('finds an unbounded string, array or map (the walker itself)', () => {
    const loose = z.object({
      a: z.string(),
      b: z.array(z.string().check(z.maxLength(3))),
      c: z.record(z.string(), z.number()),
      d: z.optional(z.union([z.string(), z.number()])),
    });
    expect(unbounded(inputSchemaOf(loose), 'body')).toEqual([
      'body.a (string without maxLength)',
      'body.b (array without maxItems)',
      'body.c (map without maxProperties)',
      'body.d (string without maxLength)',
    ]);
  });

  for (const { operation: op } of CATALOG_ENTRIES) {
    for (const [part, schema] of [
      ['body', op.body],
      ['query', op.query],
    ] as const) {
      if (!schema) continue;
      it(`${op.name}: every string and array of the ${part} has a maximum`, () => {
        expect(unbounded(inputSchemaOf(schema), part)).toEqual([]);
      });
    }
  }
});

describe('text fields refuse control characters (decisions.md section 9)', () => {
  const NUL = '\u0000';
  const ESC = '\u001b';
  const DEL = '\u007f';
  const singleLine = {
    name: name('n'),
    walletId: walletId('w'),
    recipient: recipient('r'),
    key: z.optional(idempotencyKey()),
    text: text(50, 't'),
  };
  const multiLine = { note: note('n'), description: paymentDescription('d') };

  for (const [field, schema] of Object.entries(singleLine)) {
    it(`${field}: refuses NUL, ESC, DEL, tab and newline`, () => {
      for (const bad of [NUL, ESC, DEL, '\t', '\n', '\r'])
        expect(schema.safeParse(`wal_a${bad}b`).success, JSON.stringify(bad)).toBe(false);
      expect(schema.safeParse('wal_ab').success).toBe(true);
    });
  }

  for (const [field, schema] of Object.entries(multiLine)) {
    it(`${field}: allows tab and newline, refuses NUL, ESC, DEL and carriage return`, () => {
      for (const bad of [NUL, ESC, DEL, '\r', '\u0008', '\u000b', '\u001f'])
        expect(schema.safeParse(`a${bad}b`).success, JSON.stringify(bad)).toBe(false);
      expect(schema.safeParse('line one\n\tline two').success).toBe(true);
      expect(schema.safeParse('café 日本語 🚀').success).toBe(true);
    });
  }

  it('refuses a lone UTF-16 surrogate (not storable as UTF-8) and accepts paired ones', () => {
    for (const schema of [name('n'), text(50, 't'), paymentDescription('d')]) {
      expect(schema.safeParse('a\ud800b').success).toBe(false);
      expect(schema.safeParse('a\udfffb').success).toBe(false);
      expect(schema.safeParse('a\ud83d\ude80b').success).toBe(true);
    }
  });

  it('bounds amount strings (a 900 KB amount is a validation error, not a 500)', () => {
    expect(amount('a').safeParse('x'.repeat(900_000)).success).toBe(false);
    expect(amount('a').safeParse('1'.repeat(64)).success).toBe(true);
    expect(amount('a').safeParse(12.5).success).toBe(true);
  });
});

describe('merchant domains enter lower-cased (decisions.md section 3)', () => {
  it('lower-cases merchant recipients and payees, keeps wallet ids as they are', () => {
    expect(recipient('r').parse('merchant:EVIL.Example.COM')).toBe('merchant:evil.example.com');
    expect(recipient('r').parse('MERCHANT:Evil.example.com')).toBe('merchant:evil.example.com');
    expect(recipient('r').parse('wal_AbCdEf123')).toBe('wal_AbCdEf123');
  });

  it('lower-cases policy recipient lists on create and update', () => {
    const base = { walletId: 'wal_1', name: 'P', maxTransactionAmount: '1', requireHumanApproval: false };
    const created = createPolicyBody().parse({
      ...base,
      blockedRecipients: ['merchant:EVIL.example.com', 'wal_AbC'],
      allowedRecipients: ['Merchant:Shop.Example.com'],
    });
    expect(created.blockedRecipients).toEqual(['merchant:evil.example.com', 'wal_AbC']);
    expect(created.allowedRecipients).toEqual(['merchant:shop.example.com']);
    expect(updatePolicyBody().parse({ blockedRecipients: ['merchant:EVIL.example.com'] }).blockedRecipients).toEqual([
      'merchant:evil.example.com',
    ]);
  });

  it('refuses recipients that are not ASCII ids or domains (the largest policy stays far below 400 KB)', () => {
    const base = { walletId: 'wal_1', name: 'P', maxTransactionAmount: '1', requireHumanApproval: false };
    expect(createPolicyBody().safeParse({ ...base, blockedRecipients: ['é'.repeat(10)] }).success).toBe(false);
    expect(createPolicyBody().safeParse({ ...base, blockedRecipients: ['x'.repeat(263)] }).success).toBe(false);
    expect(
      createPolicyBody().safeParse({ ...base, blockedRecipients: Array.from({ length: 501 }, (_, i) => `wal_${i}`) })
        .success,
    ).toBe(false);
  });
});
