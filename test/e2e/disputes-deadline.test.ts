import { describe, expect, it } from 'vitest';
import { core } from '../../shared/runtime/core.js';
import { disputeService } from '../../shared/runtime/services/disputes.js';
import { disputeWorld } from '../fixtures/dispute-world.js';
import { eventually } from '../fixtures/eventually.js';
import { expectApiError, expectOk } from '../fixtures/payments-client.js';

/**
 * The response deadline (issue 23), on a service of its own where 7 days last 8 seconds: the deadline
 * workflow lapses an unanswered dispute, a response before it wins, a late one finds it lapsed, and
 * everything racing at respondBy ends one way. (A file's local service is one per process: the
 * transitions driven by hand run on a long window in disputes.test.ts.)
 */
const DEADLINE_WINDOW_MS = 8_000;

describe('disputes: the response deadline', () => {
  const { payerOrg, payeeOrg, ledger, open, respond, resolve, getDispute, expectMoney, opened, ended, pastDeadline } =
    disputeWorld(DEADLINE_WINDOW_MS);

  it('the deadline workflow resolves an unanswered dispute RESOLVED_AGENT after the scaled wait, with no call: money to the initiator', async () => {
    const { payer, payee, dispute } = await opened('30.00');
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '20.00' });

    const lapsed = await eventually(async () => {
      const read = expectOk(await getDispute(payerOrg.key, dispute.id));
      expect(read.status).toBe('RESOLVED_AGENT');
      return read;
    }, DEADLINE_WINDOW_MS + 5_000);
    open.delete(dispute.id);

    expect(Date.parse(lapsed.resolvedAt)).toBeGreaterThanOrEqual(Date.parse(dispute.respondBy));
    expect(lapsed).toMatchObject({ resolvedBy: 'DEADLINE', creditedWalletId: payer, resolutionNote: null });
    await expectMoney({ payer, payee }, { payer: '90.00', payee: '20.00' });
    for (const org of [payerOrg, payeeOrg]) {
      const entries = await ledger.auditOf(org.organizationId);
      expect(
        entries.filter((e) => e.resourceId === dispute.id && e.action === 'dispute.resolve').map((e) => e.actorId),
      ).toEqual(['dispute-deadline']);
    }
    // Ended: a late answer, or the operator, changes nothing.
    expect(expectApiError(await respond(payeeOrg.key, dispute.id), 409, 'INVALID_STATE').details).toEqual({
      status: 'RESOLVED_AGENT',
    });
    expectApiError(await resolve(dispute.id, { outcome: 'CLOSED' }), 409, 'INVALID_STATE');
    await expectMoney({ payer, payee }, { payer: '90.00', payee: '20.00' });
  });

  it('a response before the deadline wins: past respondBy the dispute is still RESPONDED and the money still held', async () => {
    const { payer, payee, dispute } = await opened('30.00');
    expectOk(await respond(payeeOrg.key, dispute.id));

    await pastDeadline(dispute);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(expectOk(await getDispute(payeeOrg.key, dispute.id)).status).toBe('RESPONDED');
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '20.00' });
    await ended(dispute.id, { outcome: 'RESOLVED_MERCHANT' });
    await expectMoney({ payer, payee }, { payer: '60.00', payee: '50.00' });
  });

  it('a response at or after respondBy finds the dispute lapsed (by the workflow or by the response itself): 409 RESOLVED_AGENT', async () => {
    const { payer, payee, dispute } = await opened('30.00');

    await pastDeadline(dispute);
    const late = await respond(payeeOrg.key, dispute.id);
    open.delete(dispute.id);

    expect(expectApiError(late, 409, 'INVALID_STATE').details).toEqual({ status: 'RESOLVED_AGENT' });
    expect(expectOk(await getDispute(payerOrg.key, dispute.id))).toMatchObject({
      status: 'RESOLVED_AGENT',
      resolvedBy: 'DEADLINE',
      creditedWalletId: payer,
    });
    await expectMoney({ payer, payee }, { payer: '90.00', payee: '20.00' });
  });

  it('respond, resolve, the deadline step and a late respond racing at respondBy: one outcome, money moved once', async () => {
    const deadline = disputeService(core());
    const disputes = await Promise.all([opened('12.00'), opened('12.00'), opened('12.00'), opened('12.00')]);
    const last = disputes
      .map(({ dispute }) => dispute as { respondBy: string })
      .reduce((latest, dispute) => (dispute.respondBy > latest.respondBy ? dispute : latest));
    await pastDeadline(last, 5);

    await Promise.all(
      disputes.map(({ dispute }, i) =>
        Promise.allSettled([
          respond(payeeOrg.key, dispute.id),
          deadline.runDeadline(dispute.id),
          resolve(dispute.id, { outcome: i % 2 === 0 ? 'RESOLVED_MERCHANT' : 'CLOSED' }),
          deadline.runDeadline(dispute.id),
          respond(payeeOrg.key, dispute.id, { response: 'late' }),
        ]),
      ),
    );
    for (const { dispute } of disputes) open.delete(dispute.id);
    for (const { payer, payee, dispute } of disputes) {
      const final = expectOk(await getDispute(payeeOrg.key, dispute.id));
      expect(['RESOLVED_AGENT', 'RESOLVED_MERCHANT', 'CLOSED']).toContain(final.status);
      // The deadline passed before anything: a response can not have been accepted.
      expect(final.response).toBeNull();
      await expectMoney(
        { payer, payee },
        final.status === 'RESOLVED_AGENT' ? { payer: '72.00', payee: '38.00' } : { payer: '60.00', payee: '50.00' },
      );
      expect(await deadline.runDeadline(dispute.id)).toEqual({ status: final.status });
    }
  });
});
