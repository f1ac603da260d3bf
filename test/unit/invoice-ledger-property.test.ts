import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { createInvoiceService } from '../../shared/domain/invoices/invoice-service.js';
import { ledgerInvariants } from '../../shared/domain/ledger/ledger-invariants.js';
import { fakeInvoiceParties, fakeProcessor } from '../fakes/fake-invoice-parties.js';
import { createMemoryInvoiceStore } from '../fakes/memory-invoice-store.js';
import { serviceWorld } from '../fakes/service-world.js';

/**
 * Random sequences of charges, payments (card, declined card, bank debits settling or failing),
 * refunds, voids and fundings over the invoice service and its memory fake: after every step the
 * ledger invariants hold (each movement balanced, the environment's wallets and system accounts
 * summing to zero, every wallet's balance the sum of its legs and never negative). Bounded:
 * RUNS sequences of at most STEPS steps.
 */
const RUNS = Number(process.env.INVOICE_PROPERTY_RUNS ?? 150);
const STEPS = 25;
/** Refusals a client can cause (the property is that they change nothing). */
const EXPECTED = new Set(['INVALID_STATE', 'INSUFFICIENT_FUNDS', 'PAYMENT_DECLINED', 'INVALID_AMOUNT']);

const CARDS = ['4242424242424242', '4000000000000002', '4000000000009995'];
const BANKS = ['000123456789', '000123450002'];

type Step =
  | { kind: 'invoice'; wallet: number; cents: number }
  | { kind: 'payCard'; invoice: number; card: number }
  | { kind: 'payBank'; invoice: number; bank: number }
  | { kind: 'settle'; invoice: number }
  | { kind: 'charge'; wallet: number; cents: number; card: number }
  | { kind: 'refund'; invoice: number }
  | { kind: 'void'; invoice: number }
  | { kind: 'fund'; wallet: number; cents: number };

const cents = fc.integer({ min: 50, max: 500_000 });
const index = fc.nat({ max: 7 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('invoice' as const), wallet: fc.nat({ max: 1 }), cents }),
  fc.record({ kind: fc.constant('payCard' as const), invoice: index, card: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant('payBank' as const), invoice: index, bank: fc.nat({ max: 1 }) }),
  fc.record({ kind: fc.constant('settle' as const), invoice: index }),
  fc.record({ kind: fc.constant('charge' as const), wallet: fc.nat({ max: 1 }), cents, card: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant('refund' as const), invoice: index }),
  fc.record({ kind: fc.constant('void' as const), invoice: index }),
  fc.record({ kind: fc.constant('fund' as const), wallet: fc.nat({ max: 1 }), cents }),
);

async function run(steps: Step[]): Promise<void> {
  const clock = fixedClock(new Date('2026-11-27T10:00:00.000Z'));
  const { store, table } = createMemoryInvoiceStore();
  const world = serviceWorld(clock, table);
  const processor = fakeProcessor();
  const customers = fakeInvoiceParties();
  const service = createInvoiceService({
    ...world.deps,
    store,
    parties: customers.parties,
    processors: () => processor.processor,
    hostedUrl: (path) => `https://pay.example${path}`,
    log: { error: () => undefined },
  });
  const wallets = [world.wallet('0.00'), world.wallet('0.00')];
  const byCard = CARDS.map((card) => customers.addCustomer(world.scope.organizationId, [card]));
  const invoices: { id: string; slug: string }[] = [];
  const amount = (c: number) => (Math.max(c, 100) / 100).toFixed(2);
  const pick = (i: number) => invoices[i % Math.max(invoices.length, 1)];

  for (const s of steps) {
    clock.advance(1000);
    try {
      switch (s.kind) {
        case 'invoice': {
          const draft = await service.create(world.ctx, AUDIT.invoice.create, {
            walletId: wallets[s.wallet]!,
            customerId: byCard[0]!,
            lineItems: [{ description: 'x', quantity: 1 + (s.cents % 3), unitPrice: amount(s.cents) }],
          });
          const finalized = await service.finalize(world.ctx, AUDIT.invoice.finalize, draft.id);
          invoices.push({ id: finalized.id, slug: finalized.slug! });
          break;
        }
        case 'payCard': {
          const invoice = pick(s.invoice);
          if (invoice)
            await service.payBySlug(world.ctx, AUDIT.invoice.pay, invoice.slug, {
              type: 'card',
              number: CARDS[s.card]!,
              expMonth: 12,
              expYear: 2030,
            });
          break;
        }
        case 'payBank': {
          const invoice = pick(s.invoice);
          if (invoice)
            await service.payBySlug(world.ctx, AUDIT.invoice.pay, invoice.slug, {
              type: 'us_bank_account',
              routingNumber: '110000000',
              accountNumber: BANKS[s.bank]!,
              accountHolderName: 'Jane',
              accountType: 'checking',
            });
          break;
        }
        case 'settle': {
          const invoice = pick(s.invoice);
          if (invoice) await service.settlePendingPayment(invoice.id);
          break;
        }
        case 'charge': {
          const answer = await service.charge(world.ctx, AUDIT.invoice.charge, {
            walletId: wallets[s.wallet]!,
            customerId: byCard[s.card]!,
            amount: amount(s.cents),
            description: 'charge',
          });
          const body = answer.body as { id: string; slug: string };
          invoices.push({ id: body.id, slug: body.slug });
          break;
        }
        case 'refund': {
          const invoice = pick(s.invoice);
          if (invoice) await service.refund(world.ctx, AUDIT.invoice.refund, invoice.id);
          break;
        }
        case 'void': {
          const invoice = pick(s.invoice);
          if (invoice) await service.void(world.ctx, AUDIT.invoice.void, invoice.id);
          break;
        }
        case 'fund': {
          const row = table.items.wallets.get(wallets[s.wallet]!)!;
          // Funding as the sandbox does it, through a balanced posting from acc_SANDBOX_FUNDING.
          await store.commit([
            {
              type: 'posting',
              posting: {
                transactionId: world.deps.ids('transaction'),
                type: 'FUNDING',
                organizationId: row.wallet.organizationId,
                environment: row.wallet.environment,
                currency: 'USD',
                legs: [
                  {
                    account: { kind: 'SYSTEM', accountId: 'acc_SANDBOX_FUNDING' },
                    amount: new Big(amount(s.cents)).times(-1),
                  },
                  {
                    account: { kind: 'WALLET', walletId: row.wallet.id },
                    amount: new Big(amount(s.cents)),
                  },
                ],
                createdAt: clock.now().toISOString(),
                attributes: {
                  status: 'POSTED',
                  postedAt: clock.now().toISOString(),
                  from: 'acc_SANDBOX_FUNDING',
                  to: row.wallet.id,
                  amount: amount(s.cents),
                  fee: '0.00',
                },
                record: 'create',
              },
            },
          ]);
          break;
        }
      }
    } catch (error) {
      if (!(error instanceof ApiError) || !EXPECTED.has(error.code)) throw error;
    }
    const report = ledgerInvariants(
      [...table.items.wallets.values()].map((row) => row.wallet),
      [...table.items.journal.values()],
    );
    expect(report.problems, JSON.stringify(s)).toEqual([]);
    for (const environment of Object.values(report.environments)) expect(environment.sum).toMatch(/^-?0(\.0+)?$/);
    for (const row of table.items.wallets.values()) expect(row.wallet.balance.gte(0)).toBe(true);
  }
}

describe('invoices keep the ledger balanced (property)', () => {
  it('holds the invariants after every step of random charges, payments, refunds and voids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: STEPS }), (steps) => run(steps)),
      { numRuns: RUNS },
    );
  });
});
