import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { ROUTES, routeKeyOf } from '../../shared/http/routes.js';

describe('GET /v1/openapi.json', () => {
  const { service } = setupE2e();

  it('serves the OpenAPI 3.1 document of every route without a key, with the security headers', async () => {
    const response = await service.call('GET', '/v1/openapi.json');

    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const documented = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((m) => routeKeyOf({ method: m.toUpperCase(), path })),
    );
    expect(documented.sort()).toEqual(ROUTES.map(routeKeyOf).sort());
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers another method with 405 and the allowed method, and an unknown path with 404', async () => {
    const wrongMethod = await service.call('DELETE', '/v1/openapi.json');
    const unknown = await service.call('GET', '/v1/openapi.yaml');

    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', details: { allowed: ['GET'] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });
});
