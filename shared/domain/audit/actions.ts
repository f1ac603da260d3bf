/**
 * Audit action names (interface-spec 2.11): `<resource>.<verb>`, declared once here. Services
 * write them and catalog operations name the one they write, both by reference to this table.
 */
export const AUDIT = {
  organization: {
    create: 'organization.create',
    submitKyb: 'organization.kyb.submit',
    decideKyb: 'organization.kyb.decide',
    acceptTos: 'organization.tos.accept',
    addBillingMethod: 'organization.billing-method.add',
    activateProduction: 'organization.production.activate',
  },
  apiKey: { create: 'api-key.create', update: 'api-key.update', revoke: 'api-key.revoke', rotate: 'api-key.rotate' },
  wallet: {
    create: 'wallet.create',
    fund: 'wallet.fund',
    freeze: 'wallet.freeze',
    unfreeze: 'wallet.unfreeze',
    close: 'wallet.close',
    adjustBudget: 'wallet.budget.adjust',
    /** The operator's hot-mode switch (decisions.md section 13): one operation, the action named by `enabled`. */
    enableHotMode: 'wallet.hot_mode.enabled',
    disableHotMode: 'wallet.hot_mode.disabled',
  },
  payment: { create: 'payment.created', reverse: 'payment.reversed', fail: 'payment.failed' },
  policy: { create: 'policy.create', update: 'policy.update', delete: 'policy.delete' },
  approval: { approve: 'approval.approved', reject: 'approval.rejected', expire: 'approval.expired' },
  merchant: { upsert: 'merchant.upsert', suspend: 'merchant.suspend' },
  transfer: {
    deposit: 'transfer.deposit',
    withdraw: 'transfer.withdraw',
    internal: 'transfer.internal',
    cancel: 'transfer.cancel',
    advance: 'transfer.advance',
  },
  webhook: {
    create: 'webhook.create',
    delete: 'webhook.delete',
    test: 'webhook.test',
    retryDelivery: 'webhook.delivery.retry',
  },
  card: {
    create: 'card.create',
    update: 'card.update',
    freeze: 'card.freeze',
    unfreeze: 'card.unfreeze',
    cancel: 'card.cancel',
    viewDetails: 'card.details.viewed',
    authorize: 'card.authorization.create',
    capture: 'card.authorization.capture',
    reverse: 'card.authorization.reverse',
    refund: 'card.refund.create',
  },
  cardholder: { create: 'cardholder.create' },
  bankAccount: {
    create: 'bank-account.create',
    verify: 'bank-account.verify',
    verificationFailed: 'bank-account.verification-failed',
    delete: 'bank-account.delete',
  },
  customer: {
    create: 'customer.create',
    update: 'customer.update',
    createSetupUrl: 'customer.payment-method.setup-url',
    createUpdateUrl: 'customer.payment-method.update-url',
    savePaymentMethod: 'customer.payment-method.save',
    updatePaymentMethod: 'customer.payment-method.update',
    removePaymentMethod: 'customer.payment-method.remove',
  },
  invoice: {
    create: 'invoice.create',
    finalize: 'invoice.finalize',
    checkout: 'invoice.checkout',
    void: 'invoice.void',
    refund: 'invoice.refund',
    pay: 'invoice.pay',
    paymentFailed: 'invoice.payment-failed',
    charge: 'invoice.charge',
    uncollectible: 'invoice.uncollectible',
    cancelRecurring: 'invoice.recurring.cancel',
    usdcAddress: 'invoice.usdc-address',
    usdcIncoming: 'invoice.usdc.incoming',
  },
  paymentLink: {
    create: 'payment-link.create',
    cancel: 'payment-link.cancel',
    expire: 'payment-link.expire',
    claim: 'payment-link.claim',
    settle: 'payment-link.settle',
    claimFailed: 'payment-link.claim-failed',
  },
  dispute: {
    create: 'dispute.create',
    respond: 'dispute.respond',
    /** The operator's outcome, or the deadline's (actor SYSTEM). */
    resolve: 'dispute.resolve',
  },
  /**
   * People of the dashboard (decisions.md section 12): invitations, membership, sign-in and its
   * factors, sessions. Written with the IP address and the user agent (`details.userAgent`).
   */
  user: {
    invite: 'user.invite',
    accept: 'user.accept',
    changeRole: 'user.role.change',
    remove: 'user.remove',
    login: 'user.login',
    loginFail: 'user.login.fail',
    logout: 'user.logout',
    addFactor: 'user.factor.add',
    removeFactor: 'user.factor.remove',
    useRecoveryCode: 'user.recovery-code.use',
    regenerateRecoveryCodes: 'user.recovery-codes.regenerate',
    stepUp: 'user.step-up',
    revokeSession: 'user.session.revoke',
  },
} as const;

type Actions = typeof AUDIT;
export type AuditAction = { [R in keyof Actions]: Actions[R][keyof Actions[R]] }[keyof Actions];

export const AUDIT_ACTIONS: readonly AuditAction[] = Object.values(AUDIT).flatMap(
  (verbs) => Object.values(verbs) as AuditAction[],
);
