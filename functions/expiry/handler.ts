import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { AUDIT } from '../../shared/domain/audit/actions.js';
import { expiryMessageOf } from '../../shared/domain/expiries/ports.js';
import { core } from '../../shared/runtime/core.js';
import { approvalService } from '../../shared/runtime/services/approvals.js';
import { invoiceCollectionService } from '../../shared/runtime/services/invoice-collection.js';
import { paymentLinkExpiryService } from '../../shared/runtime/services/payment-link-expiry.js';
import { observedWorker } from '../../shared/observability/invocation.js';
import { log } from '../../shared/observability/log.js';
import { EXPIRY_QUEUE } from '../../shared/workers.js';
import { transferStepsService } from '../../shared/runtime/services/transfer-steps.js';

let approvals: ReturnType<typeof approvalService> | undefined;
let transfers: ReturnType<typeof transferStepsService> | undefined;
let collection: ReturnType<typeof invoiceCollectionService> | undefined;
let paymentLinks: ReturnType<typeof paymentLinkExpiryService> | undefined;

/** Each kind's conditional state change: `not-due` puts the message back for later. */
async function expire(message: NonNullable<ReturnType<typeof expiryMessageOf>>): Promise<string> {
  if (message.kind === 'invoiceSettlement' || message.kind === 'invoiceRecurring' || message.kind === 'invoiceRetry') {
    collection ??= invoiceCollectionService(core());
    return collection.expire(message);
  }
  if (message.kind === 'paymentLink') {
    paymentLinks ??= paymentLinkExpiryService(core());
    return paymentLinks.expire(AUDIT.paymentLink.expire, message.id);
  }
  if (message.kind === 'clearing') {
    transfers ??= transferStepsService(core());
    return transfers.releaseClearing(message.id);
  }
  approvals ??= approvalService(core());
  return approvals.expire(AUDIT.approval.expire, message.id);
}

/**
 * Queue worker, declared in shared/workers.ts (SQS fed by EventBridge Scheduler's one-time schedules
 * in AWS; the in-process queue and scheduler locally): each message names what expires (a pending approval, the clearing of
 * an ACH deposit, an invoice's bank debit settling, a recurring charge's run, a charge's retry, a payment link's `expiresAt`). The expiry is a conditional state change: a message received twice, or naming an
 * approval decided meanwhile, changes nothing. A message that arrives before its expiry is reported failed and received again
 * after the visibility timeout.
 */
export const handler = observedWorker(EXPIRY_QUEUE, async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      try {
        const message = expiryMessageOf(record.body);
        if (!message) {
          log.warn('expiry message ignored: not an expiry', undefined, { messageId: record.messageId });
          return undefined;
        }
        const outcome = await expire(message);
        if (outcome === 'not-due') return { itemIdentifier: record.messageId };
        return undefined;
      } catch (error) {
        log.error('expiry message failed; it is received again', error, { messageId: record.messageId });
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  return { batchItemFailures: failures.filter((failure) => failure !== undefined) };
});
