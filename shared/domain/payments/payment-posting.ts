import { presentPayment } from './payment-view.js';
import Big from 'big.js';
import type { AuditAction } from '../audit/actions.js';
import { auditChange, eventChange } from '../audit/audit.js';
import type { AuditChange } from '../audit/ports.js';
import type { IdGenerator } from '../ids.js';
import { transferLegs, walletAccount, type Posting, type PostingChange } from '../ledger/posting.js';
import type { PeriodLimitCheck } from '../policies/policy-types.js';
import type { Actor } from '../tenancy.js';
import type { Transaction } from '../types.js';

/** The changes that post a payment: balanced legs, the period counters, its audit entry and event. */
export function paymentPostingChanges(args: {
  transaction: Transaction;
  periodLimits: PeriodLimitCheck[];
  record: Posting['record'];
  actor: Actor;
  ids: IdGenerator;
  auditAction: AuditAction;
  auditResource?: { resource: string; resourceId: string };
}): (PostingChange | AuditChange)[] {
  const { transaction: t } = args;
  const scope = { organizationId: t.organizationId, environment: t.environment };
  const at = t.postedAt ?? t.createdAt;
  const posting: Posting = {
    transactionId: t.id,
    type: t.type,
    ...scope,
    currency: 'USD',
    legs: transferLegs(walletAccount(t.from), walletAccount(t.to), new Big(t.amount)),
    createdAt: at,
    ...(t.description ? { description: t.description } : {}),
    attributes: { ...t },
    record: args.record,
    periodLimits: args.periodLimits,
  };
  return [
    { type: 'posting', posting },
    auditChange(
      {
        ...scope,
        actor: args.actor,
        action: args.auditAction,
        resource: args.auditResource?.resource ?? 'payment',
        resourceId: args.auditResource?.resourceId ?? t.id,
        walletId: t.from,
        metadata: { transactionId: t.id, amount: t.amount, currency: t.currency, recipientWalletId: t.to, status: t.status },
        createdAt: at,
      },
      args.ids,
    ),
    eventChange({ ...scope, type: t.type === 'REVERSAL' ? 'payment.reversed' : 'payment.posted', data: presentPayment(t), createdAt: at }, args.ids),
  ];
}
