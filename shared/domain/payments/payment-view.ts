import type { Transaction } from '../types.js';

/** The wire shape of a payment (interface-spec 2.4); also what an idempotency record replays. */
export function presentPayment(transaction: Transaction) {
  return {
    id: transaction.id,
    object: 'payment',
    type: transaction.type,
    from: transaction.from,
    to: transaction.to,
    amount: transaction.amount,
    fee: transaction.fee,
    currency: transaction.currency,
    status: transaction.status,
    description: transaction.description ?? null,
    idempotencyKey: transaction.idempotencyKey ?? null,
    merchant: transaction.merchant ?? null,
    approvalId: transaction.approvalId ?? null,
    reversalOf: transaction.reversalOf ?? null,
    reversedBy: transaction.reversedBy ?? null,
    failureCode: transaction.failureCode ?? null,
    createdAt: transaction.createdAt,
    postedAt: transaction.postedAt ?? null,
  };
}

export type PaymentView = ReturnType<typeof presentPayment>;
