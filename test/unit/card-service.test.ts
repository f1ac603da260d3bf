import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { MAX_SPENDING_LIMITS } from '../../shared/domain/cards/card-rules.js';
import { createAuthorizationEngine } from '../../shared/domain/cards/authorization-engine.js';
import { createCardService } from '../../shared/domain/cards/card-service.js';
import { sandboxIssuer, unconfiguredIssuer } from '../../shared/domain/cards/sandbox-issuer.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { localSealer } from '../../shared/sealing/local-sealer.js';
import { createMemoryCardStore } from '../fakes/memory-card-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

/**
 * The rules of cards and their authorizations over the in-memory CardStore (held to the DynamoDB
 * store by test/contracts/card-store-contract.ts), with the sandbox issuer and a fixed clock. The
 * HTTP journeys (auth, body validation, headers, environments, the card network endpoint) stay in
 * test/e2e/cards*.test.ts.
 */
function world() {
  const memory = createMemoryCardStore();
  const clock = fixedClock(new Date('2026-11-21T10:00:00.000Z'));
  const base = serviceWorld(clock, memory.table);
  let digit = 0;
  const deps = { ...base.deps, store: memory.store };
  const service = createCardService(deps, {
    engine: createAuthorizationEngine(deps),
    issuers: {
      SANDBOX: sandboxIssuer(localSealer(randomBytes(32).toString('hex')), () => digit++ % 10),
      PRODUCTION: unconfiguredIssuer,
    },
  });
  const { scope, ctx, agentCtx, wallet } = base;
  /** available / held of a wallet. */
  const balancesOf = async (walletId: string) => {
    const w = (await memory.store.getWallet(walletId))!;
    return [w.balance.toFixed(2), w.heldBalance.toFixed(2)];
  };
  const merchant = { name: 'Compute Co', category: 'cloud_services', country: 'us' };
  /** Authorizes `amount` on the card at the merchant: the authorization's view. */
  const authorize = async (cardId: string, amount: string) =>
    (await service.authorize(ctx, AUDIT.card.authorize, cardId, { amount, merchant })).body as {
      id: string;
      status: string;
      reason?: string;
      amount: string;
    };
  return { memory, clock, service, ctx, agentCtx, scope, wallet, balancesOf, authorize, merchant };
}

describe('card service: issuing', () => {
  it('issues an ACTIVE card on the wallet with its limits normalized, the number kept only sealed', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, {
      walletId: wallet,
      type: 'PERSISTENT',
      spendingLimits: [{ amount: '50', interval: 'daily', categories: ['Cloud_Services'] }],
    });
    expect(card).toMatchObject({
      walletId: wallet,
      status: 'ACTIVE',
      brand: 'visa',
      version: 1,
      spendingLimits: [{ amount: '50.00', interval: 'daily', categories: ['cloud_services'] }],
    });
    expect(card.secrets?.numberSealed).toBeDefined();
    expect(JSON.stringify(await w.memory.store.getCard(card.id))).not.toMatch(/4000000/);
    const details = await w.service.details(w.ctx, card.id);
    expect(details.number.slice(-4)).toBe(card.last4);
  });

  it(`refuses more than ${MAX_SPENDING_LIMITS} spending limits, a bad limit amount or empty categories with VALIDATION_ERROR/INVALID_AMOUNT, issuing nothing`, async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const limits = Array.from({ length: MAX_SPENDING_LIMITS + 1 }, () => ({
      amount: '10.00',
      interval: 'daily' as const,
    }));
    expect(
      await refusalOf(
        w.service.create(w.ctx, AUDIT.card.create, { walletId: wallet, type: 'PERSISTENT', spendingLimits: limits }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'spendingLimits' } });
    expect(
      await refusalOf(
        w.service.create(w.ctx, AUDIT.card.create, {
          walletId: wallet,
          type: 'PERSISTENT',
          spendingLimits: [{ amount: '-1', interval: 'daily' }],
        }),
      ),
    ).toMatchObject({ code: 'INVALID_AMOUNT', details: { field: 'spendingLimits[0].amount' } });
    expect(
      await refusalOf(
        w.service.create(w.ctx, AUDIT.card.create, {
          walletId: wallet,
          type: 'PERSISTENT',
          spendingLimits: [{ amount: '5', interval: 'daily', categories: [] }],
        }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'spendingLimits[0].categories' } });
    expect((await w.memory.store.listCards(w.scope, {}, { limit: 10 })).items).toEqual([]);
    const card = await w.service.create(w.ctx, AUDIT.card.create, {
      walletId: wallet,
      type: 'PERSISTENT',
      spendingLimits: limits.slice(1),
    });
    expect(card.spendingLimits).toHaveLength(MAX_SPENDING_LIMITS);
  });

  it('refuses an agent key a card on another wallet (WALLET_NOT_FOUND), and its cards (CARD_NOT_FOUND)', async () => {
    const w = world();
    const own = w.wallet('10.00');
    const other = w.wallet('10.00');
    const agent = w.agentCtx(own);
    expect(
      await refusalOf(w.service.create(agent, AUDIT.card.create, { walletId: other, type: 'PERSISTENT' })),
    ).toMatchObject({ code: 'WALLET_NOT_FOUND' });
    const theirs = await w.service.create(w.ctx, AUDIT.card.create, { walletId: other, type: 'PERSISTENT' });
    expect(await refusalOf(w.service.get(agent, theirs.id))).toMatchObject({ code: 'CARD_NOT_FOUND' });
    expect(await w.service.create(agent, AUDIT.card.create, { walletId: own, type: 'PERSISTENT' })).toMatchObject({
      walletId: own,
    });
  });
});

