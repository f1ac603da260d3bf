import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerChange, claimOf } from '../../shared/domain/idempotency/idempotency.js';
import { idempotencyCodec } from '../../shared/persistence/entities/idempotency.js';
import { eventually } from '../fixtures/eventually.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { startReceiver } from '../fixtures/webhook-receiver.js';

/**
 * Idempotency keys are kept 24 hours (decisions.md section 3): after that the key starts anew, and
 * its next claim takes the slot of its expired answer, which waits for DynamoDB's TTL (24 h more).
 * Every write taking a key's slot may replace such an answer (test/integration/idempotency-reclaim
 * goes through each), and the journal's projector projects a record written there once, as its
 * first write (the stream's MODIFY whose old image is the answer), never on its later changes.
 */
describe('a key whose last answer expired', () => {
  let service: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await service?.close();
  });

  async function setup(name: string) {
    const org = await service.createOrganization(name);
    const payer = (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payer' } })).body
      .id as string;
    const payee = (await service.call('POST', '/v1/wallets', { key: org.key, body: { name: 'Payee' } })).body
      .id as string;
    await service.call('POST', `/v1/wallets/${payer}/fund`, { key: org.key, body: { amount: '20.00' } });
    return { org, payer, payee };
  }

  /** The key's last claim: a refusal of other parameters whose window ended `ago` ms back (its item waits for the TTL). */
  async function expiredAnswer(organizationId: string, key: string, ago: number): Promise<string> {
    const claim = await claimOf({ organizationId, environment: 'SANDBOX' }, key, 'old parameters');
    const expired = answerChange(
      await claim.slotId(0),
      claim,
      402,
      { error: { code: 'INSUFFICIENT_FUNDS' } },
      new Date(Date.now() - ago),
    );
    await service.table.client.send(
      new PutCommand({
        TableName: service.table.tableName,
        Item: idempotencyCodec.toItem(expired.slotId, expired.record),
      }),
    );
    return expired.slotId;
  }

  it('queues a payment needing approval (202), as with a fresh key, not 409 IDEMPOTENCY_KEY_IN_USE until the TTL', async () => {
    const { org, payer, payee } = await setup('Reclaim queued');
    const policy = await service.call('POST', '/v1/policies', {
      key: org.key,
      body: { walletId: payer, name: 'Approve all', maxTransactionAmount: '100.00', requireHumanApproval: true },
    });
    expect(policy.status, policy.text).toBe(201);
    const slotId = await expiredAnswer(org.organizationId, 'yesterday-key', 25 * 3600_000);

    const fresh = await service.call('POST', '/v1/payments', {
      key: org.key,
      body: { from: payer, to: payee, amount: '3.00', idempotencyKey: 'fresh-key' },
    });
    const reused = await service.call('POST', '/v1/payments', {
      key: org.key,
      body: { from: payer, to: payee, amount: '3.00', idempotencyKey: 'yesterday-key' },
    });

    expect(fresh.status, fresh.text).toBe(202);
    expect(reused.status, reused.text).toBe(202);
    expect(reused.body.error.details.transactionId).toBe(slotId);
  });

  it("publishes the payment.posted of a payment made over it once, not again on the payment's reversal (to a webhook created after it)", async () => {
    const { org, payer, payee } = await setup('Reclaim events');
    await expiredAnswer(org.organizationId, 'old-key', 3 * 24 * 3600_000);

    const reclaimed = await service.call('POST', '/v1/payments', {
      key: org.key,
      body: { from: payer, to: payee, amount: '3.00', idempotencyKey: 'old-key' },
    });
    const fresh = await service.call('POST', '/v1/payments', {
      key: org.key,
      body: { from: payer, to: payee, amount: '4.00', idempotencyKey: 'fresh-key' },
    });
    expect(reclaimed.status, reclaimed.text).toBe(200);
    expect(fresh.status, fresh.text).toBe(200);
    await eventually(async () => {
      const events = await service.call('GET', '/v1/events?type=payment.posted', { key: org.key });
      expect(events.body.data.map((event: { data: { id: string } }) => event.data.id)).toEqual(
        expect.arrayContaining([reclaimed.body.id, fresh.body.id]),
      );
    });

    const hook = await service.call('POST', '/v1/webhooks', {
      key: org.key,
      body: { url: receiver.url('/late'), events: ['payment.posted'] },
    });
    expect(hook.status, hook.text).toBe(201);
    for (const id of [fresh.body.id, reclaimed.body.id]) {
      const reversed = await service.call('POST', `/v1/payments/${id}/reverse`, { key: org.key, body: {} });
      expect(reversed.status, reversed.text).toBe(200);
    }
    await service.projected();
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const redelivered = receiver
      .at('/late')
      .map((hit) => JSON.parse(hit.body) as { type: string; data: { id: string; status: string } });
    expect(redelivered.filter((body) => body.data.id === fresh.body.id)).toEqual([]);
    expect(
      redelivered
        .filter((body) => body.data.id === reclaimed.body.id)
        .map((body) => `${body.type} ${body.data.status}`),
    ).toEqual([]);
  });
});
