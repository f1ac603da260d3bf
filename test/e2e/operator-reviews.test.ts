import { describe, expect, it } from 'vitest';
import { disputeWorld } from '../fixtures/dispute-world.js';
import { expectError, KYB_BODY } from '../fixtures/organizations.js';

/** The operator's review queues (docs/api.md "Operator"): what waits for a KYB decision or a resolution. */
describe('operator review queues', () => {
  const world = disputeWorld(10 * 60 * 1000);

  it('lists an organization whose KYB was submitted until the operator decides it', async () => {
    const { service, payerOrg } = world;
    const ids = async () =>
      (
        (await service.call('GET', '/v1/internal/kyb-reviews', { key: service.adminKey })).body.data as { id: string }[]
      ).map((org) => org.id);
    expect(await ids()).not.toContain(payerOrg.organizationId);
    expect((await service.call('POST', '/v1/activation/kyb', { key: payerOrg.key, body: KYB_BODY })).status).toBe(200);
    const listed = await service.call('GET', '/v1/internal/kyb-reviews', { key: service.adminKey });
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ id: payerOrg.organizationId, legalName: KYB_BODY.legalName, taxId: KYB_BODY.taxId }),
    );
    await service.call('POST', `/v1/internal/organizations/${payerOrg.organizationId}/kyb`, {
      key: service.adminKey,
      body: { status: 'VERIFIED' },
    });
    expect(await ids()).not.toContain(payerOrg.organizationId);
    expectError(await service.call('GET', '/v1/internal/kyb-reviews', { key: payerOrg.key }), 403, 'PERMISSION_DENIED');
  });

  it('lists an OPEN dispute of any organization until it is resolved', async () => {
    const { service, payerOrg } = world;
    const { dispute } = await world.opened('5.00');
    const open = async () =>
      (
        (await service.call('GET', '/v1/internal/dispute-reviews', { key: service.adminKey })).body.data as {
          id: string;
          status: string;
        }[]
      ).filter((d) => d.id === dispute.id);
    expect(await open()).toEqual([expect.objectContaining({ id: dispute.id, status: 'OPEN' })]);
    await world.ended(dispute.id, { outcome: 'CLOSED' });
    expect(await open()).toEqual([]);
    expectError(
      await service.call('GET', '/v1/internal/dispute-reviews', { key: payerOrg.key }),
      403,
      'PERMISSION_DENIED',
    );
  });
});
