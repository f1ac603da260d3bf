import Big from 'big.js';
import { AUDIT } from '../audit/actions.js';
import type { EmittedEventName } from '../event-names.js';
import { formatAmount } from '../money.js';
import { presentPayment } from '../payments/payment-view.js';
import type { Environment } from '../tenancy.js';
import type { AuditEntry, OutboxEvent, Transaction } from '../types.js';
import { derivedId } from './derived-ids.js';
import { movedMoney, type JournalRecord } from './journal.js';
import type { TransactionType } from './posting.js';

/**
 * What the journal projects (decisions.md sections 8 and 9): a movement's audit entry, its event,
 * and the organization-wide payment lists. Each has an id derived from the record, so the
 * projector (the table's stream consumer) and `npm run journal:replay` write it at most once
 * (`attribute_not_exists`), whatever runs twice. The record is the truth; these are rebuildable.
 */
export interface PaymentListing {
  organizationId: string;
  environment: Environment;
  transactionId: string;
  createdAt: string;
}

export interface JournalProjections {
  audit?: AuditEntry;
  events: OutboxEvent[];
  listings: PaymentListing[];
}

/** Journal record types listed by GET /v1/payments (fundings, budget moves, sweeps and holds show in statements only). */
export const LISTED_AS_PAYMENTS: ReadonlySet<TransactionType> = new Set(['PAYMENT', 'REVERSAL']);

/**
 * What a stream record did to a journal record, told from its old image by journal-stream.ts
 * journalChangeOf: INSERT its first write (also one written over its key's expired answer), POSTED
 * a later change that made it POSTED (a queued payment approved), MODIFY any other later change.
 */
export type JournalChangeKind = 'INSERT' | 'POSTED' | 'MODIFY';

/**
 * Which changes project anything: a record's first write, or the one that posted it. Other changes
 * (REVERSED, a hold settled, an answer saved, a dispute's mark) project nothing new, so they cost no
 * write and never publish an event twice.
 */
export function projectsOnChange(change: JournalChangeKind): boolean {
  return change !== 'MODIFY';
}

export async function projectionsOf(record: JournalRecord): Promise<JournalProjections> {
  const listings = LISTED_AS_PAYMENTS.has(record.type)
    ? [...new Set([record.organizationId, record.payeeOrganizationId ?? record.organizationId])].map(
        (organizationId) => ({
          organizationId,
          environment: record.environment,
          transactionId: record.id,
          createdAt: record.createdAt,
        }),
      )
    : [];
  if (!movedMoney(record) || !record.audit) return { events: [], listings };
  const audit = await auditEntryOf(record);
  const event = await eventOf(record);
  return { ...(audit ? { audit } : {}), events: event ? [event] : [], listings };
}

/** The payment a record holds, as it posted (what its event says whatever happened to it since). */
function asPosted(record: JournalRecord): Transaction {
  const {
    legs: _l,
    audit: _a,
    idempotencyFingerprint: _f,
    reply: _r,
    approvalExpiresAt: _e,
    capturedAmount: _c,
    settledBy: _s,
    holdId: _h,
    reversedBy: _rb,
    failureCode: _fc,
    disputeId: _d,
    ...rest
  } = record;
  return { ...(rest as Transaction), status: 'POSTED' };
}

async function auditEntryOf(record: JournalRecord): Promise<AuditEntry | undefined> {
  const descriptor = record.audit!;
  const at = record.postedAt ?? record.createdAt;
  const paymentFacts = {
    transactionId: record.id,
    amount: record.amount,
    currency: record.currency,
    recipientWalletId: record.to,
    status: 'POSTED',
  };
  const subject = (():
    { resource: string; resourceId: string; walletId: string; metadata: Record<string, unknown> } | undefined => {
    switch (descriptor.action) {
      case AUDIT.payment.create:
        return { resource: 'payment', resourceId: record.id, walletId: record.from, metadata: paymentFacts };
      case AUDIT.payment.reverse:
        return {
          resource: 'payment',
          resourceId: record.reversalOf ?? record.id,
          walletId: record.from,
          metadata: paymentFacts,
        };
      case AUDIT.approval.approve:
        return {
          resource: 'approval',
          resourceId: record.approvalId ?? record.id,
          walletId: record.from,
          metadata: paymentFacts,
        };
      case AUDIT.wallet.fund:
        return {
          resource: 'wallet',
          resourceId: record.to,
          walletId: record.to,
          metadata: { amount: record.amount, currency: record.currency, transactionId: record.id },
        };
      case AUDIT.wallet.adjustBudget: {
        const agent = descriptor.resourceId ?? record.to;
        const signed = record.from === agent ? new Big(record.amount).times(-1) : new Big(record.amount);
        return {
          resource: 'wallet',
          resourceId: agent,
          walletId: agent,
          metadata: {
            transactionId: record.id,
            amount: formatAmount(signed),
            currency: record.currency,
            recipientWalletId: record.to,
          },
        };
      }
      default:
        return undefined;
    }
  })();
  if (!subject) return undefined;
  return {
    id: await derivedId('auditLog', `audit|${record.id}|${descriptor.action}`),
    organizationId: record.organizationId,
    environment: record.environment,
    actorType: descriptor.actor.actorType,
    actorId: descriptor.actor.actorId,
    action: descriptor.action,
    resource: subject.resource,
    resourceId: subject.resourceId,
    metadata: subject.metadata,
    ipAddress: descriptor.actor.ipAddress,
    createdAt: at,
    walletId: subject.walletId,
  };
}

async function eventOf(record: JournalRecord): Promise<OutboxEvent | undefined> {
  const at = record.postedAt ?? record.createdAt;
  const typed = ((): { type: EmittedEventName; data: Record<string, unknown> } | undefined => {
    switch (record.type) {
      case 'PAYMENT':
        return { type: 'payment.posted', data: presentPayment(asPosted(record)) };
      case 'REVERSAL':
        return { type: 'payment.reversed', data: presentPayment(asPosted(record)) };
      case 'FUNDING':
        return {
          type: 'wallet.funded',
          data: { walletId: record.to, transactionId: record.id, amount: record.amount, currency: 'USD' },
        };
      default:
        return undefined;
    }
  })();
  if (!typed) return undefined;
  return {
    id: await derivedId('event', `event|${record.id}|${typed.type}`),
    type: typed.type,
    organizationId: record.organizationId,
    environment: record.environment,
    createdAt: at,
    data: typed.data,
  };
}
