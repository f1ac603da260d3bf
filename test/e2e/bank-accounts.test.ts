import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, type LogCapture } from '../fixtures/log-capture.js';
import { ENV } from '../../shared/config/env-names.js';
import { agentsApi } from '../fixtures/agents-client.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';
import {
  activateProduction,
  createApiKey,
  expectError,
  expectValidationError,
  type Organization,
} from '../fixtures/organizations.js';

const ACCOUNT_NUMBER = '000123456789';
const LINK = {
  routingNumber: '011000015',
  accountNumber: ACCOUNT_NUMBER,
  accountName: 'Acme Operating',
  accountType: 'CHECKING',
};
const VIEW_FIELDS = [
  'accountName',
  'accountType',
  'createdAt',
  'environment',
  'id',
  'last4',
  'object',
  'routingNumber',
  'status',
  'verifiedAt',
];

/** Bank accounts over HTTP (decisions.md section 4, docs/api.md "Bank accounts"). */
describe('bank accounts: link, verify with micro-deposits, read, delete', () => {
  let service: TestService;
  let org: Organization;
  let other: Organization;
  /** Every response body and every console line of the file: none may hold the account number. */
  const seen: string[] = [];
  let logs: LogCapture | undefined;

  const call = async (
    method: string,
    path: string,
    options: { key?: string; body?: unknown } = {},
  ): Promise<ApiResponse> => {
    const response = await service.call(method, path, options);
    seen.push(response.text);
    return response;
  };
  const link = async (key = org.key, body: Record<string, unknown> = LINK) => {
    const response = await call('POST', '/v1/bank-accounts', { key, body });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; status: string; last4: string };
  };
  const verify = (id: string, amounts: unknown[], key = org.key) =>
    call('POST', `/v1/bank-accounts/${id}/verify`, { key, body: { amounts } });

  beforeAll(async () => {
    service = await startTestService({ [ENV.dataEncryptionKey]: randomBytes(32).toString('hex') });
    org = await service.createOrganization('Bank Org');
    other = await service.createOrganization('Other Bank Org');
    logs = captureLogs(seen);
  });
  afterAll(async () => {
    logs?.restore();
    await service.close();
  });

  it('links an account PENDING_VERIFICATION, showing last4 and never the number', async () => {
    const response = await call('POST', '/v1/bank-accounts', { key: org.key, body: LINK });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      object: 'bank_account',
      status: 'PENDING_VERIFICATION',
      last4: '6789',
      routingNumber: '011000015',
      accountName: 'Acme Operating',
      accountType: 'CHECKING',
      environment: 'SANDBOX',
      verifiedAt: null,
    });
    expect(response.body.id).toMatch(/^ba_[A-Za-z0-9]{24}$/);
    expect(Object.keys(response.body).sort()).toEqual(VIEW_FIELDS);
  });

  it('gets and lists accounts, newest first', async () => {
    const first = await link();
    const second = await link(org.key, { ...LINK, accountType: 'SAVINGS', accountName: 'Acme Reserve' });
    const got = await call('GET', `/v1/bank-accounts/${first.id}`, { key: org.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: first.id, last4: '6789', status: 'PENDING_VERIFICATION' });
    const listed = await call('GET', '/v1/bank-accounts?limit=100', { key: org.key });
    expect(listed.status).toBe(200);
    const ids = listed.body.data.map((account: { id: string }) => account.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    const paged = await call('GET', '/v1/bank-accounts?limit=1', { key: org.key });
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.hasMore).toBe(true);
    const next = await call('GET', `/v1/bank-accounts?limit=1&cursor=${encodeURIComponent(paged.body.cursor)}`, {
      key: org.key,
    });
    expect(next.status, next.text).toBe(200);
    expect(next.body.data[0].id).not.toBe(paged.body.data[0].id);
    expect((await call('GET', '/v1/bank-accounts?limit=100', { key: other.key })).body.data).toEqual([]);
  });

  it('verifies with the sandbox micro-deposits, in any order', async () => {
    const { id } = await link();
    const response = await verify(id, ['0.45', '0.32']);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id, status: 'VERIFIED', verifiedAt: expect.any(String) });
    expectError(await verify(id, ['0.32', '0.45']), 409, 'INVALID_STATE');
  });

  it('counts wrong amounts: 2 then 1 attempts remaining, the third fails the account, then INVALID_STATE', async () => {
    const { id } = await link();
    const remaining = [];
    for (let i = 0; i < 3; i += 1) {
      const error = expectError(await verify(id, ['0.12', '0.34']), 400, 'BANK_ACCOUNT_VERIFICATION_FAILED');
      remaining.push(error.details?.attemptsRemaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    expect((await call('GET', `/v1/bank-accounts/${id}`, { key: org.key })).body.status).toBe('VERIFICATION_FAILED');
    expect(expectError(await verify(id, ['0.32', '0.45']), 409, 'INVALID_STATE').details).toEqual({
      status: 'VERIFICATION_FAILED',
    });
  });

  it('refuses malformed amounts (INVALID_AMOUNT) and a wrong count of them (VALIDATION_ERROR) without counting an attempt', async () => {
    const { id } = await link();
    expect(expectError(await verify(id, ['0.32', 'abc']), 400, 'INVALID_AMOUNT').details).toEqual({
      field: 'amounts.1',
    });
    expectError(await verify(id, ['0.32', '-0.45']), 400, 'INVALID_AMOUNT');
    expectValidationError(await verify(id, ['0.32']), 'amounts');
    expectValidationError(await verify(id, ['0.32', '0.45', '0.01']), 'amounts');
    expectValidationError(
      await call('POST', `/v1/bank-accounts/${id}/verify`, {
        key: org.key,
        body: { amounts: ['0.32', '0.45'], status: 'VERIFIED' },
      }),
      'status',
    );
    expect((await verify(id, ['0.32', '0.45'])).body.status).toBe('VERIFIED');
  });

  it('deletes an account: later reads, verifies and deletes answer 404, and it leaves the list', async () => {
    const { id } = await link();
    const deleted = await call('DELETE', `/v1/bank-accounts/${id}`, { key: org.key });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ id, status: 'DELETED' });
    expectError(await call('GET', `/v1/bank-accounts/${id}`, { key: org.key }), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectError(await verify(id, ['0.32', '0.45']), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectError(await call('DELETE', `/v1/bank-accounts/${id}`, { key: org.key }), 404, 'BANK_ACCOUNT_NOT_FOUND');
    const listed = await call('GET', '/v1/bank-accounts?limit=100', { key: org.key });
    expect(listed.body.data.map((account: { id: string }) => account.id)).not.toContain(id);
  });

  it("answers another organization's or an unknown id as absent", async () => {
    const { id } = await link();
    expectError(await call('GET', `/v1/bank-accounts/${id}`, { key: other.key }), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectError(await verify(id, ['0.32', '0.45'], other.key), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectError(await call('DELETE', `/v1/bank-accounts/${id}`, { key: other.key }), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectError(
      await call('GET', '/v1/bank-accounts/ba_unknown000000000000000000', { key: org.key }),
      404,
      'BANK_ACCOUNT_NOT_FOUND',
    );
    expect((await call('GET', `/v1/bank-accounts/${id}`, { key: org.key })).body.status).toBe('PENDING_VERIFICATION');
  });

  it('refuses agent keys (organization keys link accounts), and read-only keys anything but reads', async () => {
    const { id } = await link();
    const agent = await agentsApi(service).createAgent(org, { name: 'Banker bot' });
    expectError(await call('POST', '/v1/bank-accounts', { key: agent.apiKey, body: LINK }), 403, 'PERMISSION_DENIED');
    expectError(await verify(id, ['0.32', '0.45'], agent.apiKey), 403, 'PERMISSION_DENIED');
    expectError(await call('DELETE', `/v1/bank-accounts/${id}`, { key: agent.apiKey }), 403, 'PERMISSION_DENIED');
    const reader = (await createApiKey(service, org, { permissions: ['payments:read'] })).key;
    expect((await call('GET', `/v1/bank-accounts/${id}`, { key: reader })).status).toBe(200);
    expectError(await call('POST', '/v1/bank-accounts', { key: reader, body: LINK }), 403, 'PERMISSION_DENIED');
    const walletsOnly = (await createApiKey(service, org, { permissions: ['wallets:read'] })).key;
    expectError(await call('GET', '/v1/bank-accounts', { key: walletsOnly }), 403, 'PERMISSION_DENIED');
    expectError(await call('GET', '/v1/bank-accounts', {}), 401, 'UNAUTHORIZED');
  });

  it('names the field of each invalid input, and never echoes the account number', async () => {
    expectValidationError(
      await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, routingNumber: '011000016' } }),
      'routingNumber',
    );
    expectValidationError(
      await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, routingNumber: '12345678' } }),
      'routingNumber',
    );
    for (const accountNumber of ['123', '123456789012345678', `${ACCOUNT_NUMBER}x`, 1234567, 'a'.repeat(5000)]) {
      const error = expectValidationError(
        await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, accountNumber } }),
        'accountNumber',
      );
      expect(JSON.stringify(error)).not.toContain(ACCOUNT_NUMBER);
    }
    expectValidationError(
      await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, accountType: 'BROKERAGE' } }),
      'accountType',
    );
    expectValidationError(
      await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, accountName: '' } }),
      'accountName',
    );
    expectValidationError(
      await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, accountName: 'x'.repeat(201) } }),
      'accountName',
    );
    const { accountNumber: _omitted, ...missing } = LINK;
    expectValidationError(await call('POST', '/v1/bank-accounts', { key: org.key, body: missing }), 'accountNumber');
    // Unknown fields: no mass assignment of status or the environment.
    expectValidationError(
      await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, status: 'VERIFIED' } }),
      'status',
    );
    expectValidationError(
      await call('POST', '/v1/bank-accounts', { key: org.key, body: { ...LINK, environment: 'PRODUCTION' } }),
      'environment',
    );
  });

  it("answers ENVIRONMENT_MISMATCH for the organization's own account in the other environment", async () => {
    const { id } = await link();
    await activateProduction(service, org);
    const live = (
      await createApiKey(service, org, { permissions: ['payments:read', 'payments:write'], environment: 'PRODUCTION' })
    ).key;
    expectError(await call('GET', `/v1/bank-accounts/${id}`, { key: live }), 403, 'ENVIRONMENT_MISMATCH');
    expectError(await verify(id, ['0.32', '0.45'], live), 403, 'ENVIRONMENT_MISMATCH');
    // Production micro-deposits are not the sandbox's: 0.32 and 0.45 do not verify a live account.
    const production = await link(live);
    expect(production).toMatchObject({ status: 'PENDING_VERIFICATION', environment: 'PRODUCTION' });
    expect(
      (await call('GET', '/v1/bank-accounts?limit=100', { key: live })).body.data.map((a: { id: string }) => a.id),
    ).toEqual([production.id]);
  });

  it('writes audit entries without the account number', async () => {
    const { id } = await link();
    await verify(id, ['0.01', '0.02']);
    await verify(id, ['0.32', '0.45']);
    await call('DELETE', `/v1/bank-accounts/${id}`, { key: org.key });
    const entries = await call('GET', `/v1/audit-logs?resource=${id}&limit=100`, { key: org.key });
    expect(entries.status, entries.text).toBe(200);
    expect(entries.body.data.map((entry: { action: string }) => entry.action).sort()).toEqual([
      'bank-account.create',
      'bank-account.delete',
      'bank-account.verification-failed',
      'bank-account.verify',
    ]);
  });

  it('never showed the account number in a response or a log line', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const text of seen) expect(text).not.toContain(ACCOUNT_NUMBER);
  });
});
