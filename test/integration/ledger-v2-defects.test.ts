import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.js';
import type { PaymentStore } from '../../shared/domain/payments/ports.js';
import type { Policy } from '../../shared/domain/policies/policy-types.js';
import { newWallet } from '../../shared/domain/wallets/wallet-rules.js';
import { createPaymentStore } from '../../shared/persistence/payment-store.js';
import { TransactionConflictError } from '../../shared/persistence/transact.js';
import { createWalletSnapshotReader } from '../../shared/persistence/wallet-store.js';
import { createContainer } from '../../shared/runtime/container.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { startTestApp } from '../fixtures/service-app.js';
import { createTestTable } from '../fixtures/table.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * Regression tests of the money-path defects of issue 9 (the "Ledger v2" part): each fails on the
 * code before it and passes now.
 */
describe('ledger v2 defects (DynamoDB Local)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  async function fundedWallets(key: string, amount: string) {
    const payer = await service.call('POST', '/v1/wallets', { key, body: { name: 'Payer' } });
    const payee = await service.call('POST', '/v1/wallets', { key, body: { name: 'Payee' } });
    await service.call('POST', `/v1/wallets/${payer.body.id}/fund`, { key, body: { amount } });
    return { payer: payer.body.id as string, payee: payee.body.id as string };
  }
  const balanceOf = async (key: string, walletId: string) =>
    (await service.call('GET', `/v1/wallets/${walletId}/balance`, { key })).body.balance as string;

  it('defect 2: counts the spend made before a period limit existed (pay 400, add dailyLimit 500, pay 200: POLICY_DENIED)', async () => {
    // Prepare
    const org = await service.createOrganization();
    const { payer, payee } = await fundedWallets(org.key, '1000.00');
    expect(
      (await service.call('POST', '/v1/payments', { key: org.key, body: { from: payer, to: payee, amount: '400.00' } }))
        .status,
    ).toBe(200);
    const policy = await service.call('POST', '/v1/policies', {
      key: org.key,
      body: {
        walletId: payer,
        name: 'Daily cap',
        maxTransactionAmount: '1000.00',
        requireHumanApproval: false,
        dailyLimit: '500.00',
      },
    });
    expect(policy.status, policy.text).toBe(201);

    // Act
    const over = await service.call('POST', '/v1/payments', {
      key: org.key,
      body: { from: payer, to: payee, amount: '200.00' },
    });
    const within = await service.call('POST', '/v1/payments', {
      key: org.key,
      body: { from: payer, to: payee, amount: '100.00' },
    });

    // Assess
    expect(over.status, over.text).toBe(403);
    expect(over.body.error).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: 'dailyLimit', limit: '500.00', spent: '400.00', remaining: '100.00' },
    });
    expect(within.status, within.text).toBe(200);
    expect(await balanceOf(org.key, payer)).toBe('500.00000000');
  });

  it('defect 3: refuses a batch item whose own idempotency key is the batch key, and posts nothing', async () => {
    // Prepare
    const org = await service.createOrganization();
    const { payer, payee } = await fundedWallets(org.key, '50.00');

    // Act
    const response = await service.call('POST', '/v1/payments/batch', {
      key: org.key,
      body: {
        idempotencyKey: 'batch-7',
        payments: [
          { from: payer, to: payee, amount: '1.00' },
          { from: payer, to: payee, amount: '2.00', idempotencyKey: 'batch-7' },
        ],
      },
    });
    const balanceAfterRefusal = await balanceOf(org.key, payer);
    const again = await service.call('POST', '/v1/payments/batch', {
      key: org.key,
      body: { idempotencyKey: 'batch-7', payments: [{ from: payer, to: payee, amount: '1.00' }] },
    });

    // Assess
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'payments.1.idempotencyKey' },
    });
    expect(balanceAfterRefusal).toBe('50.00000000');
    // The refused batch claimed nothing: the key is free for a batch.
    expect(again.status, again.text).toBe(200);
    expect(await balanceOf(org.key, payer)).toBe('49.00000000');
  });

  it('defect 3: a retried batch runs again the items whose failure was retryable (CONCURRENT_UPDATE) and replays the others', async () => {
    // Prepare: the second posting of the first run meets a conflict that outlasts the retries.
    const { app, table, createOrganization } = await startTestApp();
    const org = await createOrganization();
    const payer = await app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payer' });
    const payee = await app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payee' });
    await app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, payer.id, '10.00');
    const real = createPaymentStore(table);
    let commits = 0;
    const flaky: PaymentStore = {
      ...real,
      commit: async (changes) => {
        if (changes.some((change) => change.type === 'posting') && ++commits === 2)
          throw new TransactionConflictError(5, new Error('TransactionConflict'));
        return real.commit(changes);
      },
    };
    const payments = createContainer(loadConfig({ TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint }), {
      table,
      stores: { payments: flaky },
    }).services.payments;
    const items = ['1.00', '2.00', '3.00'].map((amount) => ({ from: payer.id, to: payee.id, amount }));

    // Act
    const first = await payments.batch(org.ctx, AUDIT.payment.create, items, 'nightly-42');
    const retry = await payments.batch(org.ctx, AUDIT.payment.create, items, 'nightly-42');

    // Assess
    expect(first.status).toBe(207);
    const results = (
      first.body as {
        error: { details: { results: { status: number; error?: { code: string }; payment?: { id: string } }[] } };
      }
    ).error.details.results;
    expect(results.map((r) => r.status)).toEqual([200, 409, 200]);
    expect(results[1]!.error?.code).toBe('CONCURRENT_UPDATE');
    expect(retry.status).toBe(200);
    const posted = (retry.body as { data: { id: string; amount: string }[] }).data;
    expect(posted.map((p) => p.amount)).toEqual(['1.00', '2.00', '3.00']);
    expect([posted[0]!.id, posted[2]!.id]).toEqual([results[0]!.payment!.id, results[2]!.payment!.id]);
    expect((await app.services.wallets.get(org.ctx, payer.id)).balance.toFixed(2)).toBe('4.00');
  });

  it('defect 4: posts a batch of 100 items with 1,024-character CJK descriptions, answers 200 and replays it, never 500', async () => {
    // Prepare
    const org = await service.createOrganization();
    const { payer, payee } = await fundedWallets(org.key, '100.00');
    const description = '支払明細書'.repeat(205).slice(0, 1024);
    const body = {
      idempotencyKey: 'cjk-batch',
      payments: Array.from({ length: 100 }, () => ({ from: payer, to: payee, amount: '0.01', description })),
    };

    // Act
    const first = await service.call('POST', '/v1/payments/batch', { key: org.key, body });
    const retry = await service.call('POST', '/v1/payments/batch', { key: org.key, body });

    // Assess
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    expect(first.body.data).toHaveLength(100);
    expect(retry.status, retry.text.slice(0, 300)).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(org.key, payer)).toBe('99.00000000');
  });

  it('defect 5: reads a wallet whose policies fill more than one query page (1 MB) of its partition', async () => {
    // Prepare: twelve policies of about 120 KB each in the wallet's partition, before the wallet item.
    const table = await createTestTable();
    const scope = { organizationId: 'org_snapshotpagesXXXXXXXXXXX', environment: 'SANDBOX' as const };
    const at = new Date().toISOString();
    const wallet = newWallet({
      id: 'wal_snapshotpagesXXXXXXXXXX',
      ...scope,
      name: 'Big policies',
      walletType: 'ORG',
      isMain: false,
      createdAt: at,
    });
    await table.store.commit([{ type: 'createWallet', wallet }]);
    for (let i = 0; i < 12; i++) {
      const policy: Policy = {
        id: `pol_snapshotpages${String(i).padStart(11, '0')}`,
        walletId: wallet.id,
        ...scope,
        name: `Large ${i}`,
        maxTransactionAmount: new Big('100'),
        requireHumanApproval: false,
        allowedRecipients: Array.from({ length: 400 }, (_, n) => `merchant:${'shop'.repeat(70)}-${i}-${n}.example.com`),
        status: i % 2 === 0 ? 'ACTIVE' : 'DELETED',
        createdAt: at,
        updatedAt: at,
      };
      await table.store.commit([{ type: 'putPolicy', policy, isNew: true }]);
    }

    // Act
    const snapshot = await createWalletSnapshotReader(table).getWalletSnapshot(wallet.id);

    // Assess
    expect(snapshot?.wallet.id).toBe(wallet.id);
    expect(snapshot?.policies).toHaveLength(12);
  });

  it('defect 8: sandbox funding honours an idempotency key (header or body field): a retried fund call funds once', async () => {
    // Prepare
    const org = await service.createOrganization();
    const wallet = (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Funded once' } })).body
      .id as string;
    const fund = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      service.call('POST', `/v1/wallets/${wallet}/fund`, { key: org.key, body, headers });

    // Act
    const first = await fund({ amount: '25.00' }, { 'Idempotency-Key': 'fund-1' });
    const retryHeader = await fund({ amount: '25.00' }, { 'Idempotency-Key': 'fund-1' });
    const retryBody = await fund({ amount: '25.00', idempotencyKey: 'fund-1' });
    const reuse = await fund({ amount: '30.00', idempotencyKey: 'fund-1' });

    // Assess
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ walletId: wallet, amount: '25.00', newBalance: '25.00000000' });
    for (const retry of [retryHeader, retryBody]) {
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(reuse.status, reuse.text).toBe(409);
    expect(reuse.body.error.code).toBe('IDEMPOTENCY_KEY_REUSE');
    expect(await balanceOf(org.key, wallet)).toBe('25.00000000');
  });
});
