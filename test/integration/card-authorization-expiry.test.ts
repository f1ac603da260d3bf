import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../fixtures/log-capture.js';
import { AUTHORIZATION_EXPIRY_MS } from '../../shared/domain/cards/authorization-engine.js';
import type { AuthorizationView } from '../../shared/domain/cards/card-view.js';
import type { CardStore } from '../../shared/domain/cards/ports.js';
import type { Authorization } from '../../shared/domain/cards/types.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { createCardStore } from '../../shared/persistence/card-store.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import type { StoreOverrides } from '../../shared/runtime/container.js';
import { startTestApp } from '../fixtures/service-app.js';
import { createTestTable } from '../fixtures/table.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/**
 * Authorization expiry against DynamoDB Local, on a fixed clock (TIME_SCALE 60: a sandbox
 * authorization expires 7 days / 60 after its approval): `expireDue` reverses an APPROVED
 * authorization past its expiry by the reversal path (hold voided, spend given back, single-use
 * card freed, event), never one not yet due, captured or already reversed.
 */
const MERCHANT = { name: 'OpenAI', category: '5734', country: 'US' };
const TIME_SCALE = 60;
const EXPIRY_MS = AUTHORIZATION_EXPIRY_MS / TIME_SCALE;

async function start(stores?: (table: Awaited<ReturnType<typeof createTestTable>>) => StoreOverrides) {
  const clock = fixedClock(new Date('2026-11-25T10:00:00.000Z'));
  const { app, table, createOrganization } = await startTestApp(
    { DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'), TIME_SCALE: String(TIME_SCALE) },
    { clock, ...(stores ? { stores } : {}) },
  );
  const { ctx, organizationId, mainWalletId } = await createOrganization('Expiry Org');
  const balances = async (walletId: string) => {
    const wallet = await app.services.wallets.get(ctx, walletId);
    return { balance: wallet.balance.toFixed(2), held: wallet.heldBalance.toFixed(2) };
  };
  const scan = async (entityType: string) =>
    (
      await table.client.send(
        new ScanCommand({
          TableName: table.tableName,
          FilterExpression: 'entityType = :e',
          ExpressionAttributeValues: { ':e': entityType },
        }),
      )
    ).Items ?? [];
  const problems = async () => (await checkLedger(table.client, table.tableName)).problems;
  return { app, table, clock, ctx, organizationId, mainWalletId, balances, scan, problems, cards: app.services.cards };
}

const authorize = async (t: Awaited<ReturnType<typeof start>>, cardId: string, amount: string) =>
  (await t.cards.authorize(t.ctx, AUDIT.card.authorize, cardId, { amount, merchant: MERCHANT }))
    .body as AuthorizationView;

describe('card authorization expiry against DynamoDB Local', () => {
  it('reverses an approved authorization once past its expiry (not before), gives the spend back, and leaves a captured one alone', async () => {
    const t = await start();
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.mainWalletId, '100.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, {
      walletId: t.mainWalletId,
      type: 'PERSISTENT',
      spendingLimits: [{ amount: '50.00', interval: 'all_time' }],
    });
    const held = await authorize(t, card.id, '30.00');
    const captured = await authorize(t, card.id, '10.00');
    expect(held).toMatchObject({
      status: 'APPROVED',
      expiresAt: new Date(t.clock.now().getTime() + EXPIRY_MS).toISOString(),
      expiredAt: null,
    });
    await t.cards.capture(t.ctx, AUDIT.card.capture, captured.id, undefined);
    const declined = await authorize(t, card.id, '20.00');
    expect(declined).toMatchObject({ status: 'DECLINED', reason: 'spending_limit_exceeded', expiresAt: null });
    expect(await t.balances(t.mainWalletId)).toEqual({ balance: '60.00', held: '30.00' });

    // Only the live approved one is on the expiry index: not the captured one, not the decline.
    const indexed = (await t.scan('CARD_AUTHORIZATION'))
      .filter((item) => item.GSI4PK !== undefined)
      .map((item) => item.id);
    expect(indexed).toEqual([held.id]);

    // At its expiry exactly: not yet due.
    t.clock.advance(EXPIRY_MS);
    expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(0);
    expect((await t.cards.getAuthorization(t.ctx, held.id)).status).toBe('APPROVED');

    t.clock.advance(1);
    expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(1);
    const at = t.clock.now().toISOString();
    expect(await t.cards.getAuthorization(t.ctx, held.id)).toMatchObject({
      status: 'REVERSED',
      reversedAt: at,
      expiredAt: at,
    });
    expect(await t.cards.getAuthorization(t.ctx, captured.id)).toMatchObject({
      status: 'CAPTURED',
      capturedAmount: '10.00',
    });
    expect(await t.balances(t.mainWalletId)).toEqual({ balance: '90.00', held: '0.00' });
    // The all-time spend is given back: only the captured 10.00 stays counted.
    expect((await t.cards.get(t.ctx, card.id)).counters?.find((c) => c.interval === 'all_time')?.spent).toBe('10');
    expect((await t.scan('CARD_AUTHORIZATION')).filter((item) => item.GSI4PK !== undefined)).toEqual([]);

    const events = (await t.scan('OUTBOX_EVENT')).filter((item) => item.type === 'card.authorization.reversed');
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ id: held.id, status: 'REVERSED', expiredAt: at });
    const audits = (await t.scan('AUDIT_ENTRY')).filter(
      (item) => item.resourceId === held.id && item.action === 'card.authorization.reverse',
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorType: 'SYSTEM', actorId: 'authorization-expiry' });

    // A second run finds nothing, changes nothing.
    t.clock.advance(60_000);
    expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(0);
    expect(await t.balances(t.mainWalletId)).toEqual({ balance: '90.00', held: '0.00' });
    expect((await t.scan('OUTBOX_EVENT')).filter((item) => item.type === 'card.authorization.reversed')).toHaveLength(
      1,
    );
    expect(await t.problems()).toEqual([]);
  });

  it('frees a single-use card, and an agent whose only hold expired can then be deleted', async () => {
    const t = await start();
    const agent = await t.app.services.agents.create(t.ctx, AUDIT.wallet.create, { name: 'Shopper' });
    const agentId = agent.wallet.id;
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, agentId, '40.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: agentId, type: 'SINGLE_USE' });
    const auth = await authorize(t, card.id, '25.00');
    expect(auth.status).toBe('APPROVED');
    expect(await t.balances(agentId)).toEqual({ balance: '15.00', held: '25.00' });
    await expect(t.app.services.agents.remove(t.ctx, AUDIT.wallet.close, agentId)).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    expect(await authorize(t, card.id, '1.00')).toMatchObject({ status: 'DECLINED', reason: 'card_used' });

    t.clock.advance(EXPIRY_MS + 1);
    expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(1);
    expect(await t.cards.getAuthorization(t.ctx, auth.id)).toMatchObject({
      status: 'REVERSED',
      expiredAt: t.clock.now().toISOString(),
    });
    expect(await t.balances(agentId)).toEqual({ balance: '40.00', held: '0.00' });
    expect((await t.cards.get(t.ctx, card.id)).status).toBe('ACTIVE');

    await t.app.services.agents.remove(t.ctx, AUDIT.wallet.close, agentId);
    expect(await t.balances(t.mainWalletId)).toMatchObject({ balance: '40.00' });
    expect(await t.problems()).toEqual([]);
  });

  it("leaves alone an authorization captured after it was listed (the index lags, or a race): the reversal's state condition refuses it", async () => {
    // The listing and the read both stale: they still see it APPROVED after its capture.
    const stale: { listed?: Authorization } = {};
    const t = await start((table) => {
      const real = createCardStore(table);
      const store: CardStore = {
        ...real,
        listDueAuthorizations: async (now, limit) =>
          stale.listed ? [stale.listed] : real.listDueAuthorizations(now, limit),
        getAuthorization: async (id) => (stale.listed?.id === id ? stale.listed : real.getAuthorization(id)),
      };
      return { cards: store };
    });
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.mainWalletId, '20.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, { walletId: t.mainWalletId, type: 'PERSISTENT' });
    const auth = await authorize(t, card.id, '5.00');
    stale.listed = await createCardStore(t.table).getAuthorization(auth.id);
    await t.cards.capture(t.ctx, AUDIT.card.capture, auth.id, '4.00');
    t.clock.advance(EXPIRY_MS + 1);
    // Refused as INVALID_STATE (expected, not logged as a failure), not by any other error.
    const logs = captureLogs();
    try {
      expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(1);
      expect(logs.errors()).toEqual([]);
    } finally {
      logs.restore();
    }
    stale.listed = undefined;
    const after = await t.cards.getAuthorization(t.ctx, auth.id);
    expect(after).toMatchObject({ status: 'CAPTURED', capturedAmount: '4.00' });
    expect(after).not.toHaveProperty('expiredAt');
    expect(after).not.toHaveProperty('reversedAt');
    expect(await t.balances(t.mainWalletId)).toEqual({ balance: '16.00', held: '0.00' });
    expect((await t.scan('OUTBOX_EVENT')).filter((item) => item.type === 'card.authorization.reversed')).toHaveLength(
      0,
    );
    expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(0);
    expect(await t.problems()).toEqual([]);
  });
  it('moves an authorization whose reversal keeps failing back in the queue, so it never blocks the others', async () => {
    let poison = '';
    const t = await start((table) => {
      const real = createCardStore(table);
      const store: CardStore = {
        ...real,
        commit: async (changes) => {
          if (changes.some((change) => change.type === 'transitionAuthorization' && change.authorizationId === poison))
            throw new Error('storage failure (injected)');
          await real.commit(changes);
        },
      };
      return { cards: store };
    });
    await t.app.services.wallets.fund(t.ctx, AUDIT.wallet.fund, t.mainWalletId, '100.00');
    const card = await t.cards.create(t.ctx, AUDIT.card.create, {
      walletId: t.mainWalletId,
      type: 'PERSISTENT',
      spendingLimits: [],
    });
    const first = await authorize(t, card.id, '10.00');
    t.clock.advance(1);
    const second = await authorize(t, card.id, '20.00');
    poison = first.id;
    t.clock.advance(EXPIRY_MS + 1);
    const logs = captureLogs();
    try {
      expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(2);
      // The failing one was moved back: the next run does not list it first (nor at all, until its retry time).
      expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(0);
      // The failing one is logged as a failure (and the run went on).
      expect(logs.errors().join('\n')).toContain('failed');
    } finally {
      logs.restore();
    }
    expect((await t.cards.getAuthorization(t.ctx, second.id)).status).toBe('REVERSED');
    expect((await t.cards.getAuthorization(t.ctx, first.id)).status).toBe('APPROVED');
    // The storage recovers: a later run reverses it.
    poison = '';
    t.clock.advance(10 * 60_000);
    expect(await t.cards.expireDue(AUDIT.card.reverse)).toBe(1);
    expect((await t.cards.getAuthorization(t.ctx, first.id)).status).toBe('REVERSED');
    expect(await t.problems()).toEqual([]);
  });
});
