import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('local service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it('creates an organization whose sandbox key lists its main wallet', async () => {
    const org = await service.createOrganization();
    const list = await service.call('GET', '/v1/wallets', { key: org.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([org.mainWalletId]);
  });
});
