import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectSecurityHeaders, KYB_BODY } from '../fixtures/organizations.js';
import { expectApiError, expectStatus } from '../fixtures/payments-client.js';

const NUL = '\u0000';
const ESC = '\u001b';

/** Defects 10 (413) and 11 (issue 9): hostile input tried from outside (decisions.md section 9). */
describe('hostile input', () => {
  const { service, ledger, org } = setupE2e({ organizations: { org: 'Hostile' } });

  const json = (method: string, path: string, rawBody: string, key = org.key) =>
    service.call(method, path, { key, rawBody, headers: { 'content-type': 'application/json' } });

  function expectBodyRefused(response: Awaited<ReturnType<typeof json>>) {
    const error = expectApiError(response, 400, 'VALIDATION_ERROR');
    expect(error.details?.field).toBe('body');
  }

  async function queued() {
    const payer = await ledger.fundedWallet(org, '100.00');
    const payee = await ledger.fundedWallet(org, undefined, 'Payee');
    await ledger.createPolicy(org.key, { walletId: payer, requireHumanApproval: true });
    const requester = await ledger.createKey(org, ['payments:write', 'payments:read'], 'Requester');
    const { approvalId } = await ledger.queuedPayment(requester.key, { from: payer, to: payee, amount: '40.00' });
    return { payer, payee, approvalId };
  }

  describe('a body that is not a JSON object executes nothing', () => {
    it('POST /v1/approvals/:id/approve and /reject with null (or an array, a string, a number): 400, the approval stays PENDING, no money moves', async () => {
      const { payer, payee, approvalId } = await queued();

      for (const body of ['null', '[]', '"approve"', '1', 'true']) {
        expectBodyRefused(await json('POST', `/v1/approvals/${approvalId}/approve`, body));
        expectBodyRefused(await json('POST', `/v1/approvals/${approvalId}/reject`, body));
      }

      const approval = await service.call('GET', `/v1/approvals/${approvalId}`, { key: org.key });
      expect(approval.body.status).toBe('PENDING');
      expect(await ledger.balanceOf(org.key, payee)).toBe('0.00000000');
      expect(await ledger.balanceOf(org.key, payer)).toBe('100.00000000');
    });

    it('an absent body is still an empty object where every field is optional: approve without a body posts', async () => {
      const { payee, approvalId } = await queued();

      const approved = await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key });

      expectStatus(approved, 200);
      expect(approved.body.status).toBe('APPROVED');
      expect(await ledger.balanceOf(org.key, payee)).toBe('40.00000000');
    });

    it('POST /v1/payments/:id/reverse with null: 400, the payment stays POSTED', async () => {
      const payer = await ledger.fundedWallet(org, '20.00');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');
      const payment = await ledger.paid(org.key, { from: payer, to: payee, amount: '20.00' });

      expectBodyRefused(await json('POST', `/v1/payments/${payment.id}/reverse`, 'null'));

      expect((await ledger.getPayment(org.key, payment.id)).body.status).toBe('POSTED');
      expect(await ledger.balanceOf(org.key, payer)).toBe('0.00000000');
    });

    it('PATCH /v1/policies/:id with null: 400, the policy is not written', async () => {
      const wallet = await ledger.fundedWallet(org);
      const policy = await ledger.createPolicy(org.key, { walletId: wallet, dailyLimit: '50.00' });

      expectBodyRefused(await json('PATCH', `/v1/policies/${policy.id}`, 'null'));

      const after = await service.call('GET', `/v1/policies/${policy.id}`, { key: org.key });
      expect(after.body).toEqual(policy);
      const audit = await ledger.auditOf(org.organizationId);
      expect(audit.filter((entry) => entry.action === 'policy.update' && entry.resourceId === policy.id)).toEqual([]);
    });
  });

  describe('text fields refuse C0 control characters and DEL', () => {
    it('refuses NUL and ESC in names, descriptions, notes, merchant profiles and KYB fields (400 naming the field)', async () => {
      const wallet = await ledger.fundedWallet(org, '10.00');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');
      const cases: [string, string, Record<string, unknown>, string][] = [
        ['POST', '/v1/wallets', { name: `Ops${NUL}` }, 'name'],
        ['POST', '/v1/wallets', { name: 'Ops', agentName: `a${ESC}[31m` }, 'agentName'],
        ['POST', '/v1/agents', { name: `Bot${ESC}[2J` }, 'name'],
        ['POST', '/v1/api-keys', { name: `k${NUL}`, permissions: ['wallets:read'] }, 'name'],
        [
          'POST',
          '/v1/policies',
          { walletId: wallet, name: `P${NUL}`, maxTransactionAmount: '1', requireHumanApproval: false },
          'name',
        ],
        ['POST', '/v1/payments', { from: wallet, to: payee, amount: '1.00', description: `memo${NUL}` }, 'description'],
        [
          'POST',
          '/v1/payments',
          { from: wallet, to: payee, amount: '1.00', description: `memo${ESC}[0m` },
          'description',
        ],
        [
          'PUT',
          '/v1/merchant-profile',
          { domain: 'ctl.example.com', displayName: `Shop${ESC}`, walletId: payee, closedLoop: true },
          'displayName',
        ],
        ['POST', '/v1/activation/kyb', { ...KYB_BODY, legalName: `Acme${NUL}` }, 'legalName'],
        [
          'POST',
          '/v1/activation/kyb',
          { ...KYB_BODY, address: { ...KYB_BODY.address, line1: `1 Main${NUL}` } },
          'address.line1',
        ],
        ['POST', '/v1/activation/accept-tos', { tosVersion: `v1${ESC}` }, 'tosVersion'],
      ];
      for (const [method, path, body, field] of cases) {
        const response = await service.call(method, path, { key: org.key, body });
        expect(response.status, `${method} ${path} ${field}: ${response.text}`).toBe(400);
        expect(response.body.error.details.field, `${method} ${path}`).toBe(field);
      }
      expect(await ledger.balanceOf(org.key, payee)).toBe('0.00000000');
      const created = await service.call('POST', '/v1/internal/organizations', {
        key: service.adminKey,
        body: { name: `Org${NUL}` },
      });
      expectApiError(created, 400, 'VALIDATION_ERROR');
    });

    it('refuses NUL in approval notes and rejection reasons, and allows tab and newline in notes and descriptions', async () => {
      const { approvalId } = await queued();
      expectApiError(
        await service.call('POST', `/v1/approvals/${approvalId}/approve`, { key: org.key, body: { note: `ok${NUL}` } }),
        400,
        'VALIDATION_ERROR',
      );
      expectApiError(
        await service.call('POST', `/v1/approvals/${approvalId}/reject`, {
          key: org.key,
          body: { reason: `no${ESC}` },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expectStatus(
        await service.call('POST', `/v1/approvals/${approvalId}/reject`, {
          key: org.key,
          body: { reason: 'line one\n\tline two' },
        }),
        200,
      );

      const payer = await ledger.fundedWallet(org, '5.00');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');
      const payment = await ledger.paid(org.key, {
        from: payer,
        to: payee,
        amount: '1.00',
        description: 'March:\n\t- credits',
      });
      expect(payment.description).toBe('March:\n\t- credits');
    });
  });

  describe('every string and array is bounded', () => {
    it('refuses permission lists of 60,000 entries (400) and stores each permission once', async () => {
      const many = Array.from({ length: 60_000 }, () => 'wallets:read');
      expectApiError(
        await service.call('POST', '/v1/api-keys', { key: org.key, body: { name: 'Many', permissions: many } }),
        400,
        'VALIDATION_ERROR',
      );
      expectApiError(
        await service.call('POST', '/v1/agents', { key: org.key, body: { name: 'Many', permissions: many } }),
        400,
        'VALIDATION_ERROR',
      );

      const key = await service.call('POST', '/v1/api-keys', {
        key: org.key,
        body: { name: 'Twice', permissions: ['wallets:read', 'wallets:read', 'payments:read'] },
      });
      const agent = await service.call('POST', '/v1/agents', {
        key: org.key,
        body: { name: 'Twice', permissions: ['wallets:read', 'wallets:read'] },
      });
      expectStatus(key, 201);
      expect(key.body.permissions).toEqual(['wallets:read', 'payments:read']);
      expectStatus(agent, 201);
      expect(agent.body.permissions).toEqual(['wallets:read']);
    });

    it('answers 400, not 500, to a 900 KB amount string in a keyed batch, and moves nothing', async () => {
      const payer = await ledger.fundedWallet(org, '10.00');
      const payee = await ledger.fundedWallet(org, undefined, 'Payee');
      const body = {
        idempotencyKey: 'hostile-batch-1',
        payments: [
          { from: payer, to: payee, amount: '1.00' },
          { from: payer, to: payee, amount: '9'.repeat(900_000) },
        ],
      };

      const response = await service.call('POST', '/v1/payments/batch', { key: org.key, body });

      expect(expectApiError(response, 400, 'VALIDATION_ERROR').details?.field).toBe('payments.1.amount');
      expect(await ledger.balanceOf(org.key, payee)).toBe('0.00000000');
    });

    it('refuses KYB address fields of 300 KB and 900 KB (400, nothing stored)', async () => {
      for (const size of [300_000, 900_000]) {
        for (const field of ['line1', 'line2', 'city', 'state', 'postalCode']) {
          const body = { ...KYB_BODY, address: { ...KYB_BODY.address, [field]: 'x'.repeat(size) } };
          const response = await service.call('POST', '/v1/activation/kyb', { key: org.key, body });
          expect(expectApiError(response, 400, 'VALIDATION_ERROR').details?.field).toBe(`address.${field}`);
        }
      }
      const status = await service.call('GET', '/v1/activation/status', { key: org.key });
      expect(status.body.kybStatus).toBe('NOT_SUBMITTED');
    });
  });

  describe('bodies over 1 MB', () => {
    it('answers 413 PAYLOAD_TOO_LARGE with the envelope, a request id and the security headers (no reset connection)', async () => {
      const response = await json('POST', '/v1/wallets', JSON.stringify({ name: 'x'.repeat(1_100_000) }));

      expectApiError(response, 413, 'PAYLOAD_TOO_LARGE');
      expect(typeof response.body.error.requestId).toBe('string');
      expect(response.headers.get('x-request-id')).toBe(response.body.error.requestId);
      expectSecurityHeaders(response);
    });

    it('answers 413 to a 5 MB body without a key too, and serves the next request on a fresh connection', async () => {
      const response = await service.call('POST', '/v1/payments', {
        rawBody: 'y'.repeat(5_000_000),
        headers: { 'content-type': 'application/json' },
      });

      expectApiError(response, 413, 'PAYLOAD_TOO_LARGE');
      expectSecurityHeaders(response);
      expectStatus(await service.call('GET', '/v1/wallets', { key: org.key }), 200);
    });

    it('still validates a body just under 1 MB (400, not 413)', async () => {
      const response = await json('POST', '/v1/wallets', JSON.stringify({ name: 'x'.repeat(990_000) }));

      expectApiError(response, 400, 'VALIDATION_ERROR');
    });
  });
});
