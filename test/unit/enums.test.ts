import { describe, expect, it } from 'vitest';
import { everyOf } from '../../shared/domain/enums.js';

type Status = 'ACTIVE' | 'FROZEN' | 'CLOSED';

describe('everyOf', () => {
  it('keeps a list that names every member of the union exactly, as its tuple', () => {
    const all: readonly ['ACTIVE', 'FROZEN', 'CLOSED'] = everyOf<Status>()(['ACTIVE', 'FROZEN', 'CLOSED']);
    expect(all).toEqual(['ACTIVE', 'FROZEN', 'CLOSED']);
  });

  it('does not compile for a member left out, nor for an entry that is no member (checked by npm run typecheck)', () => {
    // @ts-expect-error CLOSED is missing
    const missing = everyOf<Status>()(['ACTIVE', 'FROZEN']);
    // @ts-expect-error DELETED is no status
    const extra = everyOf<Status>()(['ACTIVE', 'FROZEN', 'CLOSED', 'DELETED']);
    expect([missing.length, extra.length]).toEqual([2, 4]);
  });
});
