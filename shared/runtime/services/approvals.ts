import { hostedUrl } from '../../config/hosted-urls.js';
import { createApprovalService, type ApprovalService } from '../../domain/approvals/approval-service.js';
import type { ApprovalStore } from '../../domain/approvals/ports.js';
import { paymentLinkApprovals } from '../../domain/payment-links/payment-link-approvals.js';
import { createApprovalStore } from '../../persistence/approval-store.js';
import { createPaymentLinkStore } from '../../persistence/payment-link-store.js';
import type { Core } from '../core.js';
import { log } from '../../observability/log.js';
import { invoicePaymentRiders } from './invoice-wallet-payments.js';

/**
 * The approval service of every runtime that decides approvals (the approvals group, MCP, the
 * expiry worker and the expiry sweep): queued payments with their riders (invoices), and payment
 * links as subjects (their link read, their hold voided when refused).
 */
export function approvalService(
  core: Core,
  { store = createApprovalStore(core.table) }: { store?: ApprovalStore } = {},
): ApprovalService {
  const subjects = paymentLinkApprovals({
    ...core.deps,
    store: createPaymentLinkStore(core.table),
    hostedUrl: (path) => hostedUrl(core.config, path),
    log,
  });
  return createApprovalService({ ...core.deps, store }, { riders: invoicePaymentRiders(core), subjects });
}
