import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';

describe('local service', () => {
  const { service } = setupE2e();

  it('creates an organization whose sandbox key lists its main wallet', async () => {
    const org = await service.createOrganization();
    const list = await service.call('GET', '/v1/wallets', { key: org.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([org.mainWalletId]);
  });
});
