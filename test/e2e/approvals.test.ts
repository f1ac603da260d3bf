import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectStatus,
  ledgerClient,
  type LedgerClient,
  type Organization,
} from '../fixtures/payments-client.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

/** Payments above this amount wait for approval in these tests. */
const APPROVAL_THRESHOLD = '30.00';

describe('approvals: /v1/approvals', () => {
  let service: TestService;
  let ledger: LedgerClient;
  let org: Organization;
  let otherOrg: Organization;
  /** A second admin key of the organization: the approver (the organization key requests the payments). */
  let approver: { key: string; id: string };
  beforeAll(async () => {
    service = await startTestService();
    ledger = ledgerClient(service);
    org = await service.createOrganization('Approvals Org');
    otherOrg = await service.createOrganization('Other Org');
    approver = await ledger.createKey(org, ['admin', 'payments:read', 'wallets:read'], 'Finance lead');
  });
  afterAll(() => service.close());

  const get = (id: string, key = org.key) => service.call('GET', `/v1/approvals/${id}`, { key });
  const approve = (id: string, key = approver.key, body?: unknown) =>
    service.call('POST', `/v1/approvals/${id}/approve`, { key, ...(body ? { body } : {}) });
  const reject = (id: string, key = approver.key, body?: unknown) =>
    service.call('POST', `/v1/approvals/${id}/reject`, { key, ...(body ? { body } : {}) });

  /** A payment of `amount` held for approval, from a wallet holding `funds`. */
  async function pending(amount = '40.00', funds = '100.00') {
    const payer = await ledger.fundedWallet(org, funds);
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');
    await ledger.createPolicy(org.key, { walletId: payer, approvalThreshold: APPROVAL_THRESHOLD });
    const ids = await ledger.queuedPayment(org.key, { from: payer, to: payee, amount, description: 'GPU hours' });
    return { payer, payee, ...ids };
  }

  describe('read', () => {
    it('returns an approval in the documented shape', async () => {
      // Prepare
      const { payer, payee, approvalId, transactionId } = await pending();

      // Act
      const response = await get(approvalId);

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        id: approvalId,
        status: 'PENDING',
        walletId: payer,
        payment: { from: payer, to: payee, amount: '40.00', description: 'GPU hours' },
        transactionId,
        failureCode: null,
        decidedAt: null,
        decidedBy: null,
      });
      const { createdAt, expiresAt } = response.body;
      // Sandbox durations are scaled down (TIME_SCALE), so only the order is fixed here.
      expect(Date.parse(expiresAt)).toBeGreaterThan(Date.parse(createdAt));
    });

    it('lists approvals filtered by status and wallet', async () => {
      // Prepare
      const first = await pending();
      const second = await pending();
      expectStatus(await reject(second.approvalId), 200);

      // Act
      const pendingOnes = await service.call('GET', '/v1/approvals?status=PENDING&limit=100', { key: org.key });
      const byWallet = await service.call('GET', `/v1/approvals?walletId=${second.payer}`, { key: org.key });

      // Assess
      expectStatus(pendingOnes, 200);
      const pendingIds = pendingOnes.body.data.map((a: { id: string }) => a.id);
      expect(pendingIds).toContain(first.approvalId);
      expect(pendingIds).not.toContain(second.approvalId);
      expect(pendingOnes.body.data.every((a: { status: string }) => a.status === 'PENDING')).toBe(true);
      expect(byWallet.body.data.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([
        [second.approvalId, 'REJECTED'],
      ]);
    });

    it("answers 404 APPROVAL_NOT_FOUND for an unknown approval and another organization's", async () => {
      const { approvalId } = await pending();
      expectApiError(await get('apr_doesnotexist000000000000'), 404, 'APPROVAL_NOT_FOUND');
      expectApiError(await get(approvalId, otherOrg.key), 404, 'APPROVAL_NOT_FOUND');
      expectApiError(await approve(approvalId, otherOrg.key), 404, 'APPROVAL_NOT_FOUND');
    });

    it('answers 400 VALIDATION_ERROR for an unknown status filter and 403 without payments:read', async () => {
      const walletReader = await ledger.createKey(org, ['wallets:read']);
      expectApiError(
        await service.call('GET', '/v1/approvals?status=MAYBE', { key: org.key }),
        400,
        'VALIDATION_ERROR',
      );
      expectApiError(await service.call('GET', '/v1/approvals', { key: walletReader.key }), 403, 'PERMISSION_DENIED');
    });
  });

  describe('approve', () => {
    it('posts the payment at once when another admin key approves', async () => {
      // Prepare
      const { payer, payee, approvalId, transactionId } = await pending();

      // Act
      const response = await approve(approvalId, approver.key, { note: 'budgeted' });

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        id: approvalId,
        status: 'APPROVED',
        decidedBy: approver.id,
        decidedAt: expect.any(String),
        note: 'budgeted',
      });
      const payment = await ledger.getPayment(org.key, transactionId);
      expect(payment.body).toMatchObject({ status: 'POSTED', postedAt: expect.any(String) });
      expect(await ledger.balanceOf(org.key, payer)).toBe('60.00000000');
      expect(await ledger.balanceOf(org.key, payee)).toBe('40.00000000');
      // The approved payment's audit entry is projected from its journal record, visible within 2 s.
      await eventually(async () => {
        const entry = (await ledger.auditOf(org.organizationId)).find(
          (e) => e.action === 'approval.approved' && e.resourceId === approvalId,
        );
        expect(entry).toMatchObject({ actorType: 'API_KEY', actorId: approver.id });
      });
      await ledger.expectLedgerBalanced();
    });

    it('answers 403 PERMISSION_DENIED to the key that requested the payment', async () => {
      const { payer, approvalId } = await pending();
      expectApiError(await approve(approvalId, org.key), 403, 'PERMISSION_DENIED');
      expectApiError(await reject(approvalId, org.key), 403, 'PERMISSION_DENIED');
      expect((await get(approvalId)).body.status).toBe('PENDING');
      expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
    });

    it('answers 403 PERMISSION_DENIED to a key without admin and to an agent key', async () => {
      const { approvalId } = await pending();
      const operatorOfPayments = await ledger.createKey(org, [
        'payments:read',
        'payments:write',
        'wallets:read',
        'wallets:write',
      ]);
      const agent = await ledger.createAgent(org, 'Eager');
      expectApiError(await approve(approvalId, operatorOfPayments.key), 403, 'PERMISSION_DENIED');
      expectApiError(await approve(approvalId, agent.key), 403, 'PERMISSION_DENIED');
      expectApiError(await service.call('POST', `/v1/approvals/${approvalId}/approve`), 401, 'UNAUTHORIZED');
      expect((await get(approvalId)).body.status).toBe('PENDING');
    });

    it('answers 409 INVALID_STATE to a second approval, and the money moved once', async () => {
      // Prepare
      const { payer, approvalId } = await pending();
      expectStatus(await approve(approvalId), 200);

      // Act
      const second = await approve(approvalId);

      // Assess
      expectApiError(second, 409, 'INVALID_STATE');
      expect(await ledger.balanceOf(org.key, payer)).toBe('60.00000000');
      await ledger.expectLedgerBalanced();
    });

    it('ends FAILED with failureCode INSUFFICIENT_FUNDS when the funds are gone by then, moving nothing', async () => {
      // Prepare: 80.00 held for approval, then 60.00 spent directly (at the threshold, so posted)
      const { payer, payee, approvalId, transactionId } = await pending('80.00');
      await ledger.paid(org.key, { from: payer, to: payee, amount: APPROVAL_THRESHOLD });
      await ledger.paid(org.key, { from: payer, to: payee, amount: APPROVAL_THRESHOLD });

      // Act
      const response = await approve(approvalId);

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
      expect((await get(approvalId)).body).toMatchObject({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
      expect((await ledger.getPayment(org.key, transactionId)).body).toMatchObject({
        status: 'FAILED',
        failureCode: 'INSUFFICIENT_FUNDS',
      });
      expect(await ledger.balanceOf(org.key, payer)).toBe('40.00000000');
      expect(await ledger.balanceOf(org.key, payee)).toBe('60.00000000');
      expectApiError(await approve(approvalId), 409, 'INVALID_STATE');
      await ledger.expectLedgerBalanced();
    });

    it('ends FAILED with failureCode WALLET_FROZEN when the paying agent was paused meanwhile', async () => {
      // Prepare
      const agent = await ledger.createAgent(org, 'Paused later');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');
      await ledger.fund(org.key, agent.walletId, '100.00');
      await ledger.createPolicy(org.key, { walletId: agent.walletId, requireHumanApproval: true });
      const { approvalId, transactionId } = await ledger.queuedPayment(agent.key, {
        from: agent.walletId,
        to: payee,
        amount: '10.00',
      });
      expectStatus(await service.call('POST', `/v1/agents/${agent.walletId}/pause`, { key: org.key }), 200);

      // Act
      const response = await approve(approvalId);

      // Assess
      expect(response.body).toMatchObject({ status: 'FAILED', failureCode: 'WALLET_FROZEN' });
      expect((await ledger.getPayment(org.key, transactionId)).body.status).toBe('FAILED');
      expect(await ledger.balanceOf(org.key, agent.walletId)).toBe('100.00000000');
    });

    it('lets only one of two concurrent approvals win', async () => {
      // Prepare
      const { payer, approvalId } = await pending();
      const second = await ledger.createKey(org, ['admin'], 'Second approver');

      // Act
      const responses = await Promise.all([approve(approvalId), approve(approvalId, second.key)]);

      // Assess
      expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await ledger.balanceOf(org.key, payer)).toBe('60.00000000');
      await ledger.expectLedgerBalanced();
    });

    it('answers 400 VALIDATION_ERROR for an unknown body field', async () => {
      const { approvalId } = await pending();
      expectApiError(await approve(approvalId, approver.key, { amount: '1.00' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('reject', () => {
    it('rejects: approval REJECTED, payment REJECTED, nothing moved, audited', async () => {
      // Prepare
      const { payer, approvalId, transactionId } = await pending();

      // Act
      const response = await reject(approvalId, approver.key, { reason: 'not in budget' });

      // Assess
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        id: approvalId,
        status: 'REJECTED',
        decidedBy: approver.id,
        rejectionReason: 'not in budget',
      });
      expect((await ledger.getPayment(org.key, transactionId)).body.status).toBe('REJECTED');
      expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
      const entry = (await ledger.auditOf(org.organizationId)).find(
        (e) => e.action === 'approval.rejected' && e.resourceId === approvalId,
      );
      expect(entry).toMatchObject({ actorType: 'API_KEY', actorId: approver.id });
    });

    it('answers 409 INVALID_STATE to an approval after a rejection, and to a second rejection', async () => {
      // Prepare
      const { payer, approvalId, transactionId } = await pending();
      expectStatus(await reject(approvalId), 200);

      // Act
      const approved = await approve(approvalId);
      const rejectedAgain = await reject(approvalId);

      // Assess
      expectApiError(approved, 409, 'INVALID_STATE');
      expectApiError(rejectedAgain, 409, 'INVALID_STATE');
      expect((await ledger.getPayment(org.key, transactionId)).body.status).toBe('REJECTED');
      expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
    });

    it('answers 403 PERMISSION_DENIED to a key without admin', async () => {
      const { approvalId } = await pending();
      const writer = await ledger.createKey(org, ['payments:write', 'payments:read']);
      expectApiError(await reject(approvalId, writer.key), 403, 'PERMISSION_DENIED');
    });
  });
});
