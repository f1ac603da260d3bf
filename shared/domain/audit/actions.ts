/** Audit action names (interface-spec 2.11): `<resource>.<verb>`, one list. */
export const AUDIT_ACTIONS = [
  'organization.create', 'organization.kyb.submit', 'organization.kyb.decide',
  'organization.tos.accept', 'organization.billing-method.add', 'organization.production.activate',
  'api-key.create', 'api-key.update', 'api-key.revoke',
  'wallet.create', 'wallet.fund', 'wallet.freeze', 'wallet.unfreeze', 'wallet.close', 'wallet.budget.adjust',
  'api-key.rotate',
  'payment.created', 'payment.reversed', 'payment.failed',
  'policy.create', 'policy.update', 'policy.delete',
  'approval.approved', 'approval.rejected', 'approval.expired',
  'merchant.upsert', 'merchant.suspend',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
