import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';

type Organization = Awaited<ReturnType<TestService['createOrganization']>>;

/** What a caller learns from an answer, with the id it asked for replaced by a placeholder. */
const shape = (response: ApiResponse, id: string) => ({
  status: response.status,
  code: response.body?.error?.code,
  message: String(response.body?.error?.message).replaceAll(id, '<id>'),
  details: response.body?.error?.details ?? null,
});

/**
 * Another organization's wallet answers as absent (decisions.md section 1): the answer for a wallet
 * id that exists elsewhere is the answer for one that exists nowhere, message included. The wallet
 * a request acts on (a payment's payer, a transfer's wallet, a filter) was checked without the id
 * asked for, and the message named the wallet only when it was read ("No wallet with id ... was
 * found." against "No such wallet."): an existence oracle for any wallet id of any organization.
 * The 404 now always names the id the request carried.
 */
describe('a wallet of another organization named in a write or a filter', () => {
  let service: TestService;
  let a: Organization;
  let b: Organization;
  const unknown = 'wal_' + 'Z'.repeat(24);
  const wire = { type: 'WIRE', routingNumber: '021000021', accountNumber: '000123456789' };

  beforeAll(async () => {
    // Bank details of a transfer are sealed with the data key.
    service = await startTestService({ [ENV.dataEncryptionKey]: randomBytes(32).toString('hex') });
    a = await service.createOrganization('Owner');
    b = await service.createOrganization('Prober');
  });
  afterAll(() => service?.close());

  const requests: [string, (walletId: string) => [string, string, unknown?]][] = [
    ['a payment from it', (id) => ['POST', '/v1/payments', { from: id, to: 'placeholder', amount: '1.00' }]],
    [
      'an internal transfer from it',
      (id) => ['POST', '/v1/transfers/internal', { fromWalletId: id, toWalletId: 'placeholder', amount: '1.00' }],
    ],
    [
      'a deposit to it',
      (id) => ['POST', '/v1/transfers/deposit', { walletId: id, amount: '25.00', currency: 'USD', source: wire }],
    ],
    [
      'a withdrawal from it',
      (id) => ['POST', '/v1/transfers/withdraw', { walletId: id, amount: '5.00', currency: 'USD', destination: wire }],
    ],
    ['a card on it', (id) => ['POST', '/v1/cards', { walletId: id, type: 'PERSISTENT' }]],
    ['the approvals filtered on it', (id) => ['GET', `/v1/approvals?walletId=${id}`]],
  ];

  it.each(requests)('%s answers exactly as a wallet id that exists nowhere', async (_name, request) => {
    const send = async (walletId: string) => {
      const [method, path, body] = request(walletId);
      const filled =
        body === undefined ? undefined : JSON.parse(JSON.stringify(body).replaceAll('placeholder', b.mainWalletId));
      return service.call(method, path, { key: b.key, ...(filled !== undefined ? { body: filled } : {}) });
    };
    const [existing, absent] = [await send(a.mainWalletId), await send(unknown)];
    expect(existing.status, existing.text).toBe(404);
    expect(shape(existing, a.mainWalletId)).toEqual(shape(absent, unknown));
    expect(existing.body.error.message).toBe(`No wallet with id ${a.mainWalletId} was found.`);
  });
});
