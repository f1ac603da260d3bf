import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import type { HotModeService } from '../domain/hot-mode/hot-mode-service.js';
import { presentHotModeWallet } from '../domain/hot-mode/hot-mode-view.js';
import type { ComplianceService } from '../domain/compliance/compliance-service.js';
import type { MerchantService } from '../domain/merchants/merchant-service.js';
import type { ReviewService } from '../domain/reviews/review-service.js';
import { presentDisputeReviews, presentKybReviews } from '../domain/reviews/review-view.js';
import type { createOrganizationService } from '../domain/organizations/organization-service.js';
import { presentCreatedOrganization } from '../domain/organizations/organization-view.js';
import { defineGroup, operation } from './define.js';
import { describe, name, MAX_NAME_LENGTH } from './fields.js';

export interface InternalServices {
  organizations: ReturnType<typeof createOrganizationService>;
  compliance: ComplianceService;
  merchants: MerchantService;
  reviews: ReviewService;
  hotMode: HotModeService;
}

const op = operation<InternalServices>();

/** Operator operations (`svc_admin_` keys), not offered as MCP tools. */
export const INTERNAL = defineGroup<InternalServices>()(
  'internal',
  {
    // The compliance report: counts key items across organizations (Scan), checks that the MCP endpoint has its token (its ARN) and that a stored webhook secret opens.
    grants: ['table:scan', 'mcpToken:locate', 'webhookKey:read'],
  },
  [
    op({
      name: 'createOrganization',
      summary: 'Create an organization',
      description:
        'Creates an organization with its sandbox environment, main wallet and a sandbox admin key (shown once).',
      access: 'operator',
      permission: 'service:admin',
      audit: AUDIT.organization.create,
      events: ['organization.created'],
      http: { method: 'POST', path: '/v1/internal/organizations', status: 201 },
      body: () => z.strictObject({ name: name(`Name of the organization (1-${MAX_NAME_LENGTH} characters).`) }),
      output: 'createdOrganizationView',
      errors: [],
      run: ({ services, auth, audit, body }) => services.organizations.create(auth, audit, body),
      present: presentCreatedOrganization,
    }),
    op({
      name: 'decideKyb',
      summary: "Decide an organization's KYB",
      description: "Records the operator's verification decision on the submitted business details.",
      access: 'operator',
      permission: 'service:admin',
      audit: AUDIT.organization.decideKyb,
      http: { method: 'POST', path: '/v1/internal/organizations/{id}/kyb', status: 200 },
      params: { id: 'The organization id (`org_...`).' },
      body: () => z.strictObject({ status: describe(z.enum(['VERIFIED', 'REJECTED']), 'The decision.') }),
      output: 'kybDecisionView',
      errors: ['ORGANIZATION_NOT_FOUND'],
      run: ({ services, auth, audit, params, body }) =>
        services.organizations.decideKyb(auth, audit, params.id!, body.status),
    }),
    op({
      name: 'getCompliance',
      summary: 'Run the compliance report',
      description:
        "Checks the service's security controls against real data (key hygiene, encryption of stored secrets, headers, MCP auth).",
      access: 'operator',
      permission: 'service:admin',
      http: { method: 'GET', path: '/v1/internal/compliance', status: 200 },
      output: 'complianceReportView',
      errors: [],
      run: ({ services }) => services.compliance.check(),
    }),
    op({
      name: 'listPendingKyb',
      summary: 'List organizations waiting for a KYB decision',
      description:
        'Organizations whose business details were submitted and not decided yet (kybStatus PENDING), with the details, oldest submission first (at most 100). Decide with POST /v1/internal/organizations/{id}/kyb.',
      access: 'operator',
      permission: 'service:admin',
      http: { method: 'GET', path: '/v1/internal/kyb-reviews', status: 200 },
      output: 'kybReviewListView',
      errors: [],
      run: ({ services }) => services.reviews.pendingKyb(),
      present: presentKybReviews,
    }),
    op({
      name: 'listOpenDisputes',
      summary: 'List disputes waiting for a resolution',
      description:
        'OPEN and RESPONDED disputes of every organization, oldest first (at most 100). Resolve with POST /v1/disputes/{id}/resolve.',
      access: 'operator',
      permission: 'service:admin',
      http: { method: 'GET', path: '/v1/internal/dispute-reviews', status: 200 },
      output: 'disputeReviewListView',
      errors: [],
      run: ({ services }) => services.reviews.openDisputes(),
      present: presentDisputeReviews,
    }),
    op({
      name: 'suspendMerchant',
      summary: 'Suspend a merchant',
      description: 'Suspends a merchant domain: payments to it answer MERCHANT_SUSPENDED.',
      access: 'operator',
      permission: 'service:admin',
      audit: AUDIT.merchant.suspend,
      http: { method: 'POST', path: '/v1/internal/merchants/{domain}/suspend', status: 200 },
      params: { domain: 'The merchant domain, e.g. shop.example.com.' },
      output: 'merchantSuspendedView',
      errors: ['MERCHANT_NOT_FOUND'],
      run: ({ services, auth, audit, params }) => services.merchants.suspend(auth, audit, params.domain!),
    }),
    op({
      name: 'setWalletHotMode',
      summary: "Turn a wallet's hot mode on or off",
      description:
        'Hot mode lets one wallet take thousands of payments per second in and out, exact to the cent (docs/api.md "Hot wallets"). On: the wallet is promoted at once. Off: the wallet cools (hotMode.state COOLING) and is cold again about a minute later, every cent folded back. A call that changes nothing answers the wallet as it is. Audited as wallet.hot_mode.enabled or wallet.hot_mode.disabled in the organization\'s log.',
      access: 'operator',
      permission: 'service:admin',
      // Declares the "on" action; "off" writes its pair, wallet.hot_mode.disabled (the service picks by `enabled`).
      audit: AUDIT.wallet.enableHotMode,
      http: { method: 'POST', path: '/v1/internal/wallets/{walletId}/hot-mode', status: 200 },
      params: { walletId: 'The wallet id (`wal_...`), of any organization.' },
      body: () => z.strictObject({ enabled: describe(z.boolean(), 'true: turn hot mode on; false: turn it off.') }),
      output: 'hotModeWalletView',
      errors: ['WALLET_NOT_FOUND', 'INVALID_STATE'],
      run: ({ services, auth, audit, params, body }) =>
        services.hotMode.setHotMode(auth, audit, params.walletId!, body.enabled),
      present: presentHotModeWallet,
    }),
  ],
);
