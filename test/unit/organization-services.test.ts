import { describe, expect, it } from 'vitest';
import { createActivationService } from '../../shared/domain/activation/activation-service.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { newId } from '../../shared/domain/ids.js';
import { createOrganizationService } from '../../shared/domain/organizations/organization-service.js';
import type { CoreDeps, KeyKind } from '../../shared/domain/ports.js';
import { OPERATOR_PERMISSION, ORGANIZATION_PERMISSIONS, type RequestContext } from '../../shared/domain/tenancy.js';
import { createMemoryOrganizationStore } from '../fakes/memory-organization-store.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

const VALID_CARD = '4242424242424242';

function world(options: { kybAutoApprove?: boolean } = {}) {
  const memory = createMemoryOrganizationStore();
  const clock = fixedClock(new Date('2026-11-22T10:00:00.000Z'));
  const issued: string[] = [];
  const deps: CoreDeps = {
    clock,
    ids: newId,
    issueKey: (kind: KeyKind) => {
      const raw = `svc_${kind === 'SANDBOX' ? 'test' : 'live'}_${newId('apiKey')}`;
      issued.push(raw);
      return { raw, hash: `sha256-${issued.length}`, prefix: raw.slice(0, 12), last4: raw.slice(-4) };
    },
    limits: { walletsPerEnvironment: 100, sandboxFundingMax: '10000.00' },
    timeScale: 1,
  };
  const organizations = createOrganizationService({ ...deps, store: memory.store });
  const activation = createActivationService(
    { ...deps, store: memory.store },
    { kybAutoApprove: options.kybAutoApprove ?? false },
  );
  const operator: RequestContext = {
    principal: {
      kind: 'OPERATOR',
      keyId: 'key_operator',
      organizationId: null,
      environment: null,
      permissions: [OPERATOR_PERMISSION],
      walletId: null,
    },
    actor: { actorType: 'API_KEY', actorId: 'key_operator', ipAddress: '203.0.113.1' },
    requestId: 'req-operator',
  };
  const adminOf = (organizationId: string): RequestContext => ({
    principal: {
      kind: 'ORGANIZATION',
      keyId: 'key_admin',
      organizationId,
      environment: 'SANDBOX',
      permissions: [...ORGANIZATION_PERMISSIONS],
      walletId: null,
    },
    actor: { actorType: 'API_KEY', actorId: 'key_admin', ipAddress: '198.51.100.7' },
    requestId: 'req-admin',
  });
  return { memory, clock, issued, organizations, activation, operator, adminOf };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('organization service (in-memory store)', () => {
  it('creates an organization with its sandbox environment, main wallet, an all-permission key shown once, an audit entry and an event', async () => {
    const w = world();
    const created = await w.organizations.create(w.operator, AUDIT.organization.create, { name: 'Acme' });

    expect(w.memory.organizations.get(created.organization.id)).toMatchObject({
      name: 'Acme',
      kybStatus: 'NOT_SUBMITTED',
    });
    expect(w.memory.environments.get(`${created.organization.id}#SANDBOX`)).toEqual({
      mainWalletId: created.mainWalletId,
      walletCount: 1,
    });
    expect(w.memory.wallets.get(created.mainWalletId)).toMatchObject({
      isMain: true,
      environment: 'SANDBOX',
      walletType: 'ORG',
    });
    const key = w.memory.apiKeys.get(created.sandboxKeyId)!;
    expect(key.permissions).toEqual([...ORGANIZATION_PERMISSIONS]);
    expect(created.sandboxKey).toBe(w.issued[0]);
    expect(JSON.stringify(key)).not.toContain(created.sandboxKey);
    expect(w.memory.audit.map((e) => [e.action, e.resourceId, e.actorId])).toEqual([
      ['organization.create', created.organization.id, 'key_operator'],
    ]);
    expect(w.memory.events.map((e) => [e.type, e.data])).toEqual([
      ['organization.created', { id: created.organization.id, name: 'Acme' }],
    ]);
  });

  it('answers ORGANIZATION_NOT_FOUND for a KYB decision on an unknown organization and writes nothing', async () => {
    const w = world();
    const error = await rejection(
      w.organizations.decideKyb(w.operator, AUDIT.organization.decideKyb, 'org_unknown', 'VERIFIED'),
    );
    expect(error.code).toBe('ORGANIZATION_NOT_FOUND');
    expect(w.memory.audit).toEqual([]);
  });
});

describe('activation service (in-memory store)', () => {
  it('lists what is missing and refuses to activate until every requirement is met, writing nothing', async () => {
    const w = world();
    const { organization } = await w.organizations.create(w.operator, AUDIT.organization.create, { name: 'Acme' });
    const admin = w.adminOf(organization.id);
    const auditBefore = w.memory.audit.length;

    const error = await rejection(w.activation.activateProduction(admin, AUDIT.organization.activateProduction));

    expect(error.code).toBe('ACTIVATION_INCOMPLETE');
    expect(error.details).toEqual({ missing: ['kybVerified', 'tosAccepted', 'billingMethodAdded'] });
    expect(error.extra).toEqual({ missing: ['kybVerified', 'tosAccepted', 'billingMethodAdded'] });
    expect(w.memory.environments.has(`${organization.id}#PRODUCTION`)).toBe(false);
    expect(w.memory.audit).toHaveLength(auditBefore);
  });

  it('activates once every step is done, creating the production main wallet once; activating again answers the same time', async () => {
    const w = world({ kybAutoApprove: true });
    const { organization } = await w.organizations.create(w.operator, AUDIT.organization.create, { name: 'Acme' });
    const admin = w.adminOf(organization.id);
    await w.activation.acceptTos(admin, AUDIT.organization.acceptTos, { tosVersion: '2026-01' });
    await w.activation.submitKyb(admin, AUDIT.organization.submitKyb, {
      legalName: 'Acme Inc.',
      taxId: '12-3456789',
      address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
    });
    await w.activation.addBillingMethod(admin, AUDIT.organization.addBillingMethod, {
      type: 'card',
      number: VALID_CARD,
    });

    const first = await w.activation.activateProduction(admin, AUDIT.organization.activateProduction);
    w.clock.advance(60_000);
    const again = await w.activation.activateProduction(admin, AUDIT.organization.activateProduction);

    expect(first).toEqual({ activated: true, activatedAt: '2026-11-22T10:00:00.000Z' });
    expect(again).toEqual(first);
    const production = [...w.memory.wallets.values()].filter((wallet) => wallet.environment === 'PRODUCTION');
    expect(production).toHaveLength(1);
    expect(w.memory.audit.map((e) => e.action)).toEqual([
      'organization.create',
      'organization.tos.accept',
      'organization.kyb.submit',
      'organization.billing-method.add',
      'organization.production.activate',
    ]);
  });

  it('keeps only the last 4 digits of a billing card and refuses the sandbox decline card', async () => {
    const w = world();
    const { organization } = await w.organizations.create(w.operator, AUDIT.organization.create, { name: 'Acme' });
    const admin = w.adminOf(organization.id);

    await w.activation.addBillingMethod(admin, AUDIT.organization.addBillingMethod, {
      type: 'card',
      number: VALID_CARD,
    });
    const declined = await rejection(
      w.activation.addBillingMethod(admin, AUDIT.organization.addBillingMethod, {
        type: 'card',
        number: '4000000000000002',
      }),
    );

    expect(w.memory.organizations.get(organization.id)?.billingMethod).toEqual({
      type: 'card',
      last4: '4242',
      addedAt: '2026-11-22T10:00:00.000Z',
    });
    expect(JSON.stringify([...w.memory.organizations.values(), ...w.memory.audit])).not.toContain(VALID_CARD);
    expect(declined.code).toBe('VALIDATION_ERROR');
  });

  it('refuses a KYB resubmission once verified (the state table), leaving the verified status', async () => {
    const w = world({ kybAutoApprove: true });
    const { organization } = await w.organizations.create(w.operator, AUDIT.organization.create, { name: 'Acme' });
    const admin = w.adminOf(organization.id);
    const kyb = {
      legalName: 'Acme Inc.',
      taxId: '12-3456789',
      address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
    };
    await w.activation.submitKyb(admin, AUDIT.organization.submitKyb, kyb);

    const again = await rejection(w.activation.submitKyb(admin, AUDIT.organization.submitKyb, kyb));

    expect(again.code).toBe('INVALID_STATE');
    expect(w.memory.organizations.get(organization.id)?.kybStatus).toBe('VERIFIED');
  });
});
