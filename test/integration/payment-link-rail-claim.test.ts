import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import type { PaymentLinkView } from '../../shared/domain/payment-links/payment-link-view.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import { paymentLinkKeys } from '../../shared/persistence/entities/payment-link.js';
import { transactionKeys } from '../../shared/persistence/entities/transaction.js';
import { transferKeys } from '../../shared/persistence/entities/transfer.js';
import type { ItemKey } from '../../shared/persistence/item.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { replayJournal } from '../../shared/persistence/journal-replay.js';
import { startTestApp } from '../fixtures/service-app.js';

/**
 * The ach/usdc claim of a payment link against DynamoDB Local (the runtime's services: the rail
 * claim commits the transfer with the link's transition, the transfer store writes the link's end
 * with the link's own writer and condition), the workflow's steps driven by hand on a fixed clock.
 */
const NOW = '2026-11-27T10:00:00.000Z';

async function start() {
  const clock = fixedClock(new Date(NOW));
  const t = await startTestApp(
    {
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      TIME_SCALE: '60',
      PUBLIC_BASE_URL: 'https://pay.example.test',
    },
    { clock },
  );
  const org = await t.createOrganization('Link Rails Org');
  await t.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
  const { paymentLinks, transfers } = t.app.services;
  /** The claimant: no key (the public route's context). */
  const claimant: RequestContext = {
    principal: {
      kind: 'ORGANIZATION',
      keyId: 'anonymous',
      organizationId: null,
      environment: null,
      permissions: [],
      walletId: null,
    },
    actor: { actorType: 'SYSTEM', actorId: 'anonymous', ipAddress: '198.51.100.23' },
    requestId: 'req_claim',
  };
  const createLink = async (fields: Record<string, unknown> = {}) => {
    const created = await paymentLinks.create(org.ctx, AUDIT.paymentLink.create, {
      walletId: org.mainWalletId,
      amount: '50.00',
      ...fields,
    } as never);
    expect(created.status).toBe(201);
    return created.body as PaymentLinkView;
  };
  const claim = (slug: string, destination: Record<string, unknown>, key?: string) =>
    paymentLinks.claim(
      claimant,
      AUDIT.paymentLink.claim,
      slug,
      { method: destination.type === 'USDC' ? 'usdc' : 'ach', destination } as never,
      key,
    );
  const ach = (accountNumber: string) => ({ type: 'ACH', routingNumber: '021000021', accountNumber });
  const link = (id: string) => paymentLinks.get(org.ctx, id);
  const wallet = async () => {
    const found = await t.app.services.wallets.get(org.ctx, org.mainWalletId);
    return [found.balance.toFixed(2), found.heldBalance.toFixed(2)];
  };
  const raw = async (key: ItemKey) =>
    (await t.table.client.send(new GetCommand({ TableName: t.table.tableName, Key: key }))).Item;
  const holdOf = async (linkId: string) => {
    const item = await raw(paymentLinkKeys.primary(linkId));
    return item?.holdId as string;
  };
  const runWorkflow = async (transferId: string) => {
    const submitted = await transfers.runStep({ step: 'submit', transferId });
    if (submitted.status !== 'PENDING') return submitted.status;
    clock.set(new Date(submitted.settleAt!));
    return (await transfers.runStep({ step: 'settle', transferId })).status;
  };
  const ledgerProblems = async () => {
    await replayJournal(t.table);
    return (await checkLedger(t.table.client, t.table.tableName)).problems;
  };
  return {
    ...t,
    clock,
    org,
    createLink,
    claim,
    ach,
    link,
    wallet,
    raw,
    holdOf,
    runWorkflow,
    transfers,
    ledgerProblems,
  };
}

