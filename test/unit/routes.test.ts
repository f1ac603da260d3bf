import { describe, expect, it } from 'vitest';
import {
  findRouteByKey,
  FUNCTION_GROUPS,
  matchRoute,
  routeKeyOf,
  ROUTES,
  routesOfGroup,
} from '../../shared/http/routes.js';
import { fillPath } from '../../shared/operations/paths.js';

describe('matchRoute', () => {
  it('matches a static route', () => {
    const match = matchRoute('POST', '/v1/wallets');
    expect(match.kind).toBe('matched');
    if (match.kind !== 'matched') return;
    expect(match.route.operation).toBe('createWallet');
    expect(match.pathParameters).toEqual({});
  });

  it('matches a route with a path parameter and returns its value', () => {
    const match = matchRoute('GET', '/v1/wallets/wal_abc123');
    expect(match.kind).toBe('matched');
    if (match.kind !== 'matched') return;
    expect(match.route.operation).toBe('getWallet');
    expect(match.pathParameters).toEqual({ id: 'wal_abc123' });
  });

  it('matches the longer route when a parameter is followed by a segment', () => {
    const match = matchRoute('GET', '/v1/wallets/wal_abc/balance');
    expect(match.kind).toBe('matched');
    if (match.kind !== 'matched') return;
    expect(match.route.operation).toBe('getBalance');
    expect(match.pathParameters).toEqual({ id: 'wal_abc' });
  });

  it('decodes a percent-encoded path parameter', () => {
    const match = matchRoute('DELETE', '/v1/api-keys/key%5F1');
    expect(match.kind === 'matched' && match.pathParameters.id).toBe('key_1');
  });

  it('does not throw on a malformed percent-escape in a path parameter', () => {
    // A client-controlled path must never crash routing (it would become a 500 without the envelope).
    expect(() => matchRoute('GET', '/v1/wallets/%E0%A4%A')).not.toThrow();
  });

  it('lists the allowed methods when the path exists under another method', () => {
    const match = matchRoute('PUT', '/v1/wallets');
    expect(match.kind).toBe('method-not-allowed');
    if (match.kind !== 'method-not-allowed') return;
    expect([...match.allowed].sort()).toEqual(['GET', 'POST']);
  });

  it('lists the allowed methods of a parameterized path', () => {
    const match = matchRoute('POST', '/v1/api-keys/key_1');
    expect(match).toEqual({ kind: 'method-not-allowed', allowed: ['DELETE'] });
  });

  it.each([
    ['GET', '/v1/unknown'],
    ['GET', '/wallets'],
    ['GET', '/v2/wallets'],
    ['GET', '/v1/wallets/'],
    ['GET', '/v1/wallets/a/b'],
    ['GET', '/v1/wallets//balance'],
    ['GET', '/'],
  ])('answers not-found for %s %s', (method, path) => {
    expect(matchRoute(method, path)).toEqual({ kind: 'not-found' });
  });
});

describe('route table', () => {
  it('starts every path with /v1/', () => {
    for (const route of ROUTES) expect(route.path).toMatch(/^\/v1\//);
  });

  it('has unique route keys', () => {
    const keys = ROUTES.map(routeKeyOf);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has unique operation names within each group', () => {
    for (const group of FUNCTION_GROUPS) {
      const operations = routesOfGroup(group).map((r) => r.operation);
      expect(new Set(operations).size).toBe(operations.length);
    }
  });

  it('gives every non-public route a permission', () => {
    for (const route of ROUTES.filter((r) => r.access !== 'public')) {
      expect(route.permission, routeKeyOf(route)).toBeTruthy();
    }
  });

  it('reserves operator routes for the service:admin permission under /v1/internal', () => {
    for (const route of ROUTES.filter((r) => r.access === 'operator')) {
      expect(route.permission).toBe('service:admin');
    }
    for (const route of ROUTES.filter((r) => r.path.startsWith('/v1/internal/'))) {
      expect(route.access).toBe('operator');
    }
  });

  it('never grants service:admin on a non-operator route', () => {
    for (const route of ROUTES.filter((r) => r.access !== 'operator')) {
      expect(route.permission).not.toBe('service:admin');
    }
  });

  it('marks exactly the non-GET routes as mutating', () => {
    for (const route of ROUTES) expect(route.mutating).toBe(route.method !== 'GET');
  });

  it('uses API Gateway {param} syntax only', () => {
    for (const route of ROUTES) expect(route.path).not.toMatch(/:[a-z]/i);
  });

  it('finds every route by its key', () => {
    for (const route of ROUTES) expect(findRouteByKey(routeKeyOf(route))).toBe(route);
    expect(findRouteByKey('GET /v1/nothing')).toBeUndefined();
  });

  it('matches every route by its own path', () => {
    for (const route of ROUTES) {
      const path = fillPath(route.path, () => 'x_1');
      const match = matchRoute(route.method, path);
      expect(match.kind === 'matched' && match.route, routeKeyOf(route)).toBe(route);
    }
  });
});

describe('route table: audit coverage', () => {
  it('names the audit action of every mutating route, and of no read', () => {
    for (const route of ROUTES) {
      if (route.mutating) expect(route.audit, routeKeyOf(route)).toBeDefined();
      else expect(route.audit, routeKeyOf(route)).toBeUndefined();
    }
  });
});
