import { describe, expect, it } from 'vitest';
import { catalogCaller } from '../../shared/dashboard/catalog-call.js';
import { principalOfSession } from '../../shared/dashboard/edge.js';
import { ApiError } from '../../shared/domain/errors.js';
import type { StoredSession } from '../../shared/domain/sign-in/types.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { AnyUserRole } from '../../shared/domain/users/types.js';
import { ACTIVATION } from '../../shared/operations/activation.js';
import type { Operation } from '../../shared/operations/define.js';
import { WALLETS } from '../../shared/operations/wallets.js';

const AT = '2026-11-28T00:00:00.000Z';

function sessionOf(role: AnyUserRole, organizationId: string | null = 'org_1'): StoredSession {
  return {
    id: 'ses_1',
    hash: 'h',
    userId: 'usr_1',
    email: 'a@example.test',
    role,
    organizationId,
    environment: 'SANDBOX',
    csrfToken: 'c',
    createdAt: AT,
    lastSeenAt: AT,
    expiresAt: AT,
    ipAddress: '192.0.2.1',
    userAgent: 'test',
  };
}

function callerFor(role: AnyUserRole, services: unknown) {
  const seen: RequestContext[] = [];
  const wrapped = new Proxy(services as object, {
    get: (target, area) => {
      const service = (target as Record<string | symbol, Record<string, (...args: unknown[]) => unknown>>)[area];
      return new Proxy(service ?? {}, {
        get:
          (inner, method) =>
          (auth: RequestContext, ...rest: unknown[]) => {
            seen.push(auth);
            return inner[method as string]!(auth, ...rest);
          },
      });
    },
  });
  const session = sessionOf(role);
  const call = catalogCaller(
    {
      operations: [...ACTIVATION.operations, ...WALLETS.operations] as Operation[],
      services: () => wrapped,
      cursors: async () => {
        throw new Error('no cursors in this test');
      },
    },
    {
      principal: principalOfSession(session),
      actor: { actorType: 'USER', actorId: session.userId, ipAddress: session.ipAddress },
      requestId: 'req_1',
    },
  );
  return { call, seen };
}

const STATUS = {
  kybVerified: false,
  kybStatus: 'NOT_SUBMITTED',
  tosAccepted: false,
  billingMethodAdded: false,
  productionActivatedAt: null,
};

describe("the dashboard's call(): a catalog operation as the signed-in user", () => {
  it('runs the operation through invoke with the user as principal (keyId usr_) and actor (USER)', async () => {
    const { call, seen } = callerFor('owner', { activation: { status: async () => STATUS } });
    await expect(call('getStatus')).resolves.toMatchObject({ productionActivatedAt: null });
    expect(seen[0]?.principal).toMatchObject({
      kind: 'ORGANIZATION',
      keyId: 'usr_1',
      organizationId: 'org_1',
      environment: 'SANDBOX',
    });
    expect(seen[0]?.actor).toEqual({ actorType: 'USER', actorId: 'usr_1', ipAddress: '192.0.2.1' });
  });

  it("refuses what the role may not do with the operation's 403, before reading the input", async () => {
    const { call, seen } = callerFor('viewer', { activation: { status: async () => STATUS } });
    const refused = await call('getStatus').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('PERMISSION_DENIED');
    const invalid = await call('createWallet', { body: { name: '' } }).catch((error: unknown) => error);
    expect((invalid as ApiError).code).toBe('PERMISSION_DENIED');
    expect(seen).toEqual([]);
  });

  it("validates the input with the operation's own schema, naming the field", async () => {
    const { call } = callerFor('owner', {});
    const refused = (await call('createWallet', { body: { name: 'W', extra: 1 } }).catch(
      (error: unknown) => error,
    )) as ApiError;
    expect(refused.code).toBe('VALIDATION_ERROR');
    expect(refused.message).toContain('extra');
  });

  it('answers an id that can not name a resource as not found', async () => {
    const { call } = callerFor('owner', {});
    const refused = (await call('getWallet', { params: { id: '../x' } }).catch((error: unknown) => error)) as ApiError;
    expect(refused.code).toBe('NOT_FOUND');
  });

  it("gives the operator's people the operator principal (service:admin) and keeps them off organization operations", async () => {
    expect(principalOfSession(sessionOf('operator', null))).toEqual({
      kind: 'OPERATOR',
      keyId: 'usr_1',
      organizationId: null,
      environment: null,
      permissions: ['service:admin'],
      walletId: null,
    });
  });
});
