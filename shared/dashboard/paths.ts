import { DASHBOARD_ENTRY_PATHS } from '../domain/hosted-urls.js';

const seg = (value: string) => encodeURIComponent(value);

/**
 * Every page of the dashboard (the one list pages link by; the routes in ./route-table.ts serve
 * them). Paths are absolute (`/dashboard/...`) so they can go into links and redirects as they are.
 */
export const DASHBOARD_PATHS = {
  ...DASHBOARD_ENTRY_PATHS,
  overview: '/dashboard',
  signOut: '/dashboard/sign-out',
  signInPasskey: '/dashboard/sign-in/passkey',
  signInRecovery: '/dashboard/sign-in/recovery',
  /** Second factor again (step-up); `next` is where to go back to (a dashboard path). */
  verify: (next: string) => `/dashboard/verify?next=${seg(next)}`,
  security: '/dashboard/security',
  environment: '/dashboard/environment',
  approvals: '/dashboard/approvals',
  decidedApprovals: '/dashboard/approvals?tab=decided',
  approval: (id: string) => `/dashboard/approvals/${seg(id)}`,
  bulkApprove: '/dashboard/approvals/bulk',
  approvalsPoll: '/dashboard/approvals/poll',
  agents: '/dashboard/agents',
  newAgent: '/dashboard/agents/new',
  agent: (id: string) => `/dashboard/agents/${seg(id)}`,
  wallets: '/dashboard/wallets',
  wallet: (id: string) => `/dashboard/wallets/${seg(id)}`,
  walletStatementCsv: (id: string) => `/dashboard/wallets/${seg(id)}/statement.csv`,
  activation: '/dashboard/activation',
  activationKyb: '/dashboard/activation/kyb',
  activationTerms: '/dashboard/activation/terms',
  activationBilling: '/dashboard/activation/billing',
  activationGoLive: '/dashboard/activation/go-live',
  apiKeys: '/dashboard/api-keys',
  newApiKey: '/dashboard/api-keys/new',
  revokeApiKey: (id: string) => `/dashboard/api-keys/${seg(id)}/revoke`,
  webhooks: '/dashboard/webhooks',
  newWebhook: '/dashboard/webhooks/new',
  webhook: (id: string) => `/dashboard/webhooks/${seg(id)}`,
  webhookTest: (id: string) => `/dashboard/webhooks/${seg(id)}/test`,
  webhookResend: (id: string, deliveryId: string) =>
    `/dashboard/webhooks/${seg(id)}/deliveries/${seg(deliveryId)}/resend`,
  team: '/dashboard/team',
  teamRole: (id: string) => `/dashboard/team/${seg(id)}/role`,
  teamRemove: (id: string) => `/dashboard/team/${seg(id)}/remove`,
  teamInvitation: (id: string) => `/dashboard/team/${seg(id)}/invitation`,
  audit: '/dashboard/audit',
  auditCsv: '/dashboard/audit.csv',
  operatorCompliance: '/dashboard/operator/compliance',
  operatorKyb: '/dashboard/operator/kyb',
  operatorKybDecision: (organizationId: string) => `/dashboard/operator/kyb/${seg(organizationId)}`,
  operatorDisputes: '/dashboard/operator/disputes',
  operatorDisputeResolve: (id: string) => `/dashboard/operator/disputes/${seg(id)}/resolve`,
} as const;