describe('card service: authorizations', () => {
  it('approves within the limits and the balance: the amount held on the wallet', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, {
      walletId: wallet,
      type: 'PERSISTENT',
      spendingLimits: [{ amount: '50.00', interval: 'daily' }],
    });
    expect(await w.authorize(card.id, '30.00')).toMatchObject({ status: 'APPROVED', amount: '30.00' });
    expect(await w.balancesOf(wallet)).toEqual(['70.00', '30.00']);
  });

  it('declines over a spending limit with spending_limit_exceeded, holding nothing more', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, {
      walletId: wallet,
      type: 'PERSISTENT',
      spendingLimits: [{ amount: '50.00', interval: 'daily' }],
    });
    expect(await w.authorize(card.id, '30.00')).toMatchObject({ status: 'APPROVED' });
    expect(await w.authorize(card.id, '20.01')).toMatchObject({
      status: 'DECLINED',
      reason: 'spending_limit_exceeded',
    });
    expect(await w.balancesOf(wallet)).toEqual(['70.00', '30.00']);
    expect(await w.authorize(card.id, '20.00')).toMatchObject({ status: 'APPROVED' });
    expect(await w.balancesOf(wallet)).toEqual(['50.00', '50.00']);
  });

  it('declines on a frozen card with card_inactive, and approves again once unfrozen', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, { walletId: wallet, type: 'PERSISTENT' });
    expect(await w.service.freeze(w.ctx, AUDIT.card.freeze, card.id)).toMatchObject({ status: 'INACTIVE' });
    expect(await w.authorize(card.id, '5.00')).toMatchObject({ status: 'DECLINED', reason: 'card_inactive' });
    expect(await w.balancesOf(wallet)).toEqual(['100.00', '0.00']);
    await w.service.unfreeze(w.ctx, AUDIT.card.unfreeze, card.id);
    expect(await w.authorize(card.id, '5.00')).toMatchObject({ status: 'APPROVED' });
  });

  it('declines more than the balance with insufficient_funds, and a cancelled card with card_cancelled', async () => {
    const w = world();
    const wallet = w.wallet('10.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, { walletId: wallet, type: 'PERSISTENT' });
    expect(await w.authorize(card.id, '10.01')).toMatchObject({ status: 'DECLINED', reason: 'insufficient_funds' });
    expect(await w.balancesOf(wallet)).toEqual(['10.00', '0.00']);
    await w.service.cancel(w.ctx, AUDIT.card.cancel, card.id);
    expect(await w.authorize(card.id, '1.00')).toMatchObject({ status: 'DECLINED', reason: 'card_cancelled' });
    expect(await w.balancesOf(wallet)).toEqual(['10.00', '0.00']);
  });

  it('captures part of an authorization: that much paid, the rest released to the wallet and to the card limit', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, {
      walletId: wallet,
      type: 'PERSISTENT',
      spendingLimits: [{ amount: '50.00', interval: 'daily' }],
    });
    const auth = await w.authorize(card.id, '40.00');
    expect(await w.service.capture(w.ctx, AUDIT.card.capture, auth.id, '25.00')).toMatchObject({
      status: 200,
      body: { status: 'CAPTURED', capturedAmount: '25.00' },
    });
    expect(await w.balancesOf(wallet)).toEqual(['75.00', '0.00']);
    expect(await refusalOf(w.service.capture(w.ctx, AUDIT.card.capture, auth.id, '1.00'))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'CAPTURED' },
    });
    // 25.00 counted of the 50.00 daily limit: 25.00 more fits, 25.01 does not.
    expect(await w.authorize(card.id, '25.01')).toMatchObject({
      status: 'DECLINED',
      reason: 'spending_limit_exceeded',
    });
    expect(await w.authorize(card.id, '25.00')).toMatchObject({ status: 'APPROVED' });
  });

  it('refuses a capture of more than was authorized with INVALID_AMOUNT, changing nothing', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, { walletId: wallet, type: 'PERSISTENT' });
    const auth = await w.authorize(card.id, '40.00');
    expect(await refusalOf(w.service.capture(w.ctx, AUDIT.card.capture, auth.id, '40.01'))).toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { max: '40.00' },
    });
    expect(await w.balancesOf(wallet)).toEqual(['60.00', '40.00']);
  });

  it('reverses an authorization: the whole hold released, once', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, {
      walletId: wallet,
      type: 'PERSISTENT',
      spendingLimits: [{ amount: '50.00', interval: 'daily' }],
    });
    const auth = await w.authorize(card.id, '50.00');
    expect(await w.service.reverse(w.ctx, AUDIT.card.reverse, auth.id)).toMatchObject({ status: 'REVERSED' });
    expect(await w.balancesOf(wallet)).toEqual(['100.00', '0.00']);
    expect(await refusalOf(w.service.reverse(w.ctx, AUDIT.card.reverse, auth.id))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'REVERSED' },
    });
    expect(await refusalOf(w.service.capture(w.ctx, AUDIT.card.capture, auth.id, undefined))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'REVERSED' },
    });
    expect(await w.authorize(card.id, '50.00')).toMatchObject({ status: 'APPROVED' });
  });

  it('refunds a captured authorization in parts, never more in all than was captured', async () => {
    const w = world();
    const wallet = w.wallet('100.00');
    const card = await w.service.create(w.ctx, AUDIT.card.create, { walletId: wallet, type: 'PERSISTENT' });
    const auth = await w.authorize(card.id, '40.00');
    expect(await refusalOf(w.service.refund(w.ctx, AUDIT.card.refund, auth.id, '1.00'))).toMatchObject({
      code: 'INVALID_STATE',
      details: { status: 'APPROVED' },
    });
    await w.service.capture(w.ctx, AUDIT.card.capture, auth.id, '30.00');
    expect(await w.service.refund(w.ctx, AUDIT.card.refund, auth.id, '20.00')).toMatchObject({
      status: 201,
      body: { amount: '20.00', authorizationId: auth.id },
    });
    expect(await refusalOf(w.service.refund(w.ctx, AUDIT.card.refund, auth.id, '10.01'))).toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { max: '10.00' },
    });
    expect(await w.balancesOf(wallet)).toEqual(['90.00', '0.00']);
    expect(await w.service.refund(w.ctx, AUDIT.card.refund, auth.id, '10.00')).toMatchObject({ status: 201 });
    expect(await refusalOf(w.service.refund(w.ctx, AUDIT.card.refund, auth.id, '0.01'))).toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { max: '0.00' },
    });
    expect(await w.balancesOf(wallet)).toEqual(['100.00', '0.00']);
  });
});
