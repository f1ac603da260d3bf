import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { safeParse } from '../../shared/domain/validation.js';

describe('safeParse', () => {
  it("sets zod's English messages before the first parse (zod/mini ships none)", () => {
    const schema = z.object({ name: z.string() });
    // Nothing in this file has set a locale yet: zod/mini alone answers a bare message.
    expect(schema.safeParse({ name: 5 }).error?.issues[0]?.message).toBe('Invalid input');
    const result = safeParse(schema, { name: 5 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Invalid input: expected string, received number');
    expect(safeParse(schema, { name: 'ops' })).toEqual({ success: true, data: { name: 'ops' } });
  });
});
