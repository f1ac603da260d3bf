import * as z from 'zod/mini';
import {
  type Conforms,
  describe,
  enumOf,
  environment,
  flag,
  id,
  integer,
  lazy,
  money,
  nullableId,
  nullableText,
  nullableTimestamp,
  text,
  timestamp,
  usd,
  view,
} from '../views.js';
import { DISPUTE_STATUSES, DISPUTE_TYPES, type Dispute } from './types.js';

const STATUS_TEXT =
  'OPEN (the amount is held in suspense, waiting for the respondent), RESPONDED (answered; waiting for the operator), RESOLVED_AGENT (the initiator won: the amount went to its paying wallet; also when the respondent did not answer by `respondBy`), RESOLVED_MERCHANT (the respondent won: the amount went back to its wallet) or CLOSED (closed without remedy: the amount went back to the receiving wallet).';

/** A dispute as both parties see it (and as its events carry it); never the key that opened it. */
export const disputeView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('dispute', 'Dispute id.'),
      transactionId: id('transaction', 'The disputed payment.'),
      initiatorOrgId: id('organization', 'The organization that paid and opened the dispute.'),
      respondentOrgId: id('organization', 'The organization that received the payment.'),
      payerWalletId: id('wallet', "The disputed payment's paying wallet (the initiator's)."),
      receivingWalletId: id(
        'wallet',
        "The disputed payment's receiving wallet (the respondent's): the amount was taken from it.",
      ),
      type: enumOf(DISPUTE_TYPES, 'What the initiator says happened: REVERSAL, FRAUD or SERVICE_ISSUE.'),
      amount: money('The disputed amount, held in acc_SUSPENSE while the dispute is OPEN or RESPONDED.'),
      currency: usd(),
      reason: text("The initiator's reason."),
      status: enumOf(DISPUTE_STATUSES, STATUS_TEXT),
      response: nullableText("The respondent's explanation, or null before it answered."),
      evidenceUrl: nullableText('An https URL of the evidence the respondent gave, or null.'),
      respondBy: timestamp(
        'The response deadline: 7 days after the opening (sandbox: divided by TIME_SCALE). An OPEN dispute past it resolves RESOLVED_AGENT.',
      ),
      respondedAt: nullableTimestamp('When the respondent answered, or null.'),
      resolvedBy: describe(
        z.nullable(z.enum(['OPERATOR', 'DEADLINE'])),
        "Who ended it: OPERATOR (the service operator's decision) or DEADLINE (no answer by `respondBy`); null while open.",
      ),
      resolutionNote: nullableText("The operator's note, or null."),
      resolvedAt: nullableTimestamp('When it ended, or null.'),
      holdTransactionId: id(
        'transaction',
        'The ledger movement (DISPUTE) that took the amount from the receiving wallet into acc_SUSPENSE.',
      ),
      resolutionTransactionId: nullableId(
        'transaction',
        'The ledger movement (DISPUTE_RESOLUTION) that paid the amount out of acc_SUSPENSE, or null while open.',
      ),
      creditedWalletId: nullableId(
        'wallet',
        "The wallet the amount went to at the end (the winner's wallet; its organization's main wallet when that wallet was closed), or null while open.",
      ),
      environment: environment(),
      createdAt: timestamp('When it was opened.'),
      updatedAt: timestamp('When it last changed.'),
    },
    'A dispute of a posted payment: the paying organization challenges it, the amount waits in suspense until the respondent answers and the operator decides, or the deadline passes.',
    {
      id: 'dsp_5Kq2Wm8Zr4Tb1Xn7Lp3Vc9Qd',
      transactionId: 'txn_3v69JCj7iUJJIENQ5uIkffiK',
      initiatorOrgId: 'org_8Hq2Zt5Lm9Rw4Xb1KcV8nYs3',
      respondentOrgId: 'org_2Lm9Rw4Xb1KcV8nYs3D7Qm2Z',
      payerWalletId: 'wal_xZTRJjUn1z5KLKFL2fXHmE5h',
      receivingWalletId: 'wal_eHZu8N9uBMLgsPmm9M53GS6w',
      type: 'SERVICE_ISSUE',
      amount: '40.00',
      currency: 'USD',
      reason: 'The API credits were never delivered.',
      status: 'RESPONDED',
      response: 'Credits were delivered on March 14; see the delivery log.',
      evidenceUrl: 'https://merchant.example.com/evidence/8812',
      respondBy: '2026-03-22T10:00:00.000Z',
      respondedAt: '2026-03-16T09:30:00.000Z',
      resolvedBy: null,
      resolutionNote: null,
      resolvedAt: null,
      holdTransactionId: 'txn_7Wm8Zr4Tb1Xn7Lp3Vc9Qd5Kq',
      resolutionTransactionId: null,
      creditedWalletId: null,
      environment: 'SANDBOX',
      createdAt: '2026-03-15T10:00:00.000Z',
      updatedAt: '2026-03-16T09:30:00.000Z',
    },
  ),
);
export type DisputeView = z.output<typeof disputeView>;

/** GET /v1/disputes: limit and offset (interface-spec 4.12 names disputes as the list without cursors). */
export const disputePageView = /* @__PURE__ */ lazy(() =>
  view(
    {
      data: describe(z.array(disputeView), 'The disputes of this page, newest first (at most `limit`).'),
      hasMore: flag('Whether more disputes follow: ask again with `offset` + `limit`.'),
      limit: integer('The page size used.'),
      offset: integer('How many disputes were skipped.'),
    },
    'A page of the disputes where the caller is the initiator or the respondent, newest first.',
    { data: [], hasMore: false, limit: 50, offset: 0 },
  ),
);
export type DisputePageView = z.output<typeof disputePageView>;

export function presentDispute(dispute: Dispute): DisputeView {
  return {
    id: dispute.id,
    transactionId: dispute.transactionId,
    initiatorOrgId: dispute.organizationId,
    respondentOrgId: dispute.respondentOrgId,
    payerWalletId: dispute.payerWalletId,
    receivingWalletId: dispute.receivingWalletId,
    type: dispute.type,
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
    response: dispute.response ?? null,
    evidenceUrl: dispute.evidenceUrl ?? null,
    respondBy: dispute.respondBy,
    respondedAt: dispute.respondedAt ?? null,
    resolvedBy: dispute.resolvedBy ?? null,
    resolutionNote: dispute.resolutionNote ?? null,
    resolvedAt: dispute.resolvedAt ?? null,
    holdTransactionId: dispute.holdTransactionId,
    resolutionTransactionId: dispute.resolutionTransactionId ?? null,
    creditedWalletId: dispute.creditedWalletId ?? null,
    environment: dispute.environment,
    createdAt: dispute.createdAt,
    updatedAt: dispute.updatedAt,
  };
}

export interface DisputePage {
  items: Dispute[];
  hasMore: boolean;
  limit: number;
  offset: number;
}

export function presentDisputePage(page: DisputePage): DisputePageView {
  return { data: page.items.map(presentDispute), hasMore: page.hasMore, limit: page.limit, offset: page.offset };
}

/** Type-only: the presenters fit their views. */
export type DisputeViewsConform = [Conforms<ReturnType<typeof presentDispute>, DisputeView>];
