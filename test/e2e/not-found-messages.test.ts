import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { ROUTES, routeKeyOf } from '../../shared/http/routes.js';
import { fillPath } from '../../shared/operations/paths.js';

/** An id of the right shape that names nothing. */
const UNKNOWN_ID = 'zz_unknownId0001';

/** Every route that takes an id in its path, for an organization key (operator routes need the operator's key). */
const ROUTES_WITH_IDS = ROUTES.filter(
  (route) => route.path.includes('{') && route.access !== 'operator' && route.access !== 'public',
);

describe('not-found answers say what was not found', () => {
  const { service, org } = setupE2e({ organizations: { org: 'Lookups' } });

  it.each(ROUTES_WITH_IDS.map((route) => [routeKeyOf(route), route] as const))(
    '%s with an unknown id: the message names the resource and the id, never the code',
    async (_name, route) => {
      // Act
      const path = fillPath(route.path, () => UNKNOWN_ID);
      const response = await service.call(route.method, path, {
        key: org.key,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
      });

      // Assess
      expect(response.body?.error, response.text).toBeDefined();
      const { code, message } = response.body.error as { code: string; message: string };
      expect(message).not.toBe(code);
      if (route.method === 'GET') expect(response.status, response.text).toBe(404);
      if (response.status === 404 && code !== 'NOT_FOUND') expect(message, code).toContain(UNKNOWN_ID);
    },
  );
});
