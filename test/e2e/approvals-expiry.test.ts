import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectStatus,
  ledgerClient,
  type LedgerClient,
  type Organization,
} from '../fixtures/payments-client.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { eventually } from '../fixtures/eventually.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/** 72 hours divided by this scale is one second: sandbox approvals expire after 1 s in this file. */
const TIME_SCALE = '259200';
const PAST_EXPIRY_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('approvals: expiry of pending approvals (TIME_SCALE)', () => {
  let service: TestService;
  let ledger: LedgerClient;
  let org: Organization;
  let approver: { key: string; id: string };
  beforeAll(async () => {
    service = await startTestService({ TIME_SCALE });
    ledger = ledgerClient(service);
    org = await service.createOrganization('Expiry Org');
    approver = await ledger.createKey(org, ['admin', 'payments:read'], 'Approver');
  });
  afterAll(() => service.close());

  async function pending() {
    const payer = await ledger.fundedWallet(org, '100.00');
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');
    await ledger.createPolicy(org.key, { walletId: payer, requireHumanApproval: true });
    return { payer, payee, ...(await ledger.queuedPayment(org.key, { from: payer, to: payee, amount: '25.00' })) };
  }

  it('expires a pending approval after its (scaled) 72 hours through its one-time schedule (no sweep): EXPIRED, payment FAILED, audited as SYSTEM', async () => {
    // Prepare
    const { payer, payee, approvalId, transactionId } = await pending();
    const created = await service.call('GET', `/v1/approvals/${approvalId}`, { key: org.key });
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(1_000);

    // Act: the local scheduler delivers the expiry message to the expiry queue worker at expiresAt.
    await sleep(PAST_EXPIRY_MS);

    // Assess
    await eventually(async () =>
      expect((await service.call('GET', `/v1/approvals/${approvalId}`, { key: org.key })).body.status).toBe('EXPIRED'),
    );
    const approval = await service.call('GET', `/v1/approvals/${approvalId}`, { key: org.key });
    expect(approval.body).toMatchObject({ status: 'EXPIRED', decidedAt: expect.any(String) });
    const payment = await ledger.getPayment(org.key, transactionId);
    expect(payment.body.status).toBe('FAILED');
    const entry = (await ledger.auditOf(org.organizationId)).find(
      (e) => e.action === 'approval.expired' && e.resourceId === approvalId,
    );
    expect(entry).toMatchObject({ actorType: 'SYSTEM' });
    expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
    expect(await ledger.balanceOf(org.key, payee)).toBe('0.00000000');
  });

  it('answers 409 INVALID_STATE to a decision on an expired approval', async () => {
    // Prepare
    const { payer, approvalId } = await pending();
    await sleep(PAST_EXPIRY_MS);
    await service.app.services.approvals.expireDue(AUDIT.approval.expire);

    // Act
    const approved = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: approver.key });
    const rejected = await service.call('POST', `/v1/approvals/${approvalId}/reject`, { key: approver.key });

    // Assess
    expectApiError(approved, 409, 'INVALID_STATE');
    expectApiError(rejected, 409, 'INVALID_STATE');
    expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
  });

  it('keeps the sweep as a safety net: it expires nothing the schedules already expired', async () => {
    // Prepare
    const { approvalId } = await pending();
    await sleep(PAST_EXPIRY_MS);
    await eventually(async () =>
      expect((await service.call('GET', `/v1/approvals/${approvalId}`, { key: org.key })).body.status).toBe('EXPIRED'),
    );

    // Act
    await service.app.services.approvals.expireDue(AUDIT.approval.expire);
    await service.app.services.approvals.expireDue(AUDIT.approval.expire);

    // Assess: one expiry, one audit entry, whoever came first.
    await eventually(async () =>
      expect(
        (await ledger.auditOf(org.organizationId)).filter(
          (e) => e.action === 'approval.expired' && e.resourceId === approvalId,
        ),
      ).toHaveLength(1),
    );
    await sleep(200);
    expect(
      (await ledger.auditOf(org.organizationId)).filter(
        (e) => e.action === 'approval.expired' && e.resourceId === approvalId,
      ),
    ).toHaveLength(1);
  });

  it('leaves approvals decided in time alone and expires nothing twice', async () => {
    // Prepare
    const { approvalId } = await pending();
    expectStatus(await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: approver.key }), 200);
    await sleep(PAST_EXPIRY_MS);

    // Act
    await service.app.services.approvals.expireDue(AUDIT.approval.expire);
    const again = await service.app.services.approvals.expireDue(AUDIT.approval.expire);

    // Assess
    expect(again).toBe(0);
    expect((await service.call('GET', `/v1/approvals/${approvalId}`, { key: org.key })).body.status).toBe('APPROVED');
    const expiredList = await service.call('GET', '/v1/approvals?status=EXPIRED&limit=100', { key: org.key });
    expect(expiredList.body.data.map((a: { id: string }) => a.id)).not.toContain(approvalId);
    await ledger.expectLedgerBalanced();
  });
});
