import * as z from 'zod/mini';
import { AUDIT } from '../domain/audit/actions.js';
import {
  DEFAULT_DISPUTE_PAGE,
  MAX_DISPUTE_OFFSET,
  MAX_DISPUTE_REASON,
  MAX_DISPUTE_RESPONSE,
  MAX_EVIDENCE_URL,
  MAX_RESOLUTION_NOTE,
} from '../domain/disputes/dispute-rules.js';
import type { DisputeService } from '../domain/disputes/dispute-service.js';
import { presentDispute, presentDisputePage } from '../domain/disputes/dispute-view.js';
import { DISPUTE_OUTCOMES, DISPUTE_STATUSES, DISPUTE_TYPES } from '../domain/disputes/types.js';
import { HINTS, defineGroup, operation } from './define.js';
import { amount, describe, idempotencyKey, prefixedId, queryInteger, text } from './fields.js';
import { MAX_PAGE_SIZE, parseLimit, parseQueryInteger } from './pagination.js';

export interface DisputesServices {
  disputes: DisputeService;
}

const op = operation<DisputesServices>();
const disputeParam = { id: 'The dispute id (`dsp_...`).' };

/**
 * An https URL (no other scheme), bounded, single-line text (no control character, no lone
 * surrogate) without credentials: the other organization, its events and webhooks read it.
 */
const evidenceUrl = () =>
  text(MAX_EVIDENCE_URL, `An https:// URL without credentials (at most ${MAX_EVIDENCE_URL} characters).`).check(
    z.refine(isHttpsUrl, 'must be an https:// URL without credentials'),
  );

function isHttpsUrl(value: string): boolean {
  if (!value.startsWith('https://')) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password;
  } catch {
    return false;
  }
}

const OPEN_DESCRIPTION =
  'Disputes a POSTED payment to another organization (agent key: from its wallet): `amount` moves from the receiving wallet to suspense until the operator decides; unanswered by `respondBy` (7 days), the initiator wins. Once per payment; it can no longer be reversed.';

/**
 * Disputes (interface-spec 2.5, 3.2, 4.4; decisions.md section 7; docs/api.md "Disputes"): the
 * paying organization opens one, the receiving organization answers, the operator resolves; both
 * parties read it. An agent key works with its own wallet's side only. No MCP tool for resolve.
 */
