import Big from 'big.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/service-app.js';
import { auditEntries, exactNumber, sumOf, systemAccountEntries, walletEntries } from '../fixtures/table-reads.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

const CONCURRENT_FUNDINGS = 20;

describe('wallet funding against DynamoDB Local', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });

  it('sums 20 concurrent fund calls on one wallet exactly', async () => {
    // Prepare
    const org = await t.createOrganization();
    const walletId = org.mainWalletId;

    // Act
    const results = await Promise.allSettled(
      Array.from({ length: CONCURRENT_FUNDINGS }, () =>
        t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, walletId, '12.34'),
      ),
    );

    // Assess
    const failures = results
      .filter((r) => r.status === 'rejected')
      .map((r) => String((r as PromiseRejectedResult).reason));
    expect(failures).toEqual([]);
    const wallet = await t.app.services.wallets.get(org.ctx, walletId);
    expect(wallet.balance.toFixed(8)).toBe('246.80000000');
  });

  it('records one ledger entry per funding whose sum equals the wallet balance', async () => {
    // Prepare
    const org = await t.createOrganization();

    // Act
    await Promise.all(
      Array.from({ length: CONCURRENT_FUNDINGS }, () =>
        t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '12.34'),
      ),
    );

    // Assess
    const entries = await walletEntries(t.table, org.mainWalletId);
    expect(entries).toHaveLength(CONCURRENT_FUNDINGS);
    expect(entries.every((entry) => exactNumber(entry.amount).eq('12.34'))).toBe(true);
    expect(sumOf(entries).toFixed(8)).toBe('246.80000000');
    const wallet = await t.app.store.getWallet(org.mainWalletId);
    expect(sumOf(entries).eq(wallet!.balance)).toBe(true);
  });

  it('mirrors every wallet entry in acc_SANDBOX_FUNDING so the environment sums to zero', async () => {
    // Prepare
    const org = await t.createOrganization();
    const before = sumOf(await systemAccountEntries(t.table, 'SANDBOX', 'acc_SANDBOX_FUNDING'));

    // Act
    const funded = await Promise.all(
      Array.from({ length: CONCURRENT_FUNDINGS }, () =>
        t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '12.34'),
      ),
    );

    // Assess
    const walletSide = await walletEntries(t.table, org.mainWalletId);
    const fundingSide = (await systemAccountEntries(t.table, 'SANDBOX', 'acc_SANDBOX_FUNDING')).filter((entry) =>
      funded.some((f) => f.transactionId === entry.transactionId),
    );
    expect(fundingSide).toHaveLength(CONCURRENT_FUNDINGS);
    expect(fundingSide.every((entry) => exactNumber(entry.amount).eq('-12.34'))).toBe(true);
    const byTransaction = new Map(walletSide.map((entry) => [entry.transactionId, exactNumber(entry.amount)]));
    for (const entry of fundingSide)
      expect(byTransaction.get(entry.transactionId)?.plus(exactNumber(entry.amount)).eq(0)).toBe(true);
    expect(sumOf(walletSide).plus(sumOf(fundingSide)).eq(0)).toBe(true);
    const after = sumOf(await systemAccountEntries(t.table, 'SANDBOX', 'acc_SANDBOX_FUNDING'));
    expect(before.minus(after).toFixed(2)).toBe('246.80');
  });

  it('keeps the sandbox ledger balanced across several organizations and wallets', async () => {
    // Prepare
    const orgA = await t.createOrganization('A');
    const orgB = await t.createOrganization('B');
    const extra = await t.app.services.wallets.create(orgB.ctx, AUDIT.wallet.create, { name: 'Ops' });

    // Act
    await Promise.all([
      t.app.services.wallets.fund(orgA.ctx, AUDIT.wallet.fund, orgA.mainWalletId, 0.1),
      t.app.services.wallets.fund(orgA.ctx, AUDIT.wallet.fund, orgA.mainWalletId, '0.20'),
      t.app.services.wallets.fund(orgB.ctx, AUDIT.wallet.fund, extra.id, '9999.99'),
      t.app.services.wallets.fund(orgB.ctx, AUDIT.wallet.fund, orgB.mainWalletId, 7),
    ]);

    // Assess
    const orgWallets = [orgA.mainWalletId, orgB.mainWalletId, extra.id];
    const walletTotals = await Promise.all(orgWallets.map(async (id) => sumOf(await walletEntries(t.table, id))));
    expect(walletTotals.map((total) => total.toFixed(2))).toEqual(['0.30', '7.00', '9999.99']);
    const allWallets = [
      ...(await t.app.store.listWallets(orgA.organizationId, 'SANDBOX', { limit: 100 })).items,
      ...(await t.app.store.listWallets(orgB.organizationId, 'SANDBOX', { limit: 100 })).items,
    ];
    const balances = allWallets.reduce((sum, w) => sum.plus(w.balance), new Big(0));
    const funding = (await systemAccountEntries(t.table, 'SANDBOX', 'acc_SANDBOX_FUNDING')).filter(
      (e) => e.organizationId === orgA.organizationId || e.organizationId === orgB.organizationId,
    );
    expect(balances.plus(sumOf(funding)).eq(0)).toBe(true);
  });

  it('writes one wallet.fund audit entry per funding, projected from its journal record', async () => {
    // Prepare
    const org = await t.createOrganization();

    // Act
    const funded = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '1.00'),
      ),
    );
    await t.projectJournal();

    // Assess
    const fundAudits = (await auditEntries(t.table, org.organizationId)).filter(
      (entry) => entry.action === 'wallet.fund',
    );
    expect(fundAudits).toHaveLength(5);
    const auditedTransactions = fundAudits
      .map((entry) => (entry.metadata as { transactionId: string }).transactionId)
      .sort();
    expect(auditedTransactions).toEqual(funded.map((f) => f.transactionId).sort());
  });

  it('writes neither ledger entries nor audit entries for a rejected amount', async () => {
    // Prepare
    const org = await t.createOrganization();
    const auditBefore = (await auditEntries(t.table, org.organizationId)).length;

    // Act
    const attempts = await Promise.allSettled(
      ['0', '-5', '1.005', '10000.01'].map((amount) =>
        t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, amount),
      ),
    );

    // Assess
    await t.projectJournal();
    expect(attempts.map((a) => (a.status === 'rejected' ? (a.reason as { code?: string }).code : 'fulfilled'))).toEqual(
      Array(4).fill('INVALID_AMOUNT'),
    );
    expect(await walletEntries(t.table, org.mainWalletId)).toEqual([]);
    expect(await auditEntries(t.table, org.organizationId)).toHaveLength(auditBefore);
  });
});
