import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { faultPlan, LostAnswer, seededRandom } from '../fixtures/hot-property/faults.js';

/** The hot property's fault plan (test/fixtures/hot-property/faults.ts) does what it says, and only when armed. */
describe('hot property fault plan', () => {
  const sent: string[] = [];
  const client = {
    marker: 'base',
    async send(this: { marker: string }, command: unknown) {
      sent.push(`${this.marker}:${(command as object).constructor.name}`);
      return {};
    },
  } as unknown as DynamoDBDocumentClient;

  it('loses the answer of an applied TransactWriteItems only when armed, and passes every call to the client', async () => {
    const plan = faultPlan({ client, tableName: 't' }, 7, { conflict: 0, lostAnswer: 1 });
    await plan.table.client.send(new TransactWriteCommand({ TransactItems: [] }));
    await plan.armed({ lostAnswers: true }, async () => {
      await plan.table.client.send(new GetCommand({ TableName: 't', Key: {} }));
      await expect(plan.table.client.send(new TransactWriteCommand({ TransactItems: [] }))).rejects.toBeInstanceOf(
        LostAnswer,
      );
    });
    await plan.armed({ lostAnswers: false }, () =>
      plan.table.client.send(new TransactWriteCommand({ TransactItems: [] })),
    );
    expect(sent).toEqual([
      'base:TransactWriteCommand',
      'base:GetCommand',
      'base:TransactWriteCommand',
      'base:TransactWriteCommand',
    ]);
    expect(plan.stats.lostAnswers).toBe(1);
  });

  it('injects conflicts at the rate asked, only when armed, from the seed', async () => {
    const plan = faultPlan({ client, tableName: 't' }, 11);
    expect(plan.table.transact!.injectConflict!(1)).toBe(false);
    const hits = await plan.armed(
      { lostAnswers: false },
      async () => Array.from({ length: 10_000 }, () => plan.table.transact!.injectConflict!(1)).filter(Boolean).length,
    );
    expect(hits).toBeGreaterThan(2_300);
    expect(hits).toBeLessThan(2_700);
    const a = seededRandom(5);
    const b = seededRandom(5);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