describe('payment link rail claims against DynamoDB Local', () => {
  it('an ach claim: the transfer adopts the link’s hold (no new hold) in the claim’s transaction, then settles the link', async () => {
    const t = await start();
    const created = await t.createLink();
    expect(await t.wallet()).toEqual(['49.75', '50.25']);

    const answer = await t.claim(created.slug, t.ach('000123456789'), 'claim-1');
    expect(answer).toMatchObject({ status: 200, body: { status: 'CLAIMED', amount: '50.00' } });
    const claimed = await t.link(created.id);
    const transferId = claimed.claim!.transferId!;
    expect(claimed).toMatchObject({ status: 'CLAIMED', claim: { method: 'ach', destination: { last4: '6789' } } });
    const transfer = await t.transfers.get(t.org.ctx, transferId);
    expect(transfer).toMatchObject({
      direction: 'WITHDRAWAL',
      rail: 'ACH',
      currency: 'USD',
      amount: '50.00',
      fee: '0.25',
      status: 'INITIATED',
      walletId: t.org.mainWalletId,
      holdId: await t.holdOf(created.id),
      paymentLinkId: created.id,
    });
    expect(await t.wallet()).toEqual(['49.75', '50.25']);
    // Stored sealed only: neither the transfer nor the link holds the account number in clear.
    expect(JSON.stringify(await t.raw(transferKeys.primary(transferId)))).not.toContain('000123456789');
    expect(JSON.stringify(await t.raw(paymentLinkKeys.primary(created.id)))).not.toContain('000123456789');
    // The same key and body answers the first answer, claiming nothing more.
    expect(await t.claim(created.slug, t.ach('000123456789'), 'claim-1')).toMatchObject({
      status: 200,
      replayed: true,
    });

    expect(await t.runWorkflow(transferId)).toBe('COMPLETED');
    const settled = await t.link(created.id);
    const completed = await t.transfers.get(t.org.ctx, transferId);
    expect(settled).toMatchObject({ status: 'SETTLED', transactionId: completed.transactionId });
    expect(settled.settledAt).toBe(completed.completedAt);
    expect(await t.wallet()).toEqual(['49.75', '0.00']);
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('two concurrent rail claims of one link: one wins, the other answers INVALID_STATE and creates no transfer', async () => {
    const t = await start();
    const created = await t.createLink();
    const outcomes = await Promise.allSettled([
      t.claim(created.slug, t.ach('000123456789')),
      t.claim(created.slug, { type: 'USDC', address: '0x52908400098527886E0F7030069857D2E4169EE7' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'INVALID_STATE' } });
    const withdrawals = await t.transfers.list(t.org.ctx, { direction: 'WITHDRAWAL' }, { limit: 10 });
    expect(withdrawals.items).toHaveLength(1);
    expect((await t.link(created.id)).claim!.transferId).toBe(withdrawals.items[0]!.id);
    expect(await t.wallet()).toEqual(['49.75', '50.25']);
  });

  it('a failed ach claim: ACTIVE again with its hold HELD; claimed again, settled with the one hold captured once', async () => {
    const t = await start();
    const created = await t.createLink();
    const failed = await t.claim(created.slug, t.ach('000000000002'));
    const failedId = (await t.link(created.id)).claim!.transferId!;
    expect(failed.body).toMatchObject({ status: 'CLAIMED' });
    expect(await t.runWorkflow(failedId)).toBe('FAILED');
    const back = await t.link(created.id);
    expect(back).toMatchObject({ status: 'ACTIVE', lastClaimFailure: { reason: 'R03_NO_ACCOUNT' } });
    const hold = await t.raw(transactionKeys.primary(await t.holdOf(created.id)));
    expect(hold?.status).toBe('HELD');
    expect(await t.wallet()).toEqual(['49.75', '50.25']);

    await t.claim(created.slug, t.ach('000123456789'));
    const goodId = (await t.link(created.id)).claim!.transferId!;
    expect(goodId).not.toBe(failedId);
    expect(await t.runWorkflow(goodId)).toBe('COMPLETED');
    expect(await t.link(created.id)).toMatchObject({ status: 'SETTLED' });
    expect(await t.wallet()).toEqual(['49.75', '0.00']);
    expect(await t.ledgerProblems()).toEqual([]);
  });

  it('a claim failing after expiresAt: EXPIRED, the hold voided once; the expiry arriving then changes nothing', async () => {
    const t = await start();
    const created = await t.createLink({ expiresAt: '2026-11-27T11:00:00.000Z' });
    await t.claim(created.slug, t.ach('000000000002'));
    const transferId = (await t.link(created.id)).claim!.transferId!;
    await t.transfers.runStep({ step: 'submit', transferId });
    // While CLAIMED, the link's expiry does nothing.
    t.clock.set(new Date('2026-11-27T11:00:05.000Z'));
    expect(await t.app.services.paymentLinks.expire(AUDIT.paymentLink.expire, created.id)).toBe('ended');
    expect((await t.link(created.id)).status).toBe('CLAIMED');
    expect(await t.transfers.runStep({ step: 'settle', transferId })).toMatchObject({ status: 'FAILED' });
    expect(await t.link(created.id)).toMatchObject({ status: 'EXPIRED', expiredAt: '2026-11-27T11:00:05.000Z' });
    expect(await t.wallet()).toEqual(['100.00', '0.00']);
    expect(await t.app.services.paymentLinks.expire(AUDIT.paymentLink.expire, created.id)).toBe('ended');
    expect(await t.wallet()).toEqual(['100.00', '0.00']);
    expect(await t.ledgerProblems()).toEqual([]);
  });
});
