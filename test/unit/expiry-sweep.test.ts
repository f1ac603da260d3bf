import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The expiry sweep's run (functions/expiry-sweep/handler.ts) over stub services: its three duties
 * (approvals, transfers, card authorizations, payment links) each run until a short batch, a failure of one never
 * skips the others, and the run fails after all ran.
 */
const calls = { approvals: [] as number[], transfers: [] as number[], cards: [] as number[], links: [] as number[] };
const batches: {
  approvals: (number | Error)[];
  transfers: (number | Error)[];
  cards: (number | Error)[];
  links: (number | Error)[];
} = { approvals: [], transfers: [], cards: [], links: [] };
const next = (duty: keyof typeof batches) => async () => {
  const value = batches[duty].shift() ?? 0;
  calls[duty].push(typeof value === 'number' ? value : -1);
  if (value instanceof Error) throw value;
  return value;
};

vi.mock('../../shared/runtime/core.js', () => ({ core: () => ({}) }));
vi.mock('../../shared/runtime/services/approvals.js', () => ({
  approvalService: () => ({ expireDue: next('approvals') }),
}));
vi.mock('../../shared/runtime/services/transfer-steps.js', () => ({
  transferStepsService: () => ({ reconcileDue: next('transfers') }),
}));
vi.mock('../../shared/runtime/services/cards.js', () => ({
  cardAuthorizationService: () => ({ expireDue: next('cards') }),
}));
vi.mock('../../shared/runtime/services/payment-link-expiry.js', () => ({
  paymentLinkExpiryService: () => ({ expireDue: next('links') }),
}));

const { handler } = await import('../../functions/expiry-sweep/handler.js');
const { RECONCILE_BATCH_SIZE } = await import('../../shared/domain/transfers/transfer-steps-service.js');
const { AUTHORIZATION_EXPIRY_BATCH_SIZE } = await import('../../shared/domain/cards/authorization-engine.js');
const { PAYMENT_LINK_EXPIRY_BATCH_SIZE } = await import('../../shared/domain/payment-links/payment-link-lifecycle.js');

describe('the expiry sweep run', () => {
  beforeEach(() => {
    for (const duty of ['approvals', 'transfers', 'cards', 'links'] as const) {
      calls[duty] = [];
      batches[duty] = [];
    }
  });

  it('runs each duty while it reports a full batch (approvals: until none is left)', async () => {
    batches.approvals = [3, 1, 0];
    batches.transfers = [RECONCILE_BATCH_SIZE, RECONCILE_BATCH_SIZE, 2];
    batches.cards = [AUTHORIZATION_EXPIRY_BATCH_SIZE - 1];
    batches.links = [PAYMENT_LINK_EXPIRY_BATCH_SIZE, 3];
    expect(await handler()).toEqual({
      expired: 4,
      reconciled: 2 * RECONCILE_BATCH_SIZE + 2,
      authorizationsExpired: AUTHORIZATION_EXPIRY_BATCH_SIZE - 1,
      linksExpired: PAYMENT_LINK_EXPIRY_BATCH_SIZE + 3,
    });
    expect(calls).toEqual({
      approvals: [3, 1, 0],
      transfers: [RECONCILE_BATCH_SIZE, RECONCILE_BATCH_SIZE, 2],
      cards: [AUTHORIZATION_EXPIRY_BATCH_SIZE - 1],
      links: [PAYMENT_LINK_EXPIRY_BATCH_SIZE, 3],
    });
  });

  it('runs every duty when one fails, then fails the run with every failure', async () => {
    batches.approvals = [new Error('approvals down')];
    batches.transfers = [1];
    batches.cards = [new Error('cards down')];
    batches.links = [2];
    await expect(handler()).rejects.toMatchObject({
      name: 'AggregateError',
      errors: [
        expect.objectContaining({ message: 'approvals down' }),
        expect.objectContaining({ message: 'cards down' }),
      ],
    });
    expect(calls.transfers).toEqual([1]);
    expect(calls.links).toEqual([2]);
  });

  it('starts no round once the run is nearly out of time', async () => {
    batches.approvals = [5];
    await expect(handler(undefined, { getRemainingTimeInMillis: () => 1_000 })).resolves.toEqual({
      expired: 0,
      reconciled: 0,
      authorizationsExpired: 0,
      linksExpired: 0,
    });
    expect(calls).toEqual({ approvals: [], transfers: [], cards: [], links: [] });
  });
});
