import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import {
  createApiKey,
  DECLINED_CARD,
  expectError,
  expectValidationError,
  GOOD_CARD,
  KYB_BODY,
  type Organization,
} from '../fixtures/organizations.js';

const REQUIREMENTS = ['billingMethodAdded', 'kybVerified', 'tosAccepted'];

describe('production activation', () => {
  const { service } = setupE2e();

  const status = async (org: Organization) => {
    const response = await service.call('GET', '/v1/activation/status', { key: org.key });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const submitKyb = (org: Organization) => service.call('POST', '/v1/activation/kyb', { key: org.key, body: KYB_BODY });
  const verifyKyb = (org: Organization) =>
    service.call('POST', `/v1/internal/organizations/${org.organizationId}/kyb`, {
      key: service.adminKey,
      body: { status: 'VERIFIED' },
    });
  const acceptTos = (org: Organization) =>
    service.call('POST', '/v1/activation/accept-tos', { key: org.key, body: { tosVersion: '2026-01' } });
  const addCard = (org: Organization, number = GOOD_CARD) =>
    service.call('POST', '/v1/activation/billing-method', { key: org.key, body: { type: 'card', number } });
  const activate = (org: Organization) => service.call('POST', '/v1/activation/activate-production', { key: org.key });

  /** Asserts ACTIVATION_INCOMPLETE and returns the missing names from both places, sorted. */
  function missingOf(response: Awaited<ReturnType<typeof activate>>) {
    const error = expectError(response, 400, 'ACTIVATION_INCOMPLETE');
    const topLevel = [...(error.missing as string[])].sort();
    expect([...(error.details?.missing as string[])].sort()).toEqual(topLevel);
    return topLevel;
  }

  it('reports the four booleans, all false for a new organization', async () => {
    const org = await service.createOrganization();
    expect(await status(org)).toMatchObject({
      kybVerified: false,
      tosAccepted: false,
      billingMethodAdded: false,
      productionActivated: false,
    });
  });

  it('answers 400 ACTIVATION_INCOMPLETE listing all three missing requirements in error.missing and error.details.missing', async () => {
    const org = await service.createOrganization();
    expect(missingOf(await activate(org))).toEqual(REQUIREMENTS);
  });

  it('keeps kybVerified false while the submitted KYB waits for the operator', async () => {
    // Prepare
    const org = await service.createOrganization();

    // Act
    const submitted = await submitKyb(org);

    // Assess
    expect(submitted.status, submitted.text).toBe(200);
    expect((await status(org)).kybVerified).toBe(false);
    expect(missingOf(await activate(org))).toEqual(REQUIREMENTS);
  });

  it('lists only the requirement still missing', async () => {
    // Prepare
    const org = await service.createOrganization();
    await submitKyb(org);
    await verifyKyb(org);
    await acceptTos(org);

    // Act
    const response = await activate(org);

    // Assess
    expect(missingOf(response)).toEqual(['billingMethodAdded']);
    expect(await status(org)).toMatchObject({
      kybVerified: true,
      tosAccepted: true,
      billingMethodAdded: false,
      productionActivated: false,
    });
  });

  it('records the terms acceptance with the IP address and time of the call', async () => {
    // Prepare
    const org = await service.createOrganization();
    const before = Date.now();

    // Act
    const response = await acceptTos(org);

    // Assess
    expect(response.status, response.text).toBe(200);
    expect(response.body.tosAccepted).toBe(true);
    const stored = await service.table.store.getOrganization(org.organizationId);
    expect(stored?.tosAcceptance).toMatchObject({
      tosVersion: '2026-01',
      ipAddress: expect.stringMatching(/127\.0\.0\.1|::1/),
    });
    const acceptedAt = Date.parse(stored!.tosAcceptance!.acceptedAt);
    expect(acceptedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(acceptedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(JSON.stringify(response.body)).toContain(stored!.tosAcceptance!.ipAddress);
    expect(JSON.stringify(response.body)).toContain(stored!.tosAcceptance!.acceptedAt);
  });

  it('answers 400 for the declined test card and keeps billingMethodAdded false', async () => {
    const org = await service.createOrganization();
    expectError(await addCard(org, DECLINED_CARD), 400, 'VALIDATION_ERROR');
    expectError(await addCard(org, '4242424242424241'), 400, 'VALIDATION_ERROR');
    expect((await status(org)).billingMethodAdded).toBe(false);
  });

  it('answers 400 VALIDATION_ERROR naming the field for malformed activation bodies', async () => {
    const org = await service.createOrganization();
    expectValidationError(
      await service.call('POST', '/v1/activation/accept-tos', { key: org.key, body: {} }),
      'tosVersion',
    );
    const badCountry = { ...KYB_BODY, address: { ...KYB_BODY.address, country: 'USA' } };
    expectValidationError(
      await service.call('POST', '/v1/activation/kyb', { key: org.key, body: badCountry }),
      'address.country',
    );
    expectValidationError(
      await service.call('POST', '/v1/activation/kyb', { key: org.key, body: { ...KYB_BODY, kybStatus: 'VERIFIED' } }),
      'kybStatus',
    );
    expectValidationError(
      await service.call('POST', '/v1/activation/billing-method', {
        key: org.key,
        body: { type: 'bank', number: GOOD_CARD },
      }),
      'type',
    );
    expect(await status(org)).toMatchObject({ kybVerified: false, tosAccepted: false, billingMethodAdded: false });
  });

  it('answers 403 PERMISSION_DENIED to activation calls with a key lacking admin', async () => {
    const org = await service.createOrganization();
    const limited = await createApiKey(service, org, { permissions: ['wallets:read', 'wallets:write'] });
    expectError(await service.call('GET', '/v1/activation/status', { key: limited.key }), 403, 'PERMISSION_DENIED');
    expectError(
      await service.call('POST', '/v1/activation/accept-tos', { key: limited.key, body: { tosVersion: '2026-01' } }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await service.call('POST', '/v1/activation/activate-production', { key: limited.key }),
      403,
      'PERMISSION_DENIED',
    );
    expect((await status(org)).tosAccepted).toBe(false);
  });

  it('activates production once every requirement is met and answers the same activatedAt again', async () => {
    // Prepare
    const org = await service.createOrganization();
    for (const step of [await submitKyb(org), await verifyKyb(org), await acceptTos(org), await addCard(org)])
      expect(step.status, step.text).toBe(200);
    expect(await status(org)).toMatchObject({
      kybVerified: true,
      tosAccepted: true,
      billingMethodAdded: true,
      productionActivated: false,
    });

    // Act
    const first = await activate(org);
    const second = await activate(org);

    // Assess
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ activated: true, activatedAt: expect.any(String) });
    expect(new Date(first.body.activatedAt).toISOString()).toBe(first.body.activatedAt);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ activated: true, activatedAt: first.body.activatedAt });
    expect((await status(org)).productionActivated).toBe(true);
  });
});
