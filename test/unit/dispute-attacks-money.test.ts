import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { createDisputeService } from '../../shared/domain/disputes/dispute-service.js';
import type { DisputeView } from '../../shared/domain/disputes/dispute-view.js';
import { newId } from '../../shared/domain/ids.js';
import { paymentPosting } from '../../shared/domain/payments/payment-posting.js';
import { createPaymentService } from '../../shared/domain/payments/payment-service.js';
import type { RequestContext } from '../../shared/domain/tenancy.js';
import type { Transaction } from '../../shared/domain/types.js';
import { createMemoryDisputeStore } from '../fakes/memory-dispute-store.js';
import { refusalOf, serviceWorld } from '../fakes/service-world.js';

/**
 * Adversarial review (issue 23): interleavings the e2e races hit only sometimes, made
 * deterministic by letting the racer commit between the service's read and its write.
 */
const AT = '2026-11-27T10:00:00.000Z';

const operatorCtx: RequestContext = {
  principal: {
    kind: 'OPERATOR',
    keyId: 'key_operator',
    organizationId: null,
    environment: null,
    permissions: ['service:admin'],
    walletId: null,
  },
  actor: { actorType: 'API_KEY', actorId: 'key_operator', ipAddress: '192.0.2.1' },
  requestId: 'req_op',
};

function world() {
  const clock = fixedClock(new Date(AT));
  const memory = createMemoryDisputeStore();
  const payer = serviceWorld(clock, memory.table);
  const payee = serviceWorld(clock, memory.table);
  const service = createDisputeService({ ...payer.deps, store: memory.store, log: { error: () => undefined } });
  const payments = createPaymentService({ ...payee.deps, store: memory.payments.store });
  const payerWallet = payer.wallet('100.00');
  /** The receiving wallet holds only what the payment brought it. */
  const payeeWallet = payee.wallet('0.00');

  async function paid(amount: string) {
    const transaction: Transaction = {
      id: newId('transaction'),
      type: 'PAYMENT',
      organizationId: payer.scope.organizationId,
      environment: 'SANDBOX',
      from: payerWallet,
      to: payeeWallet,
      payeeOrganizationId: payee.scope.organizationId,
      amount,
      fee: '0.00',
      currency: 'USD',
      status: 'POSTED',
      createdAt: AT,
      postedAt: AT,
    };
    await memory.store.commit([
      paymentPosting({ transaction, record: 'create', actor: payer.ctx.actor, auditAction: AUDIT.payment.create }),
    ]);
    return transaction;
  }

  const open = (transactionId: string, amount: string, key?: string) =>
    service.open(payer.ctx, AUDIT.dispute.create, { transactionId, type: 'FRAUD', amount, reason: 'r' }, key);

  /** Runs `racer` once, right after the service read the receiving wallet's... read starts (before it answers). */
  function beforeWalletRead(walletId: string, racer: () => Promise<unknown>) {
    const read = memory.store.getWallet;
    let raced = false;
    memory.store.getWallet = async (id) => {
      if (id === walletId && !raced) {
        raced = true;
        await racer();
      }
      return read(id);
    };
  }

  const balance = async (walletId: string) => (await memory.store.getWallet(walletId))!.balance.toFixed(2);
  return { memory, payer, payee, service, payments, payerWallet, payeeWallet, paid, open, beforeWalletRead, balance };
}

describe('dispute attacks: an opening that loses a race is told why it lost', () => {
  it('to a reversal committed after it read the payment: INVALID_STATE REVERSED, not INSUFFICIENT_FUNDS', async () => {
    // dispute-opening.ts reads the payment (POSTED), then the receiving wallet: the reversal landed in
    // between, so the wallet no longer holds the amount and the balance pre-check refuses with
    // INSUFFICIENT_FUNDS ("try again later") about a payment that is REVERSED and can never be disputed.
    // The contract: "a losing racer gets DISPUTE_EXISTS or INVALID_STATE".
    const w = world();
    const payment = await w.paid('40.00');
    w.beforeWalletRead(w.payeeWallet, () =>
      w.payments.reverse(w.payee.ctx, AUDIT.payment.reverse, payment.id, undefined),
    );

    expect(await refusalOf(w.open(payment.id, '40.00'))).toEqual({
      code: 'INVALID_STATE',
      details: { status: 'REVERSED' },
    });
    expect(await w.balance(w.payerWallet)).toBe('100.00');
  });

  it('to a second opening committed after it read the payment: DISPUTE_EXISTS, not INSUFFICIENT_FUNDS (and its key keeps the right answer)', async () => {
    const w = world();
    const payment = await w.paid('40.00');
    let first: { id: string } | undefined;
    w.beforeWalletRead(w.payeeWallet, async () => {
      first = (await w.open(payment.id, '40.00')).body as { id: string };
    });

    // With a key, a refusal stored on refusal is the key's answer (a 4xx response, not a throw).
    const answerOf = async () => {
      const response = await w.open(payment.id, '40.00', 'retry-key');
      const error = (response.body as { error?: { code: string; details?: unknown } }).error;
      return { status: response.status, code: error?.code, details: error?.details };
    };
    const loser = await answerOf();
    expect(loser).toEqual({ status: 409, code: 'DISPUTE_EXISTS', details: { disputeId: first!.id } });
    // Stored under the key: a retry must get DISPUTE_EXISTS again, not "try again later".
    expect(await answerOf()).toEqual(loser);
    expect(await w.balance(w.payeeWallet)).toBe('0.00');
  });
});

describe('dispute attacks: a resolution racing a response', () => {
  it('answers and announces the dispute as stored: the response that committed first is not erased from the view', async () => {
    // dispute-resolution.ts `end` builds the ended dispute from the copy it read (OPEN, no response);
    // the transition is allowed from RESPONDED too, so when the response commits between the read and
    // the write, the operator's answer and both `dispute.resolved` events say response: null,
    // respondedAt: null while GET /v1/disputes/{id} shows the response.
    const w = world();
    const payment = await w.paid('40.00');
    const opened = (await w.open(payment.id, '10.00')).body as DisputeView;
    const read = w.memory.store.getDispute;
    let raced = false;
    w.memory.store.getDispute = async (id) => {
      const found = await read(id);
      if (!raced) {
        raced = true;
        await w.service.respond(w.payee.ctx, AUDIT.dispute.respond, id, {
          response: 'Delivered on time.',
          evidenceUrl: 'https://example.com/proof',
        });
      }
      return found;
    };

    const ended = await w.service.resolve(operatorCtx, AUDIT.dispute.resolve, opened.id, {
      outcome: 'RESOLVED_MERCHANT',
    });

    const stored = (await read(opened.id))!;
    expect(stored).toMatchObject({ status: 'RESOLVED_MERCHANT', response: 'Delivered on time.' });
    expect(ended).toMatchObject({
      status: 'RESOLVED_MERCHANT',
      response: 'Delivered on time.',
      evidenceUrl: 'https://example.com/proof',
      respondedAt: stored.respondedAt,
    });
    const resolvedEvents = w.memory.table.events.filter((event) => event.type === 'dispute.resolved');
    expect(resolvedEvents).toHaveLength(2);
    for (const event of resolvedEvents)
      expect(event.data).toMatchObject({ response: 'Delivered on time.', respondedAt: stored.respondedAt });
    expect(await w.balance(w.payeeWallet)).toBe('40.00');
  });
});
