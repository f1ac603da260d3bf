import { presentApproval } from './approval-view.js';
import Big from 'big.js';
import { AUDIT, type AuditAction } from '../audit/actions.js';
import { assertAccessible, scopeOf } from '../access.js';
import { eventChange } from '../audit/audit.js';
import { ApiError, notFound, QUEUED_POSTING_FAILURES, type ErrorCode } from '../errors.js';
import { evaluatePolicies } from '../policies/policy-rules.js';
import type { ServiceDeps } from '../ports.js';
import type { ChangeOf } from '../change-committer.js';
import { NO_SUBJECTS, type ApprovalSubjects } from './approval-subjects.js';
import { decisionAuditOf, decisionChanges, isSubjectApproval } from './approval-decisions.js';
import type { ApprovalFilter, ApprovalStore } from './ports.js';
import type { Actor, RequestContext } from '../tenancy.js';
import type { Approval, Page, PageRequest, Transaction } from '../types.js';
import { paymentPosting } from '../payments/payment-posting.js';
import { NO_RIDERS, type PaymentRider, type PaymentRiders } from '../payments/payment-rider.js';
import { spendOf } from '../policies/spend.js';

export const EXPIRY_BATCH_SIZE = 25;

type StoreChange = ChangeOf<ApprovalStore>;

/**
 * Human approval of queued payments (decisions.md section 3). `riders` finds what a queued payment
 * pays besides its payee (an invoice: payments/payment-rider.ts) when it is approved; `subjects`
 * what an approval decides that is not a queued payment (a payment link: approval-subjects.ts).
 */
