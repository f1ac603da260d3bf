import { describe, expect, it } from 'vitest';
import { resolveIdempotencyKey } from '../../shared/domain/idempotency/idempotency.js';

describe('idempotency keys as a client sends them', () => {
  it('takes the body field or the header, the same when both are given', () => {
    expect(resolveIdempotencyKey('k-1', undefined)).toBe('k-1');
    expect(resolveIdempotencyKey(undefined, 'k-1')).toBe('k-1');
    expect(resolveIdempotencyKey('k-1', 'k-1')).toBe('k-1');
    expect(() => resolveIdempotencyKey('k-1', 'k-2')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it("refuses keys of the card network's namespace, so a client can never take a processor request's slot first", () => {
    expect(() => resolveIdempotencyKey('network:iauth_123', undefined)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: { field: 'idempotencyKey' } }),
    );
    expect(resolveIdempotencyKey('Network:iauth_123', undefined)).toBe('Network:iauth_123');
  });
});