// The deadline workflow starts after each opening (Step Functions in AWS: the start grant; locally the in-process runner).
export const DISPUTES = defineGroup<DisputesServices>()('disputes', { grants: ['disputeWorkflow:start'] }, [
  op({
    name: 'openDispute',
    summary: 'Open a dispute',
    description: OPEN_DESCRIPTION,
    access: 'key',
    permission: 'payments:write',
    audit: AUDIT.dispute.create,
    events: ['dispute.created'],
    idempotency: 'key',
    http: { method: 'POST', path: '/v1/disputes', status: 201 },
    mcp: { tool: 'open_dispute', hints: HINTS.money },
    body: () =>
      z.strictObject({
        transactionId: prefixedId('transaction', 'transaction', 'The payment (`txn_...`).'),
        respondentOrgId: z.optional(
          prefixedId('organization', 'organization', 'The receiving organization (`org_...`); checked when given.'),
        ),
        type: describe(z.enum(DISPUTE_TYPES), 'REVERSAL, FRAUD or SERVICE_ISSUE.'),
        amount: amount("At most the payment's amount."),
        reason: text(MAX_DISPUTE_REASON, `Why (1-${MAX_DISPUTE_REASON} characters).`, {
          min: 1,
          multiline: true,
        }),
        idempotencyKey: idempotencyKey(),
      }),
    output: 'disputeView',
    errors: [
      'TRANSACTION_NOT_FOUND',
      'PERMISSION_DENIED',
      'DISPUTE_NOT_ALLOWED',
      'INVALID_STATE',
      'DISPUTE_EXISTS',
      'INVALID_AMOUNT',
      'INSUFFICIENT_FUNDS',
      'WALLET_FROZEN',
      'CONCURRENT_UPDATE',
      'IDEMPOTENCY_KEY_REUSE',
      'IDEMPOTENCY_KEY_IN_USE',
      'ENVIRONMENT_MISMATCH',
    ],
    run: ({ services, auth, audit, body, idempotencyKey: key }) => services.disputes.open(auth, audit, body, key),
  }),
  op({
    name: 'listDisputes',
    summary: 'List disputes',
    description:
      'Disputes where you are initiator or respondent (agent key: its wallet), newest first, by `limit` and `offset`.',
    access: 'key',
    permission: 'payments:read',
    http: { method: 'GET', path: '/v1/disputes', status: 200 },
    mcp: { tool: 'list_disputes', hints: HINTS.read },
    query: () =>
      z.strictObject({
        status: z.optional(describe(z.enum(DISPUTE_STATUSES), 'Only this status.')),
        limit: z.optional(queryInteger(1, MAX_PAGE_SIZE, `1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_DISPUTE_PAGE}).`)),
        offset: z.optional(queryInteger(0, MAX_DISPUTE_OFFSET, `Skipped, 0 to ${MAX_DISPUTE_OFFSET} (default 0).`)),
      }),
    output: 'disputePageView',
    errors: [],
    run: ({ services, auth, query }) =>
      services.disputes.list(
        auth,
        { status: query.status },
        {
          limit: parseLimit(query.limit, DEFAULT_DISPUTE_PAGE),
          offset: parseQueryInteger('offset', query.offset, 0, MAX_DISPUTE_OFFSET, 0),
        },
      ),
    present: presentDisputePage,
  }),
  op({
    name: 'getDispute',
    summary: 'Get a dispute',
    description: 'One dispute (either party).',
    access: 'key',
    permission: 'payments:read',
    http: { method: 'GET', path: '/v1/disputes/{id}', status: 200 },
    params: disputeParam,
    mcp: { tool: 'get_dispute', hints: HINTS.read },
    output: 'disputeView',
    errors: ['DISPUTE_NOT_FOUND', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, params }) => services.disputes.get(auth, params.id!),
    present: presentDispute,
  }),
  op({
    name: 'respondToDispute',
    summary: 'Respond to a dispute',
    description: 'The respondent answers an OPEN dispute before `respondBy`.',
    access: 'key',
    permission: 'payments:write',
    audit: AUDIT.dispute.respond,
    events: ['dispute.responded'],
    http: { method: 'POST', path: '/v1/disputes/{id}/respond', status: 200 },
    params: disputeParam,
    mcp: { tool: 'respond_to_dispute', hints: HINTS.update },
    body: () =>
      z.strictObject({
        response: text(MAX_DISPUTE_RESPONSE, `Your answer (1-${MAX_DISPUTE_RESPONSE} characters).`, {
          min: 1,
          multiline: true,
        }),
        evidenceUrl: z.optional(evidenceUrl()),
      }),
    output: 'disputeView',
    errors: ['DISPUTE_NOT_FOUND', 'PERMISSION_DENIED', 'INVALID_STATE', 'ENVIRONMENT_MISMATCH'],
    run: ({ services, auth, audit, params, body }) => services.disputes.respond(auth, audit, params.id!, body),
    present: presentDispute,
  }),
  op({
    name: 'resolveDispute',
    summary: 'Resolve a dispute (operator)',
    description: 'RESOLVED_AGENT pays the paying wallet; RESOLVED_MERCHANT and CLOSED the receiving wallet.',
    access: 'operator',
    permission: 'service:admin',
    audit: AUDIT.dispute.resolve,
    events: ['dispute.resolved'],
    http: { method: 'POST', path: '/v1/disputes/{id}/resolve', status: 200 },
    params: disputeParam,
    body: () =>
      z.strictObject({
        outcome: describe(z.enum(DISPUTE_OUTCOMES), 'RESOLVED_AGENT, RESOLVED_MERCHANT or CLOSED.'),
        note: z.optional(
          text(MAX_RESOLUTION_NOTE, `Why (at most ${MAX_RESOLUTION_NOTE} characters).`, {
            multiline: true,
          }),
        ),
      }),
    output: 'disputeView',
    errors: ['DISPUTE_NOT_FOUND', 'INVALID_STATE'],
    run: ({ services, auth, audit, params, body }) => services.disputes.resolve(auth, audit, params.id!, body),
    present: presentDispute,
  }),
]);
