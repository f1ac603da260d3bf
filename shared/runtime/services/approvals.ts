import { createApprovalService, type ApprovalService } from '../../domain/approvals/approval-service.js';
import type { ApprovalStore } from '../../domain/approvals/ports.js';
import { createApprovalStore } from '../../persistence/approval-store.js';
import type { Core } from '../core.js';
import { invoicePaymentRiders } from './invoice-wallet-payments.js';

export function approvalService(
  core: Core,
  { store = createApprovalStore(core.table) }: { store?: ApprovalStore } = {},
): ApprovalService {
  return createApprovalService({ ...core.deps, store }, { riders: invoicePaymentRiders(core) });
}
