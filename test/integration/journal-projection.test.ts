import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { answerChange, claimOf } from '../../shared/domain/idempotency/idempotency.js';
import { idempotencyCodec } from '../../shared/persistence/entities/idempotency.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayJournal } from '../../shared/persistence/journal-replay.js';
import { transactionKeys } from '../../shared/persistence/entities/transaction.js';
import { core } from '../../shared/runtime/core.js';
import { journalProjector } from '../../shared/runtime/event-bus.js';
import { auditPartition } from '../fixtures/audit-reads.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { startTestApp } from '../fixtures/service-app.js';
import { queryPartition } from '../fixtures/table-reads.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * The journal's projections (audit entries, organization payment listings): written by the table
 * stream's consumer within 2 s of a movement, at most once whatever is delivered twice, and
 * rebuilt by `npm run journal:replay` (which writes nothing on a complete journal).
 */
describe('journal projections', () => {
  describe("from the table stream (the local run polls DynamoDB Local's stream)", () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startTestService();
    });
    afterAll(() => service.close());

    it('projects a payment into its audit entry and its organization listing within 2 s, and a redelivered record adds nothing', async () => {
      // Prepare
      const org = await service.createOrganization();
      const payer = (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payer' } })).body
        .id as string;
      const payee = (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payee' } })).body
        .id as string;
      await service.call('POST', `/v1/wallets/${payer}/fund`, { key: org.key, body: { amount: '20.00' } });

      // Act
      const payment = await service.call('POST', '/v1/payments', {
        key: org.key,
        body: { from: payer, to: payee, amount: '7.00' },
      });

      // Assess
      expect(payment.status).toBe(200);
      const entries = await eventually(async () => {
        const found = (await auditPartition(service.table, org.organizationId)).filter(
          (entry) => entry.resourceId === payment.body.id,
        );
        expect(found.map((entry) => entry.action)).toEqual(['payment.created']);
        return found;
      });
      await eventually(async () =>
        expect(
          (await queryPartition(service.table, `PAYMENTS#${org.organizationId}#SANDBOX`)).map(
            (item) => item.transactionId,
          ),
        ).toContain(payment.body.id),
      );

      const { Item } = await service.table.client.send(
        new GetCommand({ TableName: service.table.tableName, Key: transactionKeys.primary(payment.body.id) }),
      );
      const redelivered = await journalProjector(core()).handle([
        {
          eventName: 'INSERT',
          dynamodb: { NewImage: marshall(Item!, { removeUndefinedValues: true }), SequenceNumber: '1' },
        },
      ]);
      expect(redelivered).toEqual({ batchItemFailures: [], projected: 1 });
      const after = (await auditPartition(service.table, org.organizationId)).filter(
        (entry) => entry.resourceId === payment.body.id,
      );
      expect(after.map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
    });

    it("projects a payment written over its key's expired idempotency answer (the stream's MODIFY whose old image is the answer)", async () => {
      // Prepare: the key's last claim is an answer whose window ended two days ago (the TTL has not deleted it yet).
      const org = await service.createOrganization();
      const payer = (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payer' } })).body
        .id as string;
      const payee = (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payee' } })).body
        .id as string;
      await service.call('POST', `/v1/wallets/${payer}/fund`, { key: org.key, body: { amount: '20.00' } });
      const claim = await claimOf(
        { organizationId: org.organizationId, environment: 'SANDBOX' },
        'old-key',
        'old parameters',
      );
      const longAgo = new Date(Date.now() - 3 * 24 * 3600_000);
      const expired = answerChange(
        await claim.slotId(0),
        claim,
        402,
        { error: { code: 'INSUFFICIENT_FUNDS' } },
        longAgo,
      );
      await service.table.client.send(
        new PutCommand({
          TableName: service.table.tableName,
          Item: idempotencyCodec.toItem(expired.slotId, expired.record),
        }),
      );

      // Act
      const payment = await service.call('POST', '/v1/payments', {
        key: org.key,
        body: { from: payer, to: payee, amount: '3.00', idempotencyKey: 'old-key' },
      });

      // Assess
      expect(payment.status, payment.text).toBe(200);
      expect(payment.body.id).toBe(await claim.slotId(0));
      await eventually(async () => {
        const found = (await auditPartition(service.table, org.organizationId)).filter(
          (entry) => entry.resourceId === payment.body.id,
        );
        expect(found.map((entry) => entry.action)).toEqual(['payment.created']);
      });
    });
  });

  it('rebuilds missing projections with npm run journal:replay, and writes nothing on a complete journal', async () => {
    // Prepare: movements made through the services, with no stream consumer running.
    const { app, table, createOrganization } = await startTestApp();
    const org = await createOrganization();
    const payer = await app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payer' });
    const payee = await app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payee' });
    const funding = await app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, payer.id, '30.00');
    const payment = (
      await app.services.payments.create(org.ctx, AUDIT.payment.create, {
        from: payer.id,
        to: payee.id,
        amount: '5.00',
      })
    ).body as { id: string };
    const reversal = (await app.services.payments.reverse(org.ctx, AUDIT.payment.reverse, payment.id, undefined))
      .body as { id: string };

    // Act
    const first = await replayJournal(table);
    const second = await replayJournal(table);
    const entries = await auditPartition(table, org.organizationId);
    const paymentEntry = entries.find((entry) => entry.action === 'payment.created')!;
    await table.client.send(
      new DeleteCommand({ TableName: table.tableName, Key: { PK: paymentEntry.PK, SK: paymentEntry.SK } }),
    );
    const third = await replayJournal(table);

    // Assess: fund, payment and reversal each have an audit entry; payment and reversal a listing.
    expect(first).toMatchObject({ written: 5, present: 0 });
    expect(first.events).toBeGreaterThanOrEqual(3);
    expect(second).toMatchObject({ written: 0, present: 5 });
    expect(third).toMatchObject({ written: 1, present: 4 });
    const rebuilt = await auditPartition(table, org.organizationId);
    expect(
      rebuilt
        .filter((entry) => ['wallet.fund', 'payment.created', 'payment.reversed'].includes(entry.action))
        .map((entry) => entry.action)
        .sort(),
    ).toEqual(['payment.created', 'payment.reversed', 'wallet.fund']);
    expect(rebuilt.find((entry) => entry.action === 'payment.created')!.id).toBe(paymentEntry.id);
    expect(rebuilt.find((entry) => entry.action === 'wallet.fund')!.metadata).toMatchObject({
      transactionId: funding.transactionId,
      amount: '30.00',
    });
    expect(rebuilt.find((entry) => entry.action === 'payment.reversed')!.resourceId).toBe(payment.id);
    expect(reversal.id).toMatch(/^txn_/);
  });
});
