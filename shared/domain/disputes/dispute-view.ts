import * as z from 'zod/mini';
import {
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
import { everyOf } from '../enums.js';
import { DISPUTE_STATUSES, DISPUTE_TYPES, type Dispute } from './types.js';

const STATUS_TEXT =
  'OPEN (awaiting the respondent), RESPONDED (awaiting the operator), RESOLVED_AGENT (paid to the payer; also unanswered by `respondBy`), RESOLVED_MERCHANT or CLOSED (back to the receiving wallet).';

/** A dispute as both parties see it (and as its events carry it); never the key that opened it. */
export const disputeView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('dispute', 'Dispute id.'),
      transactionId: id('transaction', 'The disputed payment.'),
      initiatorOrgId: id('organization', 'The paying organization (opened it).'),
      respondentOrgId: id('organization', 'The receiving organization.'),
      payerWalletId: id('wallet', 'The paying wallet (initiator side).'),
      receivingWalletId: id('wallet', 'The receiving wallet (respondent side): the amount was taken from it.'),
      type: enumOf(DISPUTE_TYPES, 'REVERSAL, FRAUD or SERVICE_ISSUE.'),
      amount: money('The disputed amount (in acc_SUSPENSE while OPEN or RESPONDED).'),
      currency: usd(),
      reason: text("The initiator's reason."),
      status: enumOf(DISPUTE_STATUSES, STATUS_TEXT),
      response: nullableText("The respondent's answer, or null."),
      evidenceUrl: nullableText("The respondent's https evidence URL, or null."),
      respondBy: timestamp(
        'Response deadline: opening + 7 days (sandbox: / TIME_SCALE); OPEN past it resolves RESOLVED_AGENT.',
      ),
      respondedAt: nullableTimestamp('When answered, or null.'),
      resolvedBy: describe(
        z.nullable(z.enum(['OPERATOR', 'DEADLINE'])),
        'Who ended it: OPERATOR or DEADLINE; null while open.',
      ),
      resolutionNote: nullableText("The operator's note, or null."),
      resolvedAt: nullableTimestamp('When it ended, or null.'),
      holdTransactionId: id('transaction', 'The DISPUTE movement (receiving wallet to acc_SUSPENSE).'),
      resolutionTransactionId: nullableId(
        'transaction',
        'The DISPUTE_RESOLUTION movement (out of acc_SUSPENSE), or null.',
      ),
      creditedWalletId: nullableId(
        'wallet',
        "Where the amount went (a closed wallet's: its organization's main wallet), or null.",
      ),
      environment: environment(),
      createdAt: timestamp('When it was opened.'),
      updatedAt: timestamp('When it last changed.'),
    },
    'A dispute of a posted payment, as both parties see it.',
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
      reason: 'Never delivered.',
      status: 'RESPONDED',
      response: 'Delivered March 14.',
      evidenceUrl: 'https://shop.example.com/log/8812',
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
      data: describe(z.array(disputeView), 'Newest first.'),
      hasMore: flag('Whether more follow (ask with `offset` + `limit`).'),
      limit: integer('The page size.'),
      offset: integer('Disputes skipped.'),
    },
    'A page of disputes, newest first.',
    { data: [], hasMore: false, limit: 50, offset: 0 },
  ),
);
export type DisputePageView = z.output<typeof disputePageView>;

/** The view's fields a dispute holds under the same name (the rest: `initiatorOrgId`, its `organizationId`); absent ones are null. */
const SHOWN_FIELDS = everyOf<Exclude<keyof DisputeView, 'initiatorOrgId'>>()([
  'id',
  'transactionId',
  'respondentOrgId',
  'payerWalletId',
  'receivingWalletId',
  'type',
  'amount',
  'currency',
  'reason',
  'status',
  'response',
  'evidenceUrl',
  'respondBy',
  'respondedAt',
  'resolvedBy',
  'resolutionNote',
  'resolvedAt',
  'holdTransactionId',
  'resolutionTransactionId',
  'creditedWalletId',
  'environment',
  'createdAt',
  'updatedAt',
]) satisfies readonly (keyof Dispute)[];

/** Only the fields of the view, whatever else the record holds (never `requestedByKeyId`). */
export function presentDispute(dispute: Dispute): DisputeView {
  const shown: Record<string, unknown> = { initiatorOrgId: dispute.organizationId };
  for (const field of SHOWN_FIELDS) shown[field] = dispute[field] ?? null;
  return shown as DisputeView;
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
