import { describe, expect, it } from 'vitest';
import { startTestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

describe('organization updates', () => {
  it("writes only the fields a step changes, so a late step never undoes the operator's KYB decision", async () => {
    const { app, operatorContext, createOrganization } = await startTestApp();
    const org = await createOrganization();
    await app.services.activation.submitKyb(org.ctx, AUDIT.organization.submitKyb, {
      legalName: 'Acme',
      taxId: '12-3456789',
      address: { line1: '1 Main St', city: 'X', postalCode: '1', country: 'US' },
    });
    // A step that read the organization before the decision (kybStatus PENDING) and writes after it.
    const staleRead = await app.store.getOrganization(org.organizationId);
    expect(staleRead?.kybStatus).toBe('PENDING');
    await app.services.organizations.decideKyb(
      operatorContext,
      AUDIT.organization.decideKyb,
      org.organizationId,
      'VERIFIED',
    );

    await app.store.commit([
      {
        type: 'updateOrganization',
        organizationId: org.organizationId,
        set: { tosAcceptance: { tosVersion: 'v1', ipAddress: '203.0.113.9', acceptedAt: new Date().toISOString() } },
      },
    ]);

    const after = await app.store.getOrganization(org.organizationId);
    expect(after?.kybStatus).toBe('VERIFIED');
    expect(after?.tosAcceptance?.tosVersion).toBe('v1');
  });

  it('refuses a KYB submission that lands after verification, and a second production activation write', async () => {
    const { app, createOrganization } = await startTestApp();
    const org = await createOrganization();
    await app.store.commit([
      { type: 'updateOrganization', organizationId: org.organizationId, set: { kybStatus: 'VERIFIED' } },
    ]);

    const resubmit = app.store.commit([
      {
        type: 'updateOrganization',
        organizationId: org.organizationId,
        set: { kybStatus: 'PENDING' },
        unless: { field: 'kybStatus', equals: 'VERIFIED' },
      },
    ]);
    await expect(resubmit).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await app.store.commit([
      {
        type: 'updateOrganization',
        organizationId: org.organizationId,
        set: { productionActivatedAt: '2026-11-21T00:00:00.000Z' },
        unless: { field: 'productionActivatedAt' },
      },
    ]);
    const again = app.store.commit([
      {
        type: 'updateOrganization',
        organizationId: org.organizationId,
        set: { productionActivatedAt: '2026-11-22T00:00:00.000Z' },
        unless: { field: 'productionActivatedAt' },
      },
    ]);
    await expect(again).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect((await app.store.getOrganization(org.organizationId))?.productionActivatedAt).toBe(
      '2026-11-21T00:00:00.000Z',
    );
  });
});
