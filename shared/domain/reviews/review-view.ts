import * as z from 'zod/mini';
import { disputeView, presentDispute } from '../disputes/dispute-view.js';
import type { Dispute } from '../disputes/types.js';
import type { Organization } from '../types.js';
import { describe, id, lazy, listOf, text, timestamp, view } from '../views.js';

/** An organization waiting for the operator's KYB decision, with the details it submitted. */
export const kybReviewView = /* @__PURE__ */ lazy(() =>
  view(
    {
      id: id('organization', 'The organization.'),
      name: text('The organization name.'),
      legalName: text('The legal name submitted.'),
      taxId: text('The tax id submitted.'),
      address: describe(
        z.record(z.string(), z.string()),
        'The address submitted (line1, line2, city, state, postalCode, country).',
      ),
      submittedAt: timestamp('When the business details were submitted.'),
    },
    'An organization whose business verification (KYB) waits for the operator.',
    {
      id: 'org_ipK5yfL5D6aVwx00GZAMdBz0',
      name: 'Acme Robotics',
      legalName: 'Acme Robotics LLC',
      taxId: '12-3456789',
      address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      submittedAt: '2026-11-27T10:00:00.000Z',
    },
  ),
);
export type KybReviewView = z.infer<typeof kybReviewView>;

export const kybReviewListView = /* @__PURE__ */ lazy(() =>
  listOf(kybReviewView, 'Organizations waiting for a KYB decision.', 'Oldest submission first, at most 100.'),
);

export const disputeReviewListView = /* @__PURE__ */ lazy(() =>
  listOf(
    disputeView,
    'Disputes waiting for a resolution.',
    'OPEN and RESPONDED disputes of every organization, oldest first, at most 100.',
  ),
);

export function presentKybReview(organization: Organization): KybReviewView {
  return {
    id: organization.id,
    name: organization.name,
    legalName: organization.kyb?.legalName ?? '',
    taxId: organization.kyb?.taxId ?? '',
    address: organization.kyb?.address ?? {},
    submittedAt: organization.kyb?.submittedAt ?? organization.createdAt,
  };
}

export const presentKybReviews = (organizations: Organization[]) => ({ data: organizations.map(presentKybReview) });
export const presentDisputeReviews = (disputes: Dispute[]) => ({ data: disputes.map(presentDispute) });
