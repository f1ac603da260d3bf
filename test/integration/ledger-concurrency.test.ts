import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

describe('ledger under concurrency (DynamoDB Local)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  async function fundedWallets(amount: string) {
    const org = await service.createOrganization();
    const payer = await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payer' } });
    const payee = await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payee' } });
    await service.call('POST', `/v1/wallets/${payer.body.id}/fund`, { key: org.key, body: { amount } });
    return { org, payer: payer.body.id as string, payee: payee.body.id as string };
  }

  it('lets exactly 10 of 50 concurrent payments of 10.00 from 100.00 post', async () => {
    const { org, payer, payee } = await fundedWallets('100.00');

    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        service.call('POST', '/v1/payments', { key: org.key, body: { from: payer, to: payee, amount: '10.00' } }),
      ),
    );

    const posted = responses.filter((r) => r.status === 200);
    const insufficient = responses.filter((r) => r.status === 402 && r.body.error.code === 'INSUFFICIENT_FUNDS');
    expect(posted).toHaveLength(10);
    expect(insufficient).toHaveLength(40);
    const balance = await service.call('GET', `/v1/wallets/${payer}/balance`, { key: org.key });
    expect(balance.body.balance).toBe('0.00000000');
    const report = await checkLedger(service.table.client, service.table.tableName);
    expect(report.problems).toEqual([]);
  });

  it('posts once for 20 concurrent payments with one idempotency key and answers all 20 alike', async () => {
    const { org, payer, payee } = await fundedWallets('100.00');

    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        service.call('POST', '/v1/payments', {
          key: org.key,
          body: { from: payer, to: payee, amount: 10, idempotencyKey: 'order-42' },
        }),
      ),
    );

    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    const statement = await service.call('GET', `/v1/wallets/${payer}/transactions`, { key: org.key });
    const debits = statement.body.data.filter((e: { type: string }) => e.type === 'PAYMENT');
    expect(debits).toHaveLength(1);
    const balance = await service.call('GET', `/v1/wallets/${payer}/balance`, { key: org.key });
    expect(balance.body.balance).toBe('90.00000000');
  });

  it('lets exactly 10 of 30 concurrent payments of 10.00 through a daily limit of 100.00', async () => {
    const { org, payer, payee } = await fundedWallets('1000.00');
    const policy = await service.call('POST', '/v1/policies', {
      key: org.key,
      body: {
        walletId: payer,
        name: 'Daily cap',
        maxTransactionAmount: '50.00',
        requireHumanApproval: false,
        dailyLimit: '100.00',
      },
    });
    expect(policy.status).toBe(201);

    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        service.call('POST', '/v1/payments', { key: org.key, body: { from: payer, to: payee, amount: '10.00' } }),
      ),
    );

    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    const denied = responses.filter((r) => r.status === 403);
    expect(denied).toHaveLength(20);
    expect(
      denied.every((r) => r.body.error.code === 'POLICY_DENIED' && r.body.error.details.rule === 'dailyLimit'),
    ).toBe(true);
    const balance = await service.call('GET', `/v1/wallets/${payer}/balance`, { key: org.key });
    expect(balance.body.balance).toBe('900.00000000');
  });

  it('reverses a payment once: the second reversal answers 422 REVERSAL_NOT_ALLOWED', async () => {
    const { org, payer, payee } = await fundedWallets('50.00');
    const payment = await service.call('POST', '/v1/payments', {
      key: org.key,
      body: { from: payer, to: payee, amount: '20.00' },
    });

    const [first, second] = await Promise.all([
      service.call('POST', `/v1/payments/${payment.body.id}/reverse`, { key: org.key }),
      service.call('POST', `/v1/payments/${payment.body.id}/reverse`, { key: org.key }),
    ]);

    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 422]);
    const rejected = first.status === 422 ? first : second;
    expect(rejected.body.error.code).toBe('REVERSAL_NOT_ALLOWED');
    const original = await service.call('GET', `/v1/payments/${payment.body.id}`, { key: org.key });
    expect(original.body.status).toBe('REVERSED');
    const balance = await service.call('GET', `/v1/wallets/${payer}/balance`, { key: org.key });
    expect(balance.body.balance).toBe('50.00000000');
    const third = await service.call('POST', `/v1/payments/${payment.body.id}/reverse`, { key: org.key });
    expect(third.status).toBe(422);
    const report = await checkLedger(service.table.client, service.table.tableName);
    expect(report.problems).toEqual([]);
  });
});
