import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectError, expectSecurityHeaders } from '../fixtures/organizations.js';

const PER_SECOND = 3;

describe('rate limits per key', () => {
  const { service } = setupE2e({ env: { RATE_LIMIT_PER_SECOND: String(PER_SECOND) } });

  it('answers 429 RATE_LIMIT_EXCEEDED with retryAfter, a Retry-After header and the security headers', async () => {
    // Prepare
    const org = await service.createOrganization();

    // Act
    const responses = await Promise.all(
      Array.from({ length: PER_SECOND * 3 }, () => service.call('GET', '/v1/wallets', { key: org.key })),
    );

    // Assess
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    const error = expectError(limited[0]!, 429, 'RATE_LIMIT_EXCEEDED');
    expect(error.details?.retryAfter).toEqual(expect.any(Number));
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expectSecurityHeaders(limited[0]!);
  });

  it("counts one key's requests separately from another's", async () => {
    // Prepare
    const busy = await service.createOrganization('Busy');
    const quiet = await service.createOrganization('Quiet');
    await Promise.all(
      Array.from({ length: PER_SECOND * 3 }, () => service.call('GET', '/v1/wallets', { key: busy.key })),
    );

    // Act
    const response = await service.call('GET', '/v1/wallets', { key: quiet.key });

    // Assess
    expect(response.status).toBe(200);
  });
});
