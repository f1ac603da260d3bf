import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../shared/domain/errors.js';
import { parseWith } from '../../shared/edge/parse.js';

const createWallet = z
  .object({
    name: z.string().min(1),
    metadata: z.object({ team: z.string() }).strict().optional(),
    limits: z
      .object({ daily: z.object({ amount: z.string() }).strict() })
      .strict()
      .optional(),
    items: z.array(z.object({ amount: z.string() }).strict()).optional(),
  })
  .strict();

function validationErrorOf(act: () => unknown): ApiError {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('VALIDATION_ERROR');
    return error as ApiError;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

describe('parseWith', () => {
  it('returns the parsed value when the input is valid', () => {
    expect(parseWith(createWallet, { name: 'ops' }, '')).toEqual({ name: 'ops' });
  });

  it('names an unknown top-level key in details.field', () => {
    const error = validationErrorOf(() => parseWith(createWallet, { name: 'ops', balance: '1000000' }, ''));
    expect(error.details?.field).toBe('balance');
    expect(error.status).toBe(400);
    expect(error.message).toContain('balance');
  });

  it.each(['balance', 'walletType', 'status', 'environment'])('refuses the mass-assignment field %s', (field) => {
    const error = validationErrorOf(() => parseWith(createWallet, { name: 'ops', [field]: 'x' }, ''));
    expect(error.details?.field).toBe(field);
  });

  it('names an unknown nested key with its dotted path', () => {
    const error = validationErrorOf(() =>
      parseWith(createWallet, { name: 'ops', metadata: { team: 'a', owner: 'b' } }, ''),
    );
    expect(error.details?.field).toBe('metadata.owner');
  });

  it('joins a nested invalid field with dots', () => {
    const error = validationErrorOf(() =>
      parseWith(createWallet, { name: 'ops', limits: { daily: { amount: 5 } } }, ''),
    );
    expect(error.details?.field).toBe('limits.daily.amount');
  });

  it('includes array indexes in the dotted path', () => {
    const error = validationErrorOf(() =>
      parseWith(createWallet, { name: 'ops', items: [{ amount: '1' }, { amount: 2 }] }, ''),
    );
    expect(error.details?.field).toBe('items.1.amount');
  });

  it('names a missing required field', () => {
    const error = validationErrorOf(() => parseWith(createWallet, {}, ''));
    expect(error.details?.field).toBe('name');
  });

  it('puts the prefix in front of the field', () => {
    const query = z.object({ limit: z.string().optional() }).strict();
    const error = validationErrorOf(() => parseWith(query, { limt: '5' }, 'query'));
    expect(error.details?.field).toBe('query.limt');
  });

  it('names the body when the whole value has the wrong type', () => {
    const error = validationErrorOf(() => parseWith(createWallet, 'text', ''));
    expect(error.details?.field).toBe('body');
  });

  it('lists every issue in details.issues', () => {
    const error = validationErrorOf(() => parseWith(createWallet, { name: '', extra: 1 }, ''));
    const issues = error.details?.issues as { field: string; message: string }[];
    expect(issues.map((i) => i.field).sort()).toEqual(['extra', 'name']);
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
  });
});
