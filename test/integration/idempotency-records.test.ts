import { randomBytes } from 'node:crypto';
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizationView } from '../../shared/domain/cards/card-view.js';
import { fixedClock } from '../../shared/domain/clock.js';
import {
  IDEMPOTENCY_RETENTION_S,
  IDEMPOTENCY_TTL_AFTER_WINDOW_S,
} from '../../shared/domain/idempotency/idempotency.js';
import { projectsOnChange } from '../../shared/domain/ledger/journal-projection.js';
import { journalChangeOf } from '../../shared/persistence/journal-stream.js';
import { TTL_ATTRIBUTE } from '../../shared/persistence/table-schema.js';
import { startTestApp, type TestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

const DAY_S = 24 * 3600;
const START = new Date('2026-11-25T10:00:00.000Z');
const MERCHANT = { name: 'OpenAI', category: '5734', country: 'US' };
/** What an idempotency answer holds: its key's scope, the key, the parameters' digest and the first answer. */
const ANSWER_ATTRIBUTES = [
  'PK',
  'SK',
  'entityType',
  'organizationId',
  'environment',
  'key',
  'fingerprint',
  'status',
  'body',
  'createdAt',
  'expiresAtEpochS',
  TTL_ATTRIBUTE,
].sort();

type Item = Record<string, unknown>;

/**
 * Idempotency records in the table as stored (decisions.md section 3; docs/api.md "Idempotency"):
 * an answer holds only what the response needs, and every one is deleted by DynamoDB's TTL 24 h
 * after its key's 24-hour window. The journal record of a movement made with a key holds that
 * key's claim and is the ledger's truth: it is never deleted.
 */
describe('idempotency records (DynamoDB Local)', () => {
  let t: TestApp;
  const clock = fixedClock(START);
  let org: Awaited<ReturnType<TestApp['createOrganization']>>;

  async function scan(): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await t.table.client.send(
        new ScanCommand({ TableName: t.table.tableName, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
      );
      items.push(...((page.Items ?? []) as Item[]));
      startKey = page.LastEvaluatedKey as Item | undefined;
    } while (startKey);
    return items;
  }

  const answers = async () => (await scan()).filter((item) => item.entityType === 'IDEMPOTENCY');
  const answerOfKey = async (key: string) =>
    (await answers()).filter((item) => item.key === key && item.organizationId === org.organizationId);

  /** What DynamoDB's TTL does, at once: every item whose TTL attribute is at or before `now` goes. */
  async function expireByTtl(now: Date) {
    for (const item of await scan()) {
      const ttl = item[TTL_ATTRIBUTE];
      if (ttl !== undefined && Number(ttl) <= Math.floor(now.getTime() / 1000)) {
        await t.table.client.send(
          new DeleteCommand({ TableName: t.table.tableName, Key: { PK: item.PK, SK: item.SK } }),
        );
      }
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') }, { clock });
    org = await t.createOrganization('Idempotency Org');
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '500.00');
  });

  it("stores a card authorization's answer without the card (no sealed number, CVC or card fields), deleted 24 h after the key's window", async () => {
    clock.set(START);
    const card = await t.app.services.cards.create(org.ctx, AUDIT.card.create, {
      walletId: org.mainWalletId,
      type: 'PERSISTENT',
    });
    const cardItem = (await scan()).find((item) => item.entityType === 'CARD' && item.id === card.id)!;
    const secrets = cardItem.secrets as Item;
    const sealed = [secrets.numberSealed, secrets.cvcSealed].filter(
      (value): value is string => typeof value === 'string',
    );
    expect(sealed).toHaveLength(2);

    const helper = await t.app.services.cards.authorize(
      org.ctx,
      AUDIT.card.authorize,
      card.id,
      { amount: '10.00', merchant: MERCHANT },
      'auth-1',
    );
    const network = await t.app.services.cards.authorizeForNetwork(
      AUDIT.card.authorize,
      { cardId: card.id, networkId: 'iauth_1', amount: '5.00', merchant: MERCHANT },
      'SANDBOX',
    );

    expect((helper.body as AuthorizationView).status).toBe('APPROVED');
    expect(network.approved).toBe(true);
    const stored = [...(await answerOfKey('auth-1')), ...(await answerOfKey('network:iauth_1'))];
    expect(stored).toHaveLength(2);
    for (const item of stored) {
      expect(Object.keys(item).sort()).toEqual(ANSWER_ATTRIBUTES);
      const text = JSON.stringify(item);
      for (const secret of sealed) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/numberSealed|cvcSealed|secrets|spendingLimits|expMonth|"version"/);
      expect(Number(item.expiresAtEpochS)).toBe(START.getTime() / 1000 + IDEMPOTENCY_RETENTION_S);
      expect(Number(item[TTL_ATTRIBUTE])).toBe(
        START.getTime() / 1000 + IDEMPOTENCY_RETENTION_S + IDEMPOTENCY_TTL_AFTER_WINDOW_S,
      );
    }
    expect(IDEMPOTENCY_RETENTION_S + IDEMPOTENCY_TTL_AFTER_WINDOW_S).toBe(2 * DAY_S);
  });

  it("gives every kind of idempotency answer the TTL (stored refusals, batch claims, card captures: every answer in the table), and never the journal record holding a key's claim", async () => {
    clock.set(START);
    const payee = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payee' });
    const card = await t.app.services.cards.create(org.ctx, AUDIT.card.create, {
      walletId: org.mainWalletId,
      type: 'PERSISTENT',
    });
    const authorization = await t.app.services.cards.authorize(org.ctx, AUDIT.card.authorize, card.id, {
      amount: '3.00',
      merchant: MERCHANT,
    });

    const refused = await t.app.services.payments.create(org.ctx, AUDIT.payment.create, {
      from: payee.id,
      to: org.mainWalletId,
      amount: '1.00',
      idempotencyKey: 'refused-1',
    });
    const posted = await t.app.services.payments.create(org.ctx, AUDIT.payment.create, {
      from: org.mainWalletId,
      to: payee.id,
      amount: '1.00',
      idempotencyKey: 'posted-1',
    });
    await t.app.services.payments.batch(
      org.ctx,
      AUDIT.payment.create,
      [{ from: org.mainWalletId, to: payee.id, amount: '1.00' }],
      'batch-1',
    );
    await t.app.services.cards.capture(
      org.ctx,
      AUDIT.card.capture,
      (authorization.body as AuthorizationView).id,
      undefined,
      'capture-1',
    );

    expect(refused).toMatchObject({ status: 402, body: { error: { code: 'INSUFFICIENT_FUNDS' } } });
    const all = await answers();
    for (const key of ['refused-1', 'batch-1', 'batch-1#0', 'capture-1']) {
      const [item] = all.filter((a) => a.key === key && a.organizationId === org.organizationId);
      if (key === 'batch-1#0') {
        // A posted batch item is a movement: its journal record holds the claim.
        expect(item).toBeUndefined();
        continue;
      }
      expect(item, key).toBeDefined();
      expect(Object.keys(item!).sort()).toEqual(ANSWER_ATTRIBUTES);
      expect(Number(item![TTL_ATTRIBUTE]), key).toBe(Number(item!.expiresAtEpochS) + IDEMPOTENCY_TTL_AFTER_WINDOW_S);
    }
    for (const item of all)
      expect(Number(item[TTL_ATTRIBUTE]), String(item.key)).toBe(
        Number(item.expiresAtEpochS) + IDEMPOTENCY_TTL_AFTER_WINDOW_S,
      );
    const journal = (await scan()).find(
      (item) => item.entityType !== 'IDEMPOTENCY' && item.id === (posted.body as { id: string }).id,
    );
    expect(journal).toMatchObject({ idempotencyKey: 'posted-1' });
    expect(journal![TTL_ATTRIBUTE]).toBeUndefined();
  });

  it("keeps a key's later claim found once its expired answer is deleted: the next claim takes the expired answer's slot", async () => {
    const payee = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Late payee' });
    const poor = await t.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Poor' });
    const body = { from: poor.id, to: payee.id, amount: '2.00', idempotencyKey: 'reused-key' };
    clock.set(START);
    expect(await t.app.services.payments.create(org.ctx, AUDIT.payment.create, body)).toMatchObject({
      status: 402,
      body: { error: { code: 'INSUFFICIENT_FUNDS' } },
    });
    await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, poor.id, '10.00');

    const [refusal] = await answerOfKey('reused-key');
    // The refusal's window is over: the key starts anew and the payment posts.
    clock.set(new Date(START.getTime() + 25 * 3600_000));
    const posted = await t.app.services.payments.create(org.ctx, AUDIT.payment.create, body);
    expect(posted.replayed).toBe(false);
    // It took the refusal's slot: written over an item, the stream reports a MODIFY whose old image
    // is the refusal, which is the record's first write (audit entry, event); a later change of the
    // record (its old image the record) projects nothing again.
    const record = (await scan()).find((item) => item.id === (posted.body as { id: string }).id)!;
    expect(record).toMatchObject({ entityType: 'TRANSACTION', PK: refusal!.PK });
    const streamed = (oldImage: Item) =>
      journalChangeOf({ eventName: 'MODIFY', dynamodb: { OldImage: marshall(oldImage), NewImage: marshall(record) } })!;
    expect(streamed(refusal!).change).toBe('INSERT');
    expect(projectsOnChange(streamed(refusal!).change)).toBe(true);
    expect(projectsOnChange(streamed(record).change)).toBe(false);
    expect(await answerOfKey('reused-key')).toEqual([]);
    // DynamoDB deletes the refusal (its TTL passed) while the payment's window is still open.
    const late = new Date(START.getTime() + 48 * 3600_000 + 60_000);
    clock.set(late);
    await expireByTtl(late);

    const retried = await t.app.services.payments.create(org.ctx, AUDIT.payment.create, body);

    expect(retried).toMatchObject({ replayed: true, body: { id: (posted.body as { id: string }).id } });
    expect((await t.app.services.wallets.get(org.ctx, poor.id)).balance.toFixed(2)).toBe('8.00');
  });
});