export function createApprovalService(
  deps: ServiceDeps<ApprovalStore>,
  { riders = NO_RIDERS, subjects = NO_SUBJECTS }: { riders?: PaymentRiders; subjects?: ApprovalSubjects } = {},
) {
  const { store, clock, ids } = deps;

  async function get(ctx: RequestContext, approvalId: string): Promise<Approval> {
    const scope = scopeOf(ctx.principal);
    const approval = await store.getApproval(approvalId);
    if (!approval || approval.organizationId !== scope.organizationId) throw notFound('APPROVAL_NOT_FOUND', approvalId);
    if (ctx.principal.walletId !== null && ctx.principal.walletId !== approval.walletId)
      throw notFound('APPROVAL_NOT_FOUND', approvalId);
    if (approval.environment !== scope.environment) throw new ApiError('ENVIRONMENT_MISMATCH');
    return approval;
  }

  async function list(ctx: RequestContext, filter: ApprovalFilter, page: PageRequest): Promise<Page<Approval>> {
    const scope = scopeOf(ctx.principal);
    const own = ctx.principal.walletId;
    if (own !== null && filter.walletId !== undefined && filter.walletId !== own)
      throw notFound('WALLET_NOT_FOUND', filter.walletId);
    // A wallet filter names a wallet the key may see: another organization's answers 404, as everywhere.
    if (own === null && filter.walletId !== undefined)
      assertAccessible(ctx.principal, (await store.getWalletSnapshot(filter.walletId))?.wallet, filter.walletId);
    return store.listApprovals(
      scope.organizationId,
      scope.environment,
      { ...filter, walletId: own ?? filter.walletId },
      page,
    );
  }

  const decisionAudit = decisionAuditOf(ids);

  /** Only an organization-level admin key that did not request the payment may decide. */
  async function loadForDecision(ctx: RequestContext, approvalId: string): Promise<Approval> {
    const approval = await get(ctx, approvalId);
    if (approval.requestedByKeyId === ctx.principal.keyId) {
      throw new ApiError('PERMISSION_DENIED', 'The key that requested a payment cannot decide its approval.');
    }
    if (approval.status !== 'PENDING')
      throw new ApiError('INVALID_STATE', `The approval is already ${approval.status}.`, { status: approval.status });
    // Past its expiry it can no longer be decided, even before the scheduled job has run: it is
    // expired here, a consequence of the refused decision, so its action is named here.
    const now = clock.now();
    if (approval.expiresAt <= now.toISOString()) {
      await expireOne(AUDIT.approval.expire, approval, now);
      throw new ApiError('INVALID_STATE', 'The approval has expired.', { status: 'EXPIRED' });
    }
    return approval;
  }

  /**
   * Posts the queued payment at once. The deny rules are evaluated again against the policies of
   * now (a limit tightened since the request applies); funds, freeze and period limits are
   * conditions of the posting itself.
   */
  async function approve(
    ctx: RequestContext,
    action: AuditAction,
    approvalId: string,
    note: string | undefined,
  ): Promise<Approval> {
    const approval = await loadForDecision(ctx, approvalId);
    if (isSubjectApproval(approval)) return approveSubject(ctx, action, approval, note);
    const now = clock.now();
    const at = now.toISOString();
    const queued = await store.getTransaction(approval.transactionId);
    if (!queued) throw new Error(`approval ${approval.id} has no transaction ${approval.transactionId}`);
    const posted: Transaction = { ...queued, status: 'POSTED', postedAt: at };
    const [snapshot, rider] = await Promise.all([store.getWalletSnapshot(approval.walletId), riderOf(queued)]);
    const { decided, changes } = decisionChanges(approval, 'approve', ctx.actor, note ? { note } : {}, at);
    // What it pays can no longer be paid (an invoice paid otherwise or voided meanwhile): nothing
    // posts and the approval ends FAILED with the rider's code, like a failed re-check of funds.
    const refusal = rider?.refusal();
    if (refusal instanceof ApiError) return fail(ctx.actor, action, approval, refusal.code, at, note);
    if (refusal) throw refusal;
    try {
      const aliases = approval.payment.merchant ? [`merchant:${approval.payment.merchant}`] : [];
      const amount = new Big(queued.amount);
      const counters = snapshot?.counters ?? [];
      const { periodLimits } = evaluatePolicies(snapshot?.policies ?? [], counters, {
        walletId: approval.walletId,
        to: queued.to,
        toAliases: aliases,
        amount,
        at: now,
      });
      // The payment's audit entry (approval.approved, naming the approval) and payment.posted are projected from its journal record.
      await store.commit([
        ...changes,
        paymentPosting({
          transaction: posted,
          record: 'fromQueued',
          actor: ctx.actor,
          auditAction: action,
          spend: spendOf(approval.walletId, amount, now, periodLimits, counters, snapshot?.policyVersion),
        }),
        ...(rider ? rider.changesOnPost(posted, ctx.actor) : []),
        eventChange(
          { ...scopeOf(ctx.principal), type: 'approval.approved', data: presentApproval(decided), createdAt: at },
          ids,
        ),
      ]);
      return decided;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (QUEUED_POSTING_FAILURES.has(error.code) || (await riderLost(rider, error, approval.id)))
        return fail(ctx.actor, action, approval, error.code, at, note);
      throw error;
    }
  }

  /**
   * Approves what is not a queued payment (a payment link): nothing posts, the subject's changes
   * commit with the decision. A subject that can no longer be approved (the link expired
   * meanwhile, before or during the commit) makes the approval FAILED with the refusal's code.
   */
  async function approveSubject(
    ctx: RequestContext,
    action: AuditAction,
    approval: Approval & { paymentLinkId: string },
    note: string | undefined,
  ): Promise<Approval> {
    const at = clock.now().toISOString();
    const { decided, changes } = decisionChanges(approval, 'approve', ctx.actor, note ? { note } : {}, at);
    const outcome = await (await subjects.subjectOf(approval)).onApproved(decided, ctx.actor, at);
    if (outcome instanceof ApiError) return fail(ctx.actor, action, approval, outcome.code, at, note);
    if (outcome instanceof Error) throw outcome;
    try {
      await store.commit([
        ...changes,
        ...outcome,
        decisionAudit(approval, ctx.actor, action, at, {}),
        eventChange(
          { ...scopeOf(ctx.principal), type: 'approval.approved', data: presentApproval(decided), createdAt: at },
          ids,
        ),
      ]);
      return decided;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_STATE' && (await stillPending(approval.id)))
        return fail(ctx.actor, action, approval, error.code, at, note);
      throw error;
    }
  }

  const stillPending = async (approvalId: string) => (await store.getApproval(approvalId))?.status === 'PENDING';

  /**
   * What a refusal (rejection, expiry, failure) does to what the `decided` approval was for: the
   * queued payment moves by `trigger` (with `fields`), or the subject gives its changes (read again each time).
   */
  async function refusalOf(
    approval: Approval,
    actor: Actor,
    at: string,
    trigger: 'reject' | 'fail',
    fields?: { failureCode: string },
  ): Promise<StoreChange[]> {
    if (isSubjectApproval(approval)) return (await subjects.subjectOf(approval)).onRefused(approval, actor, at);
    return [
      {
        type: 'setTransactionStatus',
        transactionId: approval.transactionId,
        trigger,
        ...(fields ? { fields } : {}),
        onMismatch: 'INVALID_STATE',
      },
    ];
  }

  /**
   * Commits a refusal. A subject's condition may fail while the approval is still PENDING (the
   * link expired between its read and the commit): the changes are built again (the subject then
   * has none), at most three times. A queued payment's commit is tried once, as it always was.
   */
  async function commitRefusal(approval: Approval, build: () => Promise<StoreChange[]>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await store.commit(await build());
        return;
      } catch (error) {
        const retry =
          isSubjectApproval(approval) &&
          attempt < 3 &&
          error instanceof ApiError &&
          error.code === 'INVALID_STATE' &&
          (await stillPending(approval.id));
        if (!retry) throw error;
      }
    }
  }

  const riderOf = (queued: Transaction): Promise<PaymentRider | undefined> =>
    queued.invoiceId === undefined
      ? Promise.resolve(undefined)
      : riders.riderOf({ ...queued, invoiceId: queued.invoiceId });

  /**
   * A commit refused with INVALID_STATE while the approval is still PENDING: the rider's own
   * condition failed (the invoice changed between its read and the commit), not the decision.
   */
  async function riderLost(rider: PaymentRider | undefined, error: ApiError, approvalId: string): Promise<boolean> {
    if (!rider || error.code !== 'INVALID_STATE') return false;
    return (await store.getApproval(approvalId))?.status === 'PENDING';
  }

  /** The approval could not post: it ends FAILED with the reason, and the payment FAILED (audited as the approval, with the FAILED status). */
  async function fail(
    actor: Actor,
    action: AuditAction,
    approval: Approval,
    failureCode: ErrorCode,
    at: string,
    note: string | undefined,
  ): Promise<Approval> {
    const { decided, changes } = decisionChanges(
      approval,
      'fail',
      actor,
      { failureCode, ...(note ? { note } : {}) },
      at,
    );
    const scope = { organizationId: approval.organizationId, environment: approval.environment };
    // A subject has no payment to fail: its own refusal (the link CANCELLED, when still waiting) says it.
    const failed = !isSubjectApproval(approval)
      ? [
          eventChange(
            {
              ...scope,
              type: 'payment.failed',
              data: { transactionId: approval.transactionId, approvalId: approval.id, failureCode },
              createdAt: at,
            },
            ids,
          ),
        ]
      : [];
    await commitRefusal(approval, async () => [
      ...changes,
      ...(await refusalOf(decided, actor, at, 'fail', { failureCode })),
      decisionAudit(approval, actor, action, at, { status: 'FAILED', failureCode }),
      ...failed,
    ]);
    return decided;
  }

  async function reject(
    ctx: RequestContext,
    action: AuditAction,
    approvalId: string,
    reason: string | undefined,
  ): Promise<Approval> {
    const approval = await loadForDecision(ctx, approvalId);
    const at = clock.now().toISOString();
    const { decided, changes } = decisionChanges(
      approval,
      'reject',
      ctx.actor,
      reason ? { rejectionReason: reason } : {},
      at,
    );
    const scope = { organizationId: approval.organizationId, environment: approval.environment };
    await commitRefusal(approval, async () => [
      ...changes,
      ...(await refusalOf(decided, ctx.actor, at, 'reject')),
      decisionAudit(approval, ctx.actor, action, at, reason ? { reason } : {}),
      eventChange({ ...scope, type: 'approval.rejected', data: presentApproval(decided), createdAt: at }, ids),
    ]);
    return decided;
  }

  /** Expires one pending approval (actor SYSTEM); false if a person decided it meanwhile. */
  async function expireOne(action: AuditAction, approval: Approval, now: Date): Promise<boolean> {
    const at = now.toISOString();
    const actor: Actor = { actorType: 'SYSTEM', actorId: 'approval-expiry', ipAddress: '127.0.0.1' };
    const { decided, changes } = decisionChanges(approval, 'expire', actor, { failureCode: 'APPROVAL_EXPIRED' }, at);
    const scope = { organizationId: approval.organizationId, environment: approval.environment };
    try {
      await commitRefusal(approval, async () => [
        ...changes,
        ...(await refusalOf(decided, actor, at, 'fail', { failureCode: 'APPROVAL_EXPIRED' })),
        decisionAudit(approval, actor, action, at, {}),
        eventChange({ ...scope, type: 'approval.expired', data: presentApproval(decided), createdAt: at }, ids),
      ]);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_STATE') return false;
      throw error;
    }
  }

  /**
   * The sweep (safety net of the one-time schedules): expires pending approvals past their expiry.
   * Idempotent. `action`: the audit action of an expiry, named by the worker (functions/expiry-sweep).
   */
  async function expireDue(action: AuditAction): Promise<number> {
    const now = clock.now();
    const due = await store.listExpiredApprovals(now, EXPIRY_BATCH_SIZE);
    let expired = 0;
    for (const approval of due) if (await expireOne(action, approval, now)) expired++;
    return expired;
  }

  /**
   * The expiry queue's message for one approval (its one-time schedule fired): expires it if it is
   * still pending and due. Idempotent: a decided (or already expired) approval is left alone.
   * `not-due` (a schedule fired early, a clock skew) lets the caller have it delivered again.
   */
  async function expire(
    action: AuditAction,
    approvalId: string,
  ): Promise<'expired' | 'decided' | 'not-found' | 'not-due'> {
    const approval = await store.getApproval(approvalId);
    if (!approval) return 'not-found';
    if (approval.status !== 'PENDING') return 'decided';
    const now = clock.now();
    if (approval.expiresAt > now.toISOString()) return 'not-due';
    return (await expireOne(action, approval, now)) ? 'expired' : 'decided';
  }

  return { get, list, approve, reject, expire, expireDue };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;
